package io.github.appsetmapper.upstream.call;

import java.time.Duration;

/**
 * How long a request's answer is fresh ({@code ttl}) and how long after that it may still stand in
 * for a failing upstream ({@code staleIfError}, zero for never).
 */
public record CachePolicy(Duration ttl, Duration staleIfError) {
  public CachePolicy {
    if (ttl == null || ttl.isNegative() || ttl.isZero()) {
      throw new IllegalArgumentException("ttl must be above zero");
    }
    staleIfError = staleIfError == null ? Duration.ZERO : staleIfError;
  }

  /**
   * How long an entry is kept after it was fetched: fresh for {@code ttl}, then kept for stale use
   * and for revalidation (an ETag sent back) for {@code staleIfError}, at least another {@code
   * ttl}.
   */
  public Duration retention() {
    return ttl.plus(staleIfError.compareTo(ttl) > 0 ? staleIfError : ttl);
  }
}
