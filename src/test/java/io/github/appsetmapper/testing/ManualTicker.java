package io.github.appsetmapper.testing;

import com.github.benmanes.caffeine.cache.Ticker;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/** A clock for the answer cache that moves only when a test says so: no test waits for a ttl. */
public final class ManualTicker implements Ticker {
  private final AtomicLong nanos = new AtomicLong();

  @Override
  public long read() {
    return nanos.get();
  }

  /** Moves the time on by {@code duration}. */
  public void advance(Duration duration) {
    nanos.addAndGet(duration.toNanos());
  }
}
