package io.github.appsetmapper.engine;

import java.util.function.Consumer;

/**
 * Where {@code maxDrop} baselines are shared by every replica ({@code serve --redis}: the package
 * {@code redis}); {@link #NONE} is this replica alone, the default. {@link DropGuard} keeps its own
 * last baseline per key as a floor in front of it and falls back to it whenever this store cannot
 * answer. Keys are digests; every method answers within a bounded time and never throws for the
 * store failing.
 */
public interface BaselineStore {
  /** This replica alone. */
  BaselineStore NONE = new BaselineStore() {};

  /** One baseline's key: hex digests of the mapping name, the input and the ApplicationSet. */
  record Key(String mapping, String input, String applicationSet) {}

  /**
   * The reset generations a baseline was written under: one per mapping, one per mapping and input.
   * A reset raises one; a baseline written under a lower one no longer counts.
   */
  record Epochs(long mapping, long input) {
    public static final Epochs ZERO = new Epochs(0, 0);

    /** Written before a reset these epochs include. */
    public boolean olderThan(Epochs current) {
      return mapping < current.mapping || input < current.input;
    }

    public Epochs max(Epochs other) {
      return new Epochs(Math.max(mapping, other.mapping), Math.max(input, other.input));
    }
  }

  /**
   * A baseline: the rows of the last good answer ({@code -1}: reset, none), its sequence number
   * (each write one above the newest known: the highest wins) and the epochs it was written under.
   */
  record Baseline(int rows, long seq, Epochs epochs) {
    public boolean reset() {
      return rows < 0;
    }
  }

  /**
   * What the store holds for a key: {@code available} false when it cannot answer; {@code value}
   * null when it holds none; {@code current} the epochs in force now; {@code unreadable} why the
   * value held cannot be used (it does not open with this replica's keys), null when it can; {@code
   * witness} what the store needs to write over exactly the value read (compare-and-set).
   */
  record Read(
      boolean available, Baseline value, Epochs current, String unreadable, String witness) {
    public static final Read UNAVAILABLE = new Read(false, null, Epochs.ZERO, null, null);

    public Read(boolean available, Baseline value, Epochs current) {
      this(available, value, current, null, null);
    }
  }

  /**
   * A reset another replica made: mapping name, the input and ApplicationSet digests, and its
   * {@code generation}: for one key the seq of its reset marker, else the new epoch of the mapping
   * (or input). Only what was written before it is forgotten: a baseline with a seq (or epoch) at
   * least this high came after the reset, and a replayed message cannot clear it.
   */
  record Reset(String mapping, String input, String applicationSet, long generation) {}

  /** Whether baselines are shared (false: this replica alone, {@link #NONE}). */
  default boolean shared() {
    return false;
  }

  default Read read(Key key) {
    return Read.UNAVAILABLE;
  }

  /**
   * As {@link #read(Key)}, waiting for the store until {@code patientUntil} ({@link
   * System#nanoTime}) rather than its usual timeout: for a replica that knows no baseline of its
   * own, whose alternative is refusing the answer. A slow round trip is not a missing baseline.
   */
  default Read read(Key key, long patientUntil) {
    return read(key);
  }

  /**
   * Records {@code baseline} over the value {@code basis} read, and only over it: a value written
   * meanwhile (another replica's, or one this replica cannot open) is kept (readers take the
   * highest seq they know; this replica's floor holds its own). Nothing is written when {@code
   * basis} was not read from the store.
   */
  default void write(Key key, Baseline baseline, Read basis) {}

  /**
   * Forgets baselines on every replica: all of {@code mapping}'s ({@code input} null), one input's
   * ({@code applicationSet} null) or one key's ({@code floorSeq}: the highest seq this replica
   * knows for it).
   *
   * @param mappingName the mapping's name, for the replicas' own floors
   * @return whether every replica will see it (false: this replica only)
   */
  default boolean reset(String mappingName, Key scope, long floorSeq) {
    return false;
  }

  /** Called with each reset another replica made (an authenticated message: act sooner). */
  default void onReset(Consumer<Reset> listener) {}
}
