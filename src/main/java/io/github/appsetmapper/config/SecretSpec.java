package io.github.appsetmapper.config;

/**
 * Where a secret comes from ({@code secrets.<name>}): a file (re-read when it changes) and/or an
 * environment variable. When both are given the variable wins if it is set, which lets a local run
 * stand in for a mounted Kubernetes Secret.
 */
public record SecretSpec(Pos pos, String name, String file, String env) {}
