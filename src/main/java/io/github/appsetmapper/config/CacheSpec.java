package io.github.appsetmapper.config;

import java.time.Duration;

/**
 * {@code cache: {ttl, staleIfError}} as written: how long an upstream answer is fresh, and how long
 * after that it may still stand in for a failing upstream.
 */
public record CacheSpec(Pos pos, Duration ttl, Duration staleIfError) {
  static final java.util.List<String> KEYS = java.util.List.of("ttl", "staleIfError");
}
