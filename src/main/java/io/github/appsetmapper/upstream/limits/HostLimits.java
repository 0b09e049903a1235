package io.github.appsetmapper.upstream.limits;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Per-host manners shared by every call of the server: at most {@code maxConcurrent} calls in
 * flight to one host, and, where a {@link RateRule} matches, at most that many calls per second (a
 * token bucket holding one second's worth, so short bursts pass and a steady flow is paced).
 */
public final class HostLimits {
  /** A slot taken; closing it frees the slot. */
  public interface Permit extends AutoCloseable {
    @Override
    void close();
  }

  /** Why a permit was not given in time. */
  public static final class Refused extends Exception {
    public Refused(String message) {
      super(message, null, false, false);
    }
  }

  private final int maxConcurrent;
  private final List<RateRule> rules;
  private final Map<String, Semaphore> slots = new ConcurrentHashMap<>();
  private final Map<String, Bucket> buckets = new ConcurrentHashMap<>();

  public HostLimits(int maxConcurrent, List<RateRule> rules) {
    this.maxConcurrent = maxConcurrent;
    this.rules = List.copyOf(rules);
  }

  /**
   * Waits at most {@code wait} for a slot to {@code host} (and for the rate limit).
   *
   * @throws Refused when the wait would be longer
   */
  public Permit acquire(String host, Duration wait) throws Refused, InterruptedException {
    String key = host.toLowerCase(Locale.ROOT);
    long started = System.nanoTime();
    Bucket bucket = bucket(key);
    if (bucket != null) {
      long delay = bucket.reserve(wait.toNanos());
      if (delay < 0) {
        throw new Refused(
            "the rate limit for "
                + host
                + " ("
                + format(bucket.perSecond)
                + "/s) leaves no room before the time runs out");
      }
      if (delay > 0) {
        TimeUnit.NANOSECONDS.sleep(delay);
      }
    }
    Semaphore semaphore = slots.computeIfAbsent(key, k -> new Semaphore(maxConcurrent, true));
    long left = wait.toNanos() - (System.nanoTime() - started);
    if (left <= 0 || !semaphore.tryAcquire(left, TimeUnit.NANOSECONDS)) {
      throw new Refused(
          "no free connection to "
              + host
              + " in time ("
              + maxConcurrent
              + " at most at once, --host-max-connections)");
    }
    return semaphore::release;
  }

  private Bucket bucket(String host) {
    for (RateRule rule : rules) {
      if (rule.matches(host)) {
        return buckets.computeIfAbsent(host, k -> new Bucket(rule.perSecond()));
      }
    }
    return null;
  }

  private static String format(double perSecond) {
    return perSecond == Math.rint(perSecond)
        ? String.valueOf((long) perSecond)
        : String.format(Locale.ROOT, "%.3f", perSecond);
  }

  /** Token bucket; a reservation may take a token not there yet and wait for it. */
  private static final class Bucket {
    private final double perSecond;
    private final double capacity;
    private double tokens;
    private long updated = System.nanoTime();

    Bucket(double perSecond) {
      this.perSecond = perSecond;
      this.capacity = Math.max(1, perSecond);
      this.tokens = capacity;
    }

    /** Nanoseconds to wait for the reserved token, or -1 when that is longer than {@code max}. */
    synchronized long reserve(long max) {
      long now = System.nanoTime();
      tokens = Math.min(capacity, tokens + (now - updated) / 1e9 * perSecond);
      updated = now;
      long delay = tokens >= 1 ? 0 : (long) Math.ceil((1 - tokens) / perSecond * 1e9);
      if (delay > max) {
        return -1;
      }
      tokens -= 1;
      return delay;
    }
  }
}
