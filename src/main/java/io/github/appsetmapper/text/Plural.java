package io.github.appsetmapper.text;

/** A count with its noun: "1 row", "2 rows", "0 rows"; so that no message says "1 rows". */
public final class Plural {
  private Plural() {}

  /** {@code count} and {@code noun} (singular), with an "s" unless the count is one. */
  public static String of(long count, String noun) {
    return count + " " + (count == 1 ? noun : noun + "s");
  }

  /** "1 was" or "3 were". */
  public static String was(long count) {
    return count + (count == 1 ? " was" : " were");
  }
}
