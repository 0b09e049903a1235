package io.github.appsetmapper.upstream.call;

import java.time.Duration;

/**
 * A mapping's time budget for one answer ({@code deadline}), measured on the monotonic clock. Every
 * call, retry wait, token fetch and queue wait of that answer is cut to what is left of it.
 */
public record Deadline(Duration budget, long endNanos) {
  /** No deadline: calls are bounded by their own timeouts only. */
  public static final Deadline NONE = new Deadline(null, Long.MAX_VALUE);

  public static Deadline after(Duration budget) {
    return new Deadline(budget, System.nanoTime() + budget.toNanos());
  }

  public boolean isSet() {
    return budget != null;
  }

  /** What is left, never negative; a very long duration when there is no deadline. */
  public Duration remaining() {
    if (!isSet()) {
      return Duration.ofDays(1);
    }
    long left = endNanos - System.nanoTime();
    return left <= 0 ? Duration.ZERO : Duration.ofNanos(left);
  }

  public boolean expired() {
    return isSet() && endNanos - System.nanoTime() <= 0;
  }
}
