package io.github.appsetmapper.redis;

import io.lettuce.core.RedisFuture;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.async.RedisAsyncCommands;
import java.util.List;

/**
 * A value read from Redis with a bound on its size, the one way this server reads a value: anyone
 * who can write this Redis can put 50 MB under a key, and reading it whole costs that much memory
 * and, on a busy machine, more than {@code --redis-timeout} (a baseline then read as "Redis has not
 * answered"). One script measures the value first ({@code TYPE}, {@code STRLEN}) and sends it only
 * when it fits: an oversized value, or one of another type, is said for what it is and never
 * crosses the wire.
 *
 * @param value the bytes, when present and within the bound
 * @param size the value's length in bytes (-1: not a string)
 * @param type Redis's type of the value ("none" when there is none)
 */
record Bounded(byte[] value, long size, String type) {
  /** The largest baseline, epoch, invalidation, lease or key-check record: sealed, a few dozen. */
  static final long SMALL = 4096;

  /** Headroom over {@code --redis-max-entry-bytes} for a listing's own fields and its seal. */
  private static final long LISTING_HEADROOM = 4L * 1024 * 1024;

  static final String GET =
      "local t = redis.call('TYPE', KEYS[1]).ok"
          + " if t == 'none' then return {} end"
          + " if t ~= 'string' then return {-1, t} end"
          + " local n = redis.call('STRLEN', KEYS[1])"
          + " if n > tonumber(ARGV[1]) then return {n} end"
          + " return {n, redis.call('GET', KEYS[1])}";

  /** The largest listing (or landing carrying one) read or written: bodies plus headroom. */
  static long listing(RedisSettings settings) {
    return 2 * settings.maxEntryBytes() + LISTING_HEADROOM;
  }

  /** Sends the bounded read of {@code name} (pipelined with whatever else is sent). */
  static RedisFuture<List<Object>> get(
      RedisAsyncCommands<byte[], byte[]> commands, String name, long limit) {
    return commands.eval(
        GET,
        ScriptOutputType.MULTI,
        new byte[][] {RedisKeys.bytes(name)},
        RedisKeys.bytes(Long.toString(limit)));
  }

  /** The answer of {@link #get}. */
  static Bounded of(Object answer) {
    List<?> parts = (List<?>) answer;
    if (parts.isEmpty()) {
      return new Bounded(null, 0, "none");
    }
    long size = (Long) parts.get(0);
    if (size < 0) {
      Object type = parts.size() > 1 ? parts.get(1) : null;
      return new Bounded(null, -1, type instanceof byte[] b ? safe(new String(b)) : "?");
    }
    return new Bounded(parts.size() > 1 ? (byte[]) parts.get(1) : null, size, "string");
  }

  /** No value under the key. */
  boolean absent() {
    return "none".equals(type);
  }

  /** A value that is there and could not be read: too large, or not a string. */
  boolean refused() {
    return !absent() && value == null;
  }

  /**
   * Why the value was not read, in words for an answer or a log line ({@code what}: "a baseline").
   */
  String why(String what, long limit) {
    if (size < 0) {
      return "the value in Redis is a " + type + ", not a string; it cannot be " + what;
    }
    return "the value in Redis is "
        + size
        + " bytes, more than "
        + what
        + " can be (at most "
        + limit
        + ")";
  }

  private static String safe(String type) {
    return type.matches("[a-z_-]{1,16}") ? type : "?";
  }
}
