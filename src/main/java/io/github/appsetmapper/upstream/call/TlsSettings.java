package io.github.appsetmapper.upstream.call;

import java.nio.file.Path;

/**
 * {@code tls}: a private CA to trust instead of the JVM's ({@code caFile}, PEM, one or more
 * certificates), a client certificate for mTLS ({@code certFile} PEM chain with {@code keyFile},
 * PKCS#8, PKCS#1 or SEC1), or no verification at all ({@code insecureSkipVerify}). Null fields are
 * not set. The files are read when a call needs them and re-read when they change.
 */
public record TlsSettings(Path caFile, Path certFile, Path keyFile, boolean insecureSkipVerify) {}
