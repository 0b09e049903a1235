package io.github.appsetmapper.upstream.limits;

import java.time.Instant;

/**
 * What a host last said about its rate limit ({@code X-RateLimit-*}, {@code RateLimit-*} or the
 * combined {@code RateLimit} header); a field the host did not send is null.
 */
public record RateLimitState(
    String host, Long limit, Long remaining, Instant reset, Instant observed) {}
