package io.github.appsetmapper.upstream.limits;

import io.github.appsetmapper.upstream.call.Headers;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The rate-limit headers upstreams send, kept per host for metrics: GitHub's and Docker Hub's
 * {@code X-RateLimit-Limit/Remaining/Reset} (Docker Hub adds {@code ;w=21600}), the IETF draft's
 * {@code RateLimit-Limit/Remaining/Reset} and its combined {@code RateLimit: limit=..,
 * remaining=.., reset=..} (or {@code r=}/{@code t=}). A reset above 10^9 is a Unix time, below a
 * number of seconds from now. Read-only to everyone else: {@link #snapshot()}.
 */
public final class RateLimits {
  private static final Pattern LEADING_NUMBER = Pattern.compile("\\s*(\\d+)");
  private static final Pattern PARAM =
      Pattern.compile("(?:^|[,;\\s])(limit|remaining|reset|r|t)\\s*=\\s*(\\d+)");
  private static final int MAX_HOSTS = 1000;

  private final Map<String, RateLimitState> byHost = new ConcurrentHashMap<>();

  /** Records what {@code headers} say, if anything. */
  public void observe(String host, Headers headers, Instant now) {
    Long limit = number(headers, "X-RateLimit-Limit", "RateLimit-Limit");
    Long remaining = number(headers, "X-RateLimit-Remaining", "RateLimit-Remaining");
    Long reset = number(headers, "X-RateLimit-Reset", "RateLimit-Reset");
    String combined = headers.first("RateLimit");
    if (combined != null) {
      Matcher m = PARAM.matcher(combined.toLowerCase(Locale.ROOT));
      while (m.find()) {
        long value = Long.parseLong(m.group(2));
        switch (m.group(1)) {
          case "limit" -> limit = limit == null ? value : limit;
          case "remaining", "r" -> remaining = remaining == null ? value : remaining;
          default -> reset = reset == null ? value : reset;
        }
      }
    }
    if (limit == null && remaining == null && reset == null) {
      return;
    }
    Instant resetAt =
        reset == null
            ? null
            : reset > 1_000_000_000L ? Instant.ofEpochSecond(reset) : now.plusSeconds(reset);
    if (byHost.size() >= MAX_HOSTS && !byHost.containsKey(host)) {
      byHost.clear();
    }
    String key = host.toLowerCase(Locale.ROOT);
    byHost.put(key, new RateLimitState(key, limit, remaining, resetAt, now));
  }

  /** The last state of every host that sent rate-limit headers, by host name. */
  public Map<String, RateLimitState> snapshot() {
    return java.util.Collections.unmodifiableMap(new TreeMap<>(byHost));
  }

  private static Long number(Headers headers, String... names) {
    for (String name : names) {
      String value = headers.first(name);
      if (value != null) {
        Matcher m = LEADING_NUMBER.matcher(value);
        if (m.lookingAt()) {
          try {
            return Long.parseLong(m.group(1));
          } catch (NumberFormatException e) {
            return null;
          }
        }
      }
    }
    return null;
  }
}
