package io.github.appsetmapper.tracing;

import io.github.appsetmapper.metrics.Metrics;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * Spans handed to the export queue and not yet through the exporter. Kept below the queue's size,
 * so that the SDK never drops a span silently: we drop it first, and count it.
 */
final class Backlog {
  private final AtomicLong waiting = new AtomicLong();
  // Asked for when a span is dropped: the runtime makes its metrics on first use.
  private final Supplier<Metrics> metrics;

  Backlog(Supplier<Metrics> metrics) {
    this.metrics = metrics;
  }

  /** Whether one more span fits below {@code max}; if so, it is counted as waiting. */
  boolean admit(int max) {
    while (true) {
      long now = waiting.get();
      if (now >= max) {
        return false;
      }
      if (waiting.compareAndSet(now, now + 1)) {
        return true;
      }
    }
  }

  /** {@code spans} left the queue (sent, or failed to). */
  void exported(int spans) {
    waiting.addAndGet(-spans);
  }

  /** {@code spans} dropped, and why: {@code queue_full}, {@code export_failed}. */
  void dropped(String reason, long spans) {
    try {
      metrics.get().tracesDropped(reason, spans);
    } catch (RuntimeException e) {
      // Bookkeeping never fails a getparams.
    }
  }
}
