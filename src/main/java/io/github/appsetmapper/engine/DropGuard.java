package io.github.appsetmapper.engine;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.RemovalCause;
import io.github.appsetmapper.config.MaxDrop;
import io.github.appsetmapper.digest.Sha256;
import io.github.appsetmapper.text.Plural;
import io.github.appsetmapper.upstream.call.Deadline;
import io.github.appsetmapper.upstream.call.RequestFailure;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The memory of {@code maxDrop}: the row count of the last good answer per mapping name, input and
 * ApplicationSet. It lives with the engine, not with the loaded mappings, so a reload keeps it.
 * Alone it is in memory only, so a restart forgets it (the first answer after a restart sets the
 * baseline); with a shared {@link BaselineStore} every replica reads and writes the same baselines,
 * which outlive restarts, and this memory is each replica's floor: the last baseline it saw, which
 * a baseline missing from the store (deleted, flushed) or older than it (replayed) cannot lower,
 * cleared only by a reset. A refused answer never becomes the baseline.
 *
 * <p>Callers choose the input and the ApplicationSet name, so a key holds their digests, never the
 * text: a few hundred 1 MiB inputs cost a few kilobytes. The number of keys is bounded; when the
 * bound is reached the least recently used baseline goes, which turns the guard off for that input
 * until its next answer sets a new baseline ({@link #evictions()} counts them).
 */
public final class DropGuard {
  static final int MAX_KEYS = 100_000;

  /** The mapping name (a loaded name, short) and 128 bits of each digest. */
  private record Key(String mapping, long input1, long input2, long appSet1, long appSet2) {
    static Key of(String mapping, Digest input, Digest appSet) {
      return new Key(mapping, input.high(), input.low(), appSet.high(), appSet.low());
    }

    BaselineStore.Key shared() {
      return new BaselineStore.Key(
          Digest.of(mapping).hex(),
          new Digest(input1, input2).hex(),
          new Digest(appSet1, appSet2).hex());
    }

    boolean matches(String mapping, Digest input, Digest appSet) {
      return this.mapping.equals(mapping)
          && (input == null || (input1 == input.high() && input2 == input.low()))
          && (appSet == null || (appSet1 == appSet.high() && appSet2 == appSet.low()));
    }
  }

  /** The first 128 bits of a SHA-256. */
  private record Digest(long high, long low) {
    static Digest of(String text) {
      ByteBuffer buffer = ByteBuffer.wrap(Sha256.of(text));
      return new Digest(buffer.getLong(), buffer.getLong());
    }

    String hex() {
      return String.format("%016x%016x", high, low);
    }

    static Digest ofHex(String hex) {
      return new Digest(
          Long.parseUnsignedLong(hex.substring(0, 16), 16),
          Long.parseUnsignedLong(hex.substring(16, 32), 16));
    }
  }

  /** What this replica last knew of a key: its floor. */
  private record Floor(int rows, long seq, BaselineStore.Epochs epochs) {}

  private final AtomicLong evictions = new AtomicLong();
  private final Cache<Key, Floor> last;
  private final BaselineStore store;

  public DropGuard() {
    this(MAX_KEYS, BaselineStore.NONE);
  }

  /** With baselines shared through {@code store}. */
  public DropGuard(BaselineStore store) {
    this(MAX_KEYS, store);
  }

  DropGuard(int maxKeys) {
    this(maxKeys, BaselineStore.NONE);
  }

  DropGuard(int maxKeys, BaselineStore store) {
    this.store = store;
    // Another replica's reset: this replica's floors written before it go at once (a floor
    // written after it, under its generation, stays: a replayed message cannot clear it).
    store.onReset(
        reset ->
            forget(
                reset.mapping(),
                reset.input() == null ? null : Digest.ofHex(reset.input()),
                reset.applicationSet() == null ? null : Digest.ofHex(reset.applicationSet()),
                floor -> before(floor, reset)));
    this.last =
        Caffeine.newBuilder()
            .maximumSize(maxKeys)
            .executor(Runnable::run)
            .removalListener(
                (Key key, Floor floor, RemovalCause cause) -> {
                  if (cause == RemovalCause.SIZE) {
                    evictions.incrementAndGet();
                  }
                })
            .build();
  }

  /** Whether {@code floor} was written before {@code reset} (which then clears it). */
  private static boolean before(Floor floor, BaselineStore.Reset reset) {
    if (reset.input() != null && reset.applicationSet() != null) {
      return floor.seq() < reset.generation();
    }
    if (reset.input() != null) {
      return floor.epochs().input() < reset.generation();
    }
    return floor.epochs().mapping() < reset.generation();
  }

  /**
   * Sets this replica's baseline as if the last good answer had had {@code rows} rows: a test
   * case's {@code baseline}, so that {@code maxDrop} can be tested. Never shared.
   */
  void seed(String mapping, String input, String applicationSet, int rows) {
    Key key = Key.of(mapping, Digest.of(input), Digest.of(applicationSet));
    last.put(key, new Floor(rows, 1, BaselineStore.Epochs.ZERO));
  }

  /** Refuses a drop larger than {@code maxDrop}; otherwise records {@code rows} as the baseline. */
  void check(String mapping, MaxDrop maxDrop, String input, String applicationSet, int rows)
      throws RequestFailure {
    check(mapping, maxDrop, input, applicationSet, rows, Deadline.NONE);
  }

  /**
   * As {@link #check(String, MaxDrop, String, String, int)}; a replica with no floor of its own for
   * the key waits for the shared store within {@code deadline} (the getparams's) rather than its
   * usual timeout, since its alternative is refusing the answer: on a busy machine a baseline read
   * slower than {@code --redis-timeout} used to turn a fifth of a cold burst into 503s.
   */
  void check(
      String mapping,
      MaxDrop maxDrop,
      String input,
      String applicationSet,
      int rows,
      Deadline deadline)
      throws RequestFailure {
    if (maxDrop == null) {
      return;
    }
    Key key = Key.of(mapping, Digest.of(input), Digest.of(applicationSet));
    boolean ownFloor = last.getIfPresent(key) != null;
    BaselineStore.Read shared =
        ownFloor || !store.shared() || !deadline.isSet()
            ? store.read(key.shared())
            : store.read(key.shared(), deadline.endNanos());
    Floor known = baseline(key, shared, mapping);
    Integer before = known == null || known.rows() < 0 ? null : known.rows();
    if (before != null && maxDrop.refuses(before, rows)) {
      throw RequestFailure.guard(
          "the answer has "
              + Plural.of(rows, "row")
              + ", "
              + (before - rows)
              + " fewer than the last good answer ("
              + before
              + "), more than maxDrop ("
              + maxDrop
              + ") allows; refused so that Argo CD keeps its Applications. If the drop is"
              + " wanted: POST /mappings/"
              + mapping
              + "/guard/reset");
    }
    Floor next =
        new Floor(
            rows,
            known == null ? 1 : known.seq() + 1,
            known == null ? BaselineStore.Epochs.ZERO : known.epochs());
    last.put(key, next);
    store.write(
        key.shared(), new BaselineStore.Baseline(next.rows(), next.seq(), next.epochs()), shared);
  }

  /**
   * The baseline in force for {@code key}: the shared one, unless this replica's floor is newer
   * (the shared one was lost or replayed); the floor alone while the store cannot answer. A floor
   * written before a reset the store shows is cleared; so is one a newer reset marker covers. What
   * the store showed becomes this replica's floor (rows -1: read, none there), so that the key
   * counts as known when the store stops answering. Null: none. The epochs of the result are the
   * ones in force.
   *
   * @throws RequestFailure the baseline cannot be known: the store holds one this replica cannot
   *     open, or it never answered for this key and this replica has no floor of its own (a replica
   *     started while Redis was out of reach must not answer a drop the shared baseline would
   *     refuse)
   */
  private Floor baseline(Key key, BaselineStore.Read shared, String mapping) throws RequestFailure {
    Floor floor = last.getIfPresent(key);
    if (!shared.available()) {
      if (floor == null && store.shared()) {
        throw RequestFailure.guardUnknown(
            "maxDrop: no baseline known for this input: Redis has not answered for it since this"
                + " replica started, and the shared baseline may refuse this answer; refused so"
                + " that Argo CD keeps its Applications. Retried answers pass once Redis answers"
                + " (appset_mapper_redis_up)");
      }
      return floor;
    }
    if (shared.unreadable() != null) {
      throw RequestFailure.guardUnknown(
          "maxDrop: the shared baseline for this input cannot be used: "
              + shared.unreadable()
              + "; refused so that Argo CD keeps its Applications. "
              // A value too large or of another type is no keys mismatch: the reset alone helps.
              + (shared.unreadable().contains("integrity keys")
                  ? "Give every replica the same --redis-integrity-keys-file, or POST /mappings/"
                  : "The way out: POST /mappings/")
              + mapping
              + "/guard/reset");
    }
    BaselineStore.Epochs current = shared.current();
    if (floor != null && floor.epochs().olderThan(current)) {
      last.invalidate(key);
      floor = null;
    }
    BaselineStore.Baseline value = shared.value();
    if (value != null && value.epochs().olderThan(current)) {
      value = null;
    }
    Floor known;
    if (value != null && (floor == null || value.seq() >= floor.seq())) {
      known = new Floor(value.rows(), value.seq(), current);
    } else if (floor != null) {
      known = new Floor(floor.rows(), floor.seq(), current);
    } else {
      known = new Floor(-1, 0, current);
    }
    last.put(key, known);
    return known;
  }

  /**
   * Forgets the baselines of {@code mapping}: all of them, or one input's ({@code input} non-null),
   * of one ApplicationSet when {@code applicationSet} is non-null.
   *
   * @return how many were forgotten
   */
  public int reset(String mapping, String input, String applicationSet) {
    return resetEverywhere(mapping, input, applicationSet).count();
  }

  /** What a reset did: baselines this replica forgot, and whether every replica sees it. */
  public record Reset(int count, boolean everyReplica) {}

  /** As {@link #reset}, saying whether the reset reaches every replica (through the store). */
  public Reset resetEverywhere(String mapping, String input, String applicationSet) {
    Digest inputDigest = input == null ? null : Digest.of(input);
    Digest appSetDigest = applicationSet == null ? null : Digest.of(applicationSet);
    long floorSeq = 0;
    if (inputDigest != null && appSetDigest != null) {
      Floor floor = last.getIfPresent(Key.of(mapping, inputDigest, appSetDigest));
      floorSeq = floor == null ? 0 : floor.seq();
    }
    int count = forget(mapping, inputDigest, appSetDigest);
    boolean everywhere;
    try {
      everywhere =
          store.reset(
              mapping,
              new BaselineStore.Key(
                  Digest.of(mapping).hex(),
                  inputDigest == null ? null : inputDigest.hex(),
                  appSetDigest == null ? null : appSetDigest.hex()),
              floorSeq);
    } catch (RuntimeException e) {
      everywhere = false;
    }
    return new Reset(count, everywhere);
  }

  private int forget(String mapping, Digest inputDigest, Digest appSetDigest) {
    return forget(mapping, inputDigest, appSetDigest, floor -> true);
  }

  private int forget(
      String mapping,
      Digest inputDigest,
      Digest appSetDigest,
      java.util.function.Predicate<Floor> written) {
    int count = 0;
    for (var entry : last.asMap().entrySet()) {
      if (entry.getKey().matches(mapping, inputDigest, appSetDigest)
          && written.test(entry.getValue())
          && last.asMap().remove(entry.getKey(), entry.getValue())
          && entry.getValue().rows() >= 0) {
        count++;
      }
    }
    return count;
  }

  /** How many baselines {@code mapping} has. */
  public int baselines(String mapping) {
    int count = 0;
    for (var entry : last.asMap().entrySet()) {
      if (entry.getKey().mapping().equals(mapping) && entry.getValue().rows() >= 0) {
        count++;
      }
    }
    return count;
  }

  /** How many baselines are held, all mappings together. */
  public long size() {
    return last.estimatedSize();
  }

  /** How many baselines were evicted because the bound was reached. */
  public long evictions() {
    return evictions.get();
  }
}
