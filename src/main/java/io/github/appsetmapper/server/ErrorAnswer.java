package io.github.appsetmapper.server;

/** The status and one-line message of a failed answer: {@code {"error":"..."}}. */
public record ErrorAnswer(int status, String message) {}
