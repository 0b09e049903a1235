package io.github.appsetmapper.redis;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

/** What the Redis level did, read by the metrics at each scrape. */
public final class RedisStats {
  /** Operations on Redis, for {@code appset_mapper_redis_errors_total{op}}. */
  public enum Op {
    CACHE_READ,
    CACHE_WRITE,
    LEASE,
    INVALIDATE,
    BASELINE_READ,
    BASELINE_WRITE,
    GUARD_RESET,
    PUBLISH
  }

  /** What failed its integrity check, for {@code appset_mapper_redis_integrity_failures_total}. */
  public enum Sealed {
    LISTING,
    LANDED,
    INVALIDATION,
    BASELINE,
    GUARD_EPOCH,
    MESSAGE,
    /** A listing older than one this replica already saw under its key (a rollback). */
    ROLLBACK,
    /** Another replica's key-check record does not open: the replicas' keys differ. */
    KEY_CHECK,
    /** The sequence counter was not a number, lowered, or near overflow: set again. */
    SEQ,
    /** A lease that is not a sealed lease of ours: ignored. */
    LEASE
  }

  /** How a cross-replica flight went, for {@code appset_mapper_redis_leases_total{result}}. */
  public enum Lease {
    /** This replica held the lease and fetched. */
    WON,
    /** Another replica fetched; this one took its listing. */
    WAITED,
    /** Waited until only the time for its own call was left, then fetched on its own. */
    GAVE_UP
  }

  /** Listings kept out of Redis, for {@code appset_mapper_redis_not_shared_total{reason}}. */
  public enum NotShared {
    /** Over {@code --redis-max-entry-bytes}. */
    TOO_LARGE,
    /** A secret value this server holds appears in it. */
    SECRET,
    /** The upstream said {@code Cache-Control: no-store}. */
    NO_STORE
  }

  private final AtomicBoolean up = new AtomicBoolean();
  private final java.util.concurrent.atomic.AtomicInteger waiting =
      new java.util.concurrent.atomic.AtomicInteger();
  private final LongAdder skipped = new LongAdder();
  private final Map<Op, LongAdder> errors = counters(Op.class);
  private final Map<Sealed, LongAdder> integrity = counters(Sealed.class);
  private final Map<Lease, LongAdder> leases = counters(Lease.class);
  private final Map<NotShared, LongAdder> notShared = counters(NotShared.class);

  private static <E extends Enum<E>> Map<E, LongAdder> counters(Class<E> type) {
    Map<E, LongAdder> map = new EnumMap<>(type);
    for (E value : type.getEnumConstants()) {
      map.put(value, new LongAdder());
    }
    return map;
  }

  /** 1 while Redis answers, 0 while this replica runs on its own memory. */
  public boolean up() {
    return up.get();
  }

  boolean up(boolean now) {
    return up.getAndSet(now) != now;
  }

  /** Operations not tried because Redis was down: each one a fallback to this replica's memory. */
  public long skipped() {
    return skipped.sum();
  }

  void skip() {
    skipped.increment();
  }

  /** Getparams waiting now for another replica's fetch. */
  public int waiting() {
    return waiting.get();
  }

  void waiting(int delta) {
    waiting.addAndGet(delta);
  }

  public long errors(Op op) {
    return errors.get(op).sum();
  }

  void error(Op op) {
    errors.get(op).increment();
  }

  public long integrityFailures(Sealed what) {
    return integrity.get(what).sum();
  }

  void integrityFailure(Sealed what) {
    integrity.get(what).increment();
  }

  public long leases(Lease result) {
    return leases.get(result).sum();
  }

  void lease(Lease result) {
    leases.get(result).increment();
  }

  public long notShared(NotShared reason) {
    return notShared.get(reason).sum();
  }

  void keptHere(NotShared reason) {
    notShared.get(reason).increment();
  }
}
