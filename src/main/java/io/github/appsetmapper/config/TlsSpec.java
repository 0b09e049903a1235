package io.github.appsetmapper.config;

/**
 * {@code tls}: files for a private CA ({@code caFile}) and a client certificate ({@code certFile}
 * with {@code keyFile}), or {@code insecureSkipVerify}. Paths as written; null when not set.
 */
public record TlsSpec(
    Pos pos, String caFile, String certFile, String keyFile, boolean insecureSkipVerify) {}
