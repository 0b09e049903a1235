package io.github.appsetmapper.engine;

import java.util.ArrayList;
import java.util.List;

/**
 * When each upstream call of a getparams started and ended, so a deadline error names the slowest.
 */
final class CallTimings {
  /** One call: when it started and ended (0 while running), and whether the deadline cut it. */
  static final class Timing {
    final String what;
    final long started = System.nanoTime();
    volatile long ended;
    volatile boolean cut;

    private Timing(String what) {
      this.what = what;
    }

    long nanos(long now) {
      return (ended == 0 ? now : ended) - started;
    }

    void end(boolean cutByDeadline) {
      if (ended == 0) {
        ended = System.nanoTime();
        cut = cutByDeadline;
      }
    }
  }

  private final List<Timing> timings = new ArrayList<>();

  /** A call starting now; {@code what} names it: "enrich.x GET https://...". */
  synchronized Timing start(String what) {
    Timing timing = new Timing(what);
    timings.add(timing);
    return timing;
  }

  /** The call that took (or has been taking) longest: "enrich.x GET https://... (1200 ms)". */
  synchronized String slowest() {
    long now = System.nanoTime();
    Timing slowest = null;
    for (Timing timing : timings) {
      if (slowest == null || timing.nanos(now) > slowest.nanos(now)) {
        slowest = timing;
      }
    }
    if (slowest == null) {
      return "none was made";
    }
    String how =
        slowest.cut
            ? "cut off by the deadline"
            : slowest.ended == 0
                ? "still running"
                : "took " + slowest.nanos(now) / 1_000_000 + " ms";
    return slowest.what + " (" + how + ")";
  }
}
