package io.github.appsetmapper.upstream.cache;

import io.github.appsetmapper.upstream.call.CachePolicy;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A cached listing (every page of it, or the one answer of an unpaginated request): when it was
 * fetched (or last confirmed by 304s), how long it is kept, and which mappings and inputs used it
 * ({@code owners}, for invalidation).
 */
final class CachedListing {
  final Snapshot snapshot;
  final long retentionNanos;
  final Set<String> owners = ConcurrentHashMap.newKeySet();

  /** The shared level's version of this listing and the seq of its flight (null, 0: none). */
  final String version;

  final long seq;

  private final long fetchedNanos;
  private volatile boolean invalidated;

  CachedListing(Snapshot snapshot, long fetchedNanos, CachePolicy policy) {
    this(snapshot, fetchedNanos, policy, null, 0);
  }

  CachedListing(
      Snapshot snapshot, long fetchedNanos, CachePolicy policy, String version, long seq) {
    this.version = version;
    this.seq = seq;
    this.snapshot = snapshot;
    this.fetchedNanos = fetchedNanos;
    this.retentionNanos = policy.retention().toNanos();
  }

  int weight() {
    return (int) Math.min(Integer.MAX_VALUE, snapshot.weight());
  }

  boolean freshFor(CachePolicy policy, long now) {
    return !invalidated && now - fetchedNanos < policy.ttl().toNanos();
  }

  /** Usable in place of a failing upstream: within ttl + staleIfError of its fetch. */
  boolean usableWhenFailing(CachePolicy policy, long now) {
    return !policy.staleIfError().isZero()
        && now - fetchedNanos < policy.ttl().plus(policy.staleIfError()).toNanos();
  }

  /** The next call must ask the upstream (conditionally when it can); stale use stays possible. */
  void invalidate() {
    invalidated = true;
  }
}
