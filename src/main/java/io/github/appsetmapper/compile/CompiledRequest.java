package io.github.appsetmapper.compile;

import io.github.appsetmapper.upstream.tls.TlsSettings;
import java.time.Duration;
import java.util.Map;

/**
 * An upstream request ready to render: {@code defaults} already merged in. {@code body} is a tree
 * of maps, lists, scalars and {@link Template} leaves, or null. {@code step} names the request in
 * errors ({@code list}, {@code enrich.front}). {@code tls} is null for the JVM's defaults; {@code
 * cache} is null when answers are not cached. {@code acceptStatus}: the 2xx statuses besides 200
 * and 203 that are complete answers.
 */
public record CompiledRequest(
    String step,
    String method,
    UrlTemplate url,
    Map<String, Template> query,
    Map<String, Template> headers,
    Object body,
    Duration timeout,
    CompiledAuth auth,
    CompiledExpression failWhen,
    int retries,
    TlsSettings tls,
    io.github.appsetmapper.upstream.cache.CachePolicy cache,
    java.util.Set<Integer> acceptStatus) {}
