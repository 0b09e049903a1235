package io.github.appsetmapper.engine;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.RemovalCause;
import io.github.appsetmapper.config.MaxDrop;
import io.github.appsetmapper.upstream.call.RequestFailure;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The memory of {@code maxDrop}: the row count of the last good answer per mapping name, input and
 * ApplicationSet. It lives with the engine, not with the loaded mappings, so a reload keeps it; it
 * is in memory only, so a restart forgets it (the first answer after a restart sets the baseline).
 * A refused answer never becomes the baseline.
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

    boolean matches(String mapping, Digest input, Digest appSet) {
      return this.mapping.equals(mapping)
          && (input == null || (input1 == input.high() && input2 == input.low()))
          && (appSet == null || (appSet1 == appSet.high() && appSet2 == appSet.low()));
    }
  }

  /** The first 128 bits of a SHA-256. */
  private record Digest(long high, long low) {
    static Digest of(String text) {
      try {
        byte[] hash =
            MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        ByteBuffer buffer = ByteBuffer.wrap(hash);
        return new Digest(buffer.getLong(), buffer.getLong());
      } catch (NoSuchAlgorithmException e) {
        throw new IllegalStateException(e);
      }
    }
  }

  private final AtomicLong evictions = new AtomicLong();
  private final Cache<Key, Integer> last;

  public DropGuard() {
    this(MAX_KEYS);
  }

  DropGuard(int maxKeys) {
    this.last =
        Caffeine.newBuilder()
            .maximumSize(maxKeys)
            .executor(Runnable::run)
            .removalListener(
                (Key key, Integer rows, RemovalCause cause) -> {
                  if (cause == RemovalCause.SIZE) {
                    evictions.incrementAndGet();
                  }
                })
            .build();
  }

  /** Refuses a drop larger than {@code maxDrop}; otherwise records {@code rows} as the baseline. */
  void check(String mapping, MaxDrop maxDrop, String input, String applicationSet, int rows)
      throws RequestFailure {
    if (maxDrop == null) {
      return;
    }
    Key key = Key.of(mapping, Digest.of(input), Digest.of(applicationSet));
    Integer before = last.getIfPresent(key);
    if (before != null && maxDrop.refuses(before, rows)) {
      throw RequestFailure.guard(
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
    Digest inputDigest = input == null ? null : Digest.of(input);
    Digest appSetDigest = applicationSet == null ? null : Digest.of(applicationSet);
    int count = 0;
    for (Key key : last.asMap().keySet()) {
      if (key.matches(mapping, inputDigest, appSetDigest)) {
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

  /** How many baselines are held, all mappings together. */
  public long size() {
    return last.estimatedSize();
  }

  /** How many baselines were evicted because the bound was reached. */
  public long evictions() {
    return evictions.get();
  }
}
