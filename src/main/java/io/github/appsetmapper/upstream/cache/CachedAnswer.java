package io.github.appsetmapper.upstream.cache;

import io.github.appsetmapper.upstream.UpstreamResponse;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A cached upstream answer: when it was fetched (or last confirmed by a 304), how long it is kept,
 * and which mappings and inputs used it ({@code owners}, for invalidation).
 */
final class CachedAnswer {
  final UpstreamResponse response;
  final long retentionNanos;
  final Set<String> owners = ConcurrentHashMap.newKeySet();
  private volatile long fetchedNanos;
  private volatile boolean invalidated;

  CachedAnswer(UpstreamResponse response, long fetchedNanos, CachePolicy policy) {
    this.response = response;
    this.fetchedNanos = fetchedNanos;
    this.retentionNanos = policy.retention().toNanos();
  }

  int weight() {
    int headers = 0;
    for (var field : response.headers().fields()) {
      headers += field.name().length() + field.value().length() + 16;
    }
    long total = (long) response.body().length + headers + 256;
    return (int) Math.min(Integer.MAX_VALUE, total);
  }

  boolean freshFor(CachePolicy policy, long now) {
    return !invalidated && now - fetchedNanos < policy.ttl().toNanos();
  }

  /** Usable in place of a failing upstream: within ttl + staleIfError of its last fetch. */
  boolean usableWhenFailing(CachePolicy policy, long now) {
    return !policy.staleIfError().isZero()
        && now - fetchedNanos < policy.ttl().plus(policy.staleIfError()).toNanos();
  }

  long ageNanos(long now) {
    return now - fetchedNanos;
  }

  /** A 304 confirmed it: fresh again. */
  void confirmed(long now) {
    fetchedNanos = now;
    invalidated = false;
  }

  /** The next call must ask the upstream (conditionally when it can); stale use stays possible. */
  void invalidate() {
    invalidated = true;
  }
}
