package io.github.appsetmapper.shadow;

import io.github.appsetmapper.upstream.limits.RateLimitState;
import java.util.Collection;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Whether a host's rate limit leaves room for a candidate's calls: what its last rate-limit headers
 * said ({@code X-RateLimit-*}, {@code RateLimit-*}), as the live transport saw them. A host that
 * sent none, or whose window has reset since, has room.
 */
final class Headroom {
  private final Supplier<Map<String, RateLimitState>> states;
  private final int minPercent;

  Headroom(Supplier<Map<String, RateLimitState>> states, int minPercent) {
    this.states = states;
    this.minPercent = minPercent;
  }

  /** The first of these hosts without room, or null. */
  String lowOn(Collection<String> hosts) {
    if (minPercent == 0 || hosts.isEmpty()) {
      return null;
    }
    Map<String, RateLimitState> known = states.get();
    for (String host : hosts) {
      RateLimitState state = known.get(host.toLowerCase(Locale.ROOT));
      if (state != null && low(state)) {
        return host;
      }
    }
    return null;
  }

  private boolean low(RateLimitState state) {
    if (state.remaining() == null) {
      return false;
    }
    if (state.reset() != null && state.reset().isBefore(java.time.Instant.now())) {
      return false;
    }
    if (state.limit() == null || state.limit() <= 0) {
      return state.remaining() <= 0;
    }
    return state.remaining() * 100 < (long) minPercent * state.limit();
  }
}
