package io.github.appsetmapper.engine;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.github.appsetmapper.config.MaxDrop;

/**
 * The memory of {@code maxDrop}: the row count of the last good answer per mapping name, input and
 * ApplicationSet. It lives with the engine, not with the loaded mappings, so a reload keeps it; it
 * is in memory only, so a restart forgets it (the first answer after a restart sets the baseline).
 * A refused answer never becomes the baseline. Bounded: the least recently used keys go first.
 */
public final class DropGuard {
  static final int MAX_KEYS = 100_000;

  private record Key(String mapping, String input, String applicationSet) {}

  private final Cache<Key, Integer> last =
      Caffeine.newBuilder().maximumSize(MAX_KEYS).executor(Runnable::run).build();

  /** Refuses a drop larger than {@code maxDrop}; otherwise records {@code rows} as the baseline. */
  void check(String mapping, MaxDrop maxDrop, String input, String applicationSet, int rows)
      throws GuardException {
    if (maxDrop == null) {
      return;
    }
    Key key = new Key(mapping, input, applicationSet);
    Integer before = last.getIfPresent(key);
    if (before != null && maxDrop.refuses(before, rows)) {
      throw new GuardException(
          "the answer has "
              + rows
              + " rows, "
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
    last.put(key, rows);
  }

  /**
   * Forgets the baselines of {@code mapping}: all of them, or one input's ({@code input} non-null),
   * of one ApplicationSet when {@code applicationSet} is non-null.
   *
   * @return how many were forgotten
   */
  public int reset(String mapping, String input, String applicationSet) {
    int count = 0;
    for (Key key : last.asMap().keySet()) {
      if (key.mapping().equals(mapping)
          && (input == null || key.input().equals(input))
          && (applicationSet == null || key.applicationSet().equals(applicationSet))) {
        last.invalidate(key);
        count++;
      }
    }
    return count;
  }

  /** How many baselines {@code mapping} has. */
  public int baselines(String mapping) {
    int count = 0;
    for (Key key : last.asMap().keySet()) {
      if (key.mapping().equals(mapping)) {
        count++;
      }
    }
    return count;
  }
}
