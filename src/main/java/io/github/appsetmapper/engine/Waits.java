package io.github.appsetmapper.engine;

import io.github.appsetmapper.upstream.call.Deadline;
import java.time.Duration;

/**
 * How long to wait on a computation bounded by the same deadline: what is left of it, plus a moment
 * for the computation to end on its own and say why (a call cut by the deadline names itself so in
 * the error). The extra time only runs out when the computation ignores the deadline; then the wait
 * ends anyway.
 */
final class Waits {
  static final Duration GRACE = Duration.ofSeconds(1);

  private Waits() {}

  static long nanos(Deadline deadline) {
    return deadline.remaining().plus(GRACE).toNanos();
  }

  static long nanos(Duration budget) {
    return budget.plus(GRACE).toNanos();
  }
}
