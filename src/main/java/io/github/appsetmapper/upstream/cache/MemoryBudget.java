package io.github.appsetmapper.upstream.cache;

import java.util.IdentityHashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * One budget, in bytes, for the upstream answers this server holds: the cache may fill at most half
 * of it ({@link #cacheShare()}); answers in flight (held by getparams calls still computing) take
 * what the cache leaves. An answer shared by many calls is counted once. What a getparams builds
 * from its answers (the parsed JSON, the rows) is counted too, as an estimate ({@link #reserve}): a
 * small answer can parse into far more heap than its bytes. When something does not fit, the
 * getparams that needed it fails with a 503 instead of the heap running out.
 */
public final class MemoryBudget {
  /** Sized for a 512 MiB container whose heap is about 75% of it. */
  public static final long DEFAULT_BYTES = 128L * 1024 * 1024;

  private final long total;
  private final boolean caches;
  private final Map<byte[], Integer> held = new IdentityHashMap<>();
  private long heldBytes;
  private long reservedBytes;
  private volatile LongSupplier cacheBytes = () -> 0;

  public MemoryBudget(long total) {
    this(total, true);
  }

  private MemoryBudget(long total, boolean caches) {
    if (total < 1024) {
      throw new IllegalArgumentException("the memory budget must be at least 1024 bytes");
    }
    this.total = total;
    this.caches = caches;
  }

  /**
   * A budget for answers in flight only: its cache share is zero, so nothing is kept (shadow mode's
   * candidates write no cache entries).
   */
  public static MemoryBudget withoutCache(long total) {
    return new MemoryBudget(total, false);
  }

  public long total() {
    return total;
  }

  /** The most the cache may hold. */
  public long cacheShare() {
    return caches ? total / 2 : 0;
  }

  void cacheBytes(LongSupplier supplier) {
    this.cacheBytes = supplier;
  }

  /** Takes a hold on {@code body} for an answer in flight; false when it does not fit. */
  public synchronized boolean hold(byte[] body) {
    Integer count = held.get(body);
    if (count != null) {
      held.put(body, count + 1);
      return true;
    }
    if (body.length > 0 && !fits(body.length)) {
      return false;
    }
    held.put(body, 1);
    heldBytes += body.length;
    return true;
  }

  public synchronized void release(byte[] body) {
    Integer count = held.get(body);
    if (count == null) {
      return;
    }
    if (count > 1) {
      held.put(body, count - 1);
    } else {
      held.remove(body);
      heldBytes -= body.length;
    }
  }

  /**
   * Takes {@code bytes} for data built from answers in flight (parsed JSON, rows); false when they
   * do not fit.
   */
  public synchronized boolean reserve(long bytes) {
    if (bytes > 0 && !fits(bytes)) {
      return false;
    }
    reservedBytes += bytes;
    return true;
  }

  public synchronized void unreserve(long bytes) {
    reservedBytes = Math.max(0, reservedBytes - bytes);
  }

  /**
   * Whether {@code bytes} more fit beside what is in flight and the cache. The cache never weighs
   * more than its share (its maximum weight), so when they fit beside a full cache it is not asked:
   * its size is read under the cache's eviction lock, which every getparams (each reserves its
   * answer's bytes) took before, a lock the IO threads contended for. Same answers as asking.
   */
  private boolean fits(long bytes) {
    long inFlight = heldBytes + reservedBytes + bytes;
    return inFlight <= total - cacheShare() || inFlight + cacheBytes.getAsLong() <= total;
  }

  /** Bytes in use: answers and data in flight, and the cache. */
  public synchronized long inUse() {
    return heldBytes + reservedBytes + cacheBytes.getAsLong();
  }

  /** Bytes of answers, and of data built from them, held in flight (the cache not included). */
  public synchronized long inFlightBytes() {
    return heldBytes + reservedBytes;
  }
}
