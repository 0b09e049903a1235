package io.github.appsetmapper.config;

/** A deploy-time setting ({@code vars.<name>}): --var beats the environment beats the default. */
public record VarSpec(Pos pos, String name, String defaultValue, String env, String description) {}
