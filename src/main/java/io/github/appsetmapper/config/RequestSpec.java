package io.github.appsetmapper.config;

import java.util.Map;
import java.util.Set;

/**
 * An upstream request as written: what only a request has (method, URL, query, body, the 2xx it
 * accepts), and the {@link RequestOptions} it may also take from {@code defaults}. {@code body} is
 * plain data whose string leaves are {@link Expr} templates; null means no body. {@code
 * acceptStatus}: 2xx statuses besides 200 and 203 that are complete answers (null: none).
 */
public record RequestSpec(
    Pos pos,
    String method,
    Expr url,
    Map<String, Expr> query,
    Object body,
    Set<Integer> acceptStatus,
    RequestOptions options) {}
