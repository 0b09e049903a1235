package io.github.appsetmapper.secret;

import java.util.Arrays;

/** Character ranges of a text to mask, merged where they touch or overlap. */
final class Spans {
  private long[] ranges = new long[8];
  private int count;

  void add(int from, int to) {
    if (count > 0) { // a match inside or after the last one's start: one range where they touch
      long last = ranges[count - 1];
      int lastFrom = (int) (last >>> 32);
      int lastTo = (int) last;
      if (from >= lastFrom && from <= lastTo) {
        ranges[count - 1] = (long) lastFrom << 32 | Math.max(lastTo, to);
        return;
      }
    }
    if (count == ranges.length) {
      ranges = Arrays.copyOf(ranges, count * 2);
    }
    ranges[count++] = (long) from << 32 | to;
  }

  boolean isEmpty() {
    return count == 0;
  }

  /** {@code text} with every range (merged) replaced by {@code mask}. */
  String mask(String text, String mask) {
    long[] sorted = Arrays.copyOf(ranges, count);
    Arrays.sort(sorted);
    StringBuilder out = new StringBuilder(text.length());
    int written = 0;
    int i = 0;
    while (i < sorted.length) {
      int from = (int) (sorted[i] >>> 32);
      int to = (int) sorted[i];
      i++;
      while (i < sorted.length && (int) (sorted[i] >>> 32) <= to) {
        to = Math.max(to, (int) sorted[i]);
        i++;
      }
      out.append(text, written, from).append(mask);
      written = to;
    }
    return out.append(text, written, text.length()).toString();
  }
}
