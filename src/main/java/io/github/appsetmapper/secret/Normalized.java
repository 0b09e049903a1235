package io.github.appsetmapper.secret;

import java.nio.charset.StandardCharsets;
import java.text.Normalizer;

/**
 * A {@link TextView} in Unicode's compatibility composed form (NFKC), each byte still remembering
 * the characters of the original text it came from. A secret holding {@code ä} echoed decomposed
 * ({@code a} and U+0308, NFD, as macOS file names and some libraries write it), or in fullwidth
 * letters ({@code ｐａｓｓ}), has other bytes than the secret: NFKC makes both forms one, and the
 * secret's own NFKC form is among its needles ({@link NeedleIndex#forms}). NFKC covers NFC: two
 * texts canonically equal are equal after it.
 *
 * <p>The text is normalised a segment at a time (a character with the marks and Hangul vowels or
 * finals that may combine with it), and the bytes of a segment that changed map to the whole
 * segment: a match masks the characters it came from (at most {@link #MAX_MARKS} marks a segment).
 * A view that holds no byte beyond ASCII (most do) is answered at once and allocates nothing; one
 * already in NFKC is read once, segment by segment, and gives no view.
 */
final class Normalized {
  private static final Normalizer.Form FORM = Normalizer.Form.NFKC;

  /**
   * The most marks one segment takes: Unicode's stream-safe limit (UAX #15), past which no real
   * text goes. The normaliser reorders a segment's marks by insertion, so a segment of many marks
   * costs their number squared: a value of "a" and 80,000 marks took 23 s. Past it a next segment
   * begins (a text that long a run of marks is no secret's echo).
   */
  static final int MAX_MARKS = 30;

  private Normalized() {}

  /** {@code view} in NFKC, or null when it already is (an ASCII view always is). */
  static TextView of(TextView view, Steps steps) {
    if (view.ascii) {
      return null;
    }
    byte[] bytes = view.bytes;
    int length = view.length;
    steps.add(length);
    int firstWide = 0;
    while (firstWide < length && bytes[firstWide] >= 0) {
      firstWide++;
    }
    if (firstWide == length) {
      return null;
    }
    // Built at the first segment NFKC changes, with the bytes before it: none in a text already in
    // NFKC. (Not Normalizer.isNormalized over the whole view first: it sorts a run of marks by
    // insertion too, its length squared.)
    TextView.Builder out = null;
    StringBuilder segment = new StringBuilder();
    int i = firstWide == 0 ? 0 : firstWide - 1; // the ASCII letter a mark may follow
    while (i < length) {
      if (bytes[i] >= 0 && (i + 1 == length || bytes[i + 1] >= 0)) { // ASCII nothing combines with
        if (out != null) {
          out.add(bytes[i], view.from[i], view.to[i]);
        }
        i++;
        continue;
      }
      int size = sequence(bytes, i, length);
      if (size < 0) { // no UTF-8 here (a percent-decoded byte): kept as it is
        if (out != null) {
          out.add(bytes[i], view.from[i], view.to[i]);
        }
        i++;
        continue;
      }
      int start = i;
      segment.setLength(0);
      segment.appendCodePoint(decode(bytes, i, size));
      i += size;
      for (int marks = 0; i < length && marks < MAX_MARKS; marks++) {
        int next = sequence(bytes, i, length);
        if (next < 0 || !follows(decode(bytes, i, next))) {
          break;
        }
        segment.appendCodePoint(decode(bytes, i, next));
        i += next;
      }
      steps.add((long) segment.length() * segment.length());
      if (Normalizer.isNormalized(segment, FORM)) {
        if (out != null) {
          for (int b = start; b < i; b++) {
            out.add(bytes[b], view.from[b], view.to[b]);
          }
        }
        continue;
      }
      if (out == null) {
        out = new TextView.Builder(length + 16);
        for (int b = 0; b < start; b++) {
          out.add(bytes[b], view.from[b], view.to[b]);
        }
      }
      byte[] made = Normalizer.normalize(segment, FORM).getBytes(StandardCharsets.UTF_8);
      for (byte b : made) {
        out.add(b, view.from[start], view.to[i - 1]);
      }
    }
    return out == null ? null : out.build();
  }

  /**
   * Whether {@code codePoint} may combine with what stands before it: a combining mark, a Hangul
   * medial vowel or final consonant (jamo compose into a syllable), a halfwidth voiced sound mark.
   */
  private static boolean follows(int codePoint) {
    int type = Character.getType(codePoint);
    return type == Character.NON_SPACING_MARK
        || type == Character.COMBINING_SPACING_MARK
        || type == Character.ENCLOSING_MARK
        || (codePoint >= 0x1160 && codePoint <= 0x11FF)
        || (codePoint >= 0xD7B0 && codePoint <= 0xD7FF)
        || codePoint == 0xFF9E
        || codePoint == 0xFF9F;
  }

  /** The length of the well-formed UTF-8 sequence at {@code at}, or -1. */
  private static int sequence(byte[] bytes, int at, int length) {
    int b = bytes[at] & 0xFF;
    int size =
        b < 0x80
            ? 1
            : b >= 0xC2 && b < 0xE0
                ? 2
                : b >= 0xE0 && b < 0xF0 ? 3 : b >= 0xF0 && b < 0xF5 ? 4 : -1;
    if (size < 0 || at + size > length) {
      return -1;
    }
    for (int k = at + 1; k < at + size; k++) {
      if ((bytes[k] & 0xC0) != 0x80) {
        return -1;
      }
    }
    int codePoint = decode(bytes, at, size);
    boolean shortest =
        size == 1 || size == 2 || (size == 3 ? codePoint >= 0x800 : codePoint >= 0x10000);
    boolean valid =
        codePoint <= Character.MAX_CODE_POINT
            && !(codePoint >= Character.MIN_SURROGATE && codePoint <= Character.MAX_SURROGATE);
    return shortest && valid ? size : -1;
  }

  private static int decode(byte[] bytes, int at, int size) {
    int b = bytes[at] & 0xFF;
    if (size == 1) {
      return b;
    }
    int codePoint = b & (0xFF >> (size + 1));
    for (int k = at + 1; k < at + size; k++) {
      codePoint = codePoint << 6 | (bytes[k] & 0x3F);
    }
    return codePoint;
  }
}
