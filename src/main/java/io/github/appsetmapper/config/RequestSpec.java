package io.github.appsetmapper.config;

import java.time.Duration;
import java.util.Map;

/**
 * An upstream request as written. {@code body} is plain data whose string leaves are {@link Expr}
 * templates; null means no body. {@code retries}, {@code tls} and {@code cache} are null when not
 * set here. {@code acceptStatus}: 2xx statuses besides 200 and 203 that are complete answers (null:
 * none).
 */
public record RequestSpec(
    Pos pos,
    String method,
    Expr url,
    Map<String, Expr> query,
    Map<String, Expr> headers,
    Object body,
    Duration timeout,
    AuthSpec auth,
    Expr failWhen,
    Integer retries,
    TlsSpec tls,
    CacheSpec cache,
    java.util.Set<Integer> acceptStatus) {}
