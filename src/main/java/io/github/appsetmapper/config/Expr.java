package io.github.appsetmapper.config;

/** The text of an expression or template as written, with its place for error messages. */
public record Expr(String text, Pos pos) {}
