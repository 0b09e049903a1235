package io.github.appsetmapper.redis;

import io.github.appsetmapper.text.Printable;
import io.lettuce.core.RedisCommandExecutionException;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What {@link RedisLink} says of Redis in its log lines: a refusal once per operation and error
 * code every few minutes, a failure's cause in one line (credentials refused named as such).
 * Redis's own words hold no password.
 */
final class RedisWords {
  private static final Logger LOG = LoggerFactory.getLogger("appset_mapper.redis");

  /** Refusals logged in the last {@link #REFUSAL_LOG_EVERY}, by operation and error code. */
  private final com.github.benmanes.caffeine.cache.Cache<String, Boolean> refusalsLogged =
      com.github.benmanes.caffeine.cache.Caffeine.newBuilder()
          .maximumSize(1000)
          .expireAfterWrite(REFUSAL_LOG_EVERY)
          .build();

  static final Duration REFUSAL_LOG_EVERY = Duration.ofMinutes(5);

  /**
   * A reachable Redis refused a command (full: OOM, read-only replica, NOPERM): said once per
   * operation and error code every few minutes, since Redis stays "up" and only this line and
   * {@code appset_mapper_redis_errors_total} show it.
   */
  void refused(RedisStats.Op op, RedisCommandExecutionException refusal) {
    String message = refusal.getMessage() == null ? "" : refusal.getMessage();
    String code = message.split(" ", 2)[0];
    String name = op.name().toLowerCase(java.util.Locale.ROOT);
    if (refusalsLogged.asMap().putIfAbsent(name + " " + code, Boolean.TRUE) == null) {
      LOG.warn(
          "redis: {} refused by Redis ({}): {} (appset_mapper_redis_errors_total{op=\"{}\"};"
              + " said again at most every {} min)",
          name,
          oneLine(message),
          consequence(op),
          name,
          REFUSAL_LOG_EVERY.toMinutes());
    }
  }

  /** What a refused operation means for the replicas, for the log line. */
  private static String consequence(RedisStats.Op op) {
    return switch (op) {
      case BASELINE_WRITE -> "maxDrop baselines are kept in this replica's memory only";
      case INVALIDATE ->
          "cache/invalidate reaches this replica only; others keep their listings until their"
              + " ttl";
      case CACHE_WRITE -> "listings are not shared; each replica calls the upstream itself";
      case LEASE -> "calls in flight are not shared across replicas";
      case GUARD_RESET -> "guard/reset reaches this replica only";
      case CACHE_READ, BASELINE_READ -> "this replica judges from its own memory";
      case PUBLISH -> "other replicas act on it at their next look-up";
    };
  }

  /** Redis's NOAUTH / WRONGPASS / NOPERM answer anywhere among the causes (or suppressed). */
  private static String credentialsRefused(Throwable at, int depth) {
    if (at == null || depth > 16) {
      return null;
    }
    String message = at.getMessage();
    if (message != null) {
      for (String code : new String[] {"NOAUTH", "WRONGPASS", "NOPERM"}) {
        int where = message.indexOf(code + " ");
        if (where >= 0) {
          return message.substring(where);
        }
      }
    }
    for (Throwable suppressed : at.getSuppressed()) {
      String found = credentialsRefused(suppressed, depth + 1);
      if (found != null) {
        return found;
      }
    }
    return at.getCause() == at ? null : credentialsRefused(at.getCause(), depth + 1);
  }

  private static String oneLine(String text) {
    String flat = text.replaceAll("[\\p{Cntrl}]+", " ").strip();
    return Printable.cut(flat, 200);
  }

  /**
   * The cause of a failure in one line: Redis refusing the credentials (NOAUTH, WRONGPASS) is named
   * as such, wherever it sits in the chain of causes (Lettuce wraps it in "Unable to connect");
   * Redis's own words hold no password.
   */
  static String describe(Throwable cause) {
    String refusal = credentialsRefused(cause, 0);
    if (refusal != null) {
      return "Redis refused the credentials: "
          + oneLine(refusal)
          + " (check --redis-password-file and --redis-username-file)";
    }
    Throwable root = cause;
    while (root instanceof ExecutionException && root.getCause() != null) {
      root = root.getCause();
    }
    String message = root == null ? null : root.getMessage();
    return root == null
        ? "unknown"
        : root.getClass().getSimpleName() + (message == null ? "" : ": " + oneLine(message));
  }
}
