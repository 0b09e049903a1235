package io.github.appsetmapper.secret;

/**
 * Two views of a {@link TextView} that undo what splits a secret rather than what encodes it: a
 * line fold or an invisible character inside it ({@link #unfolded}), and quoted-printable (RFC
 * 2045), whose soft line breaks fold a line at 76 columns ({@link #quotedPrintable}). Each reads
 * the view once and gives it back when it holds nothing to undo.
 */
final class Folds {
  private Folds() {}

  /**
   * {@code view} without its line breaks (CR, LF, with the spaces and tabs that indent the next
   * line) and the characters that show as nothing (zero-width characters, direction marks and
   * embeddings, joiners, variation selectors, the byte order mark, the soft hyphen: {@link
   * #invisible(int, int, int)}). An error body wrapped at 76 columns as base64 MIME is, or a token
   * with a zero-width space after every few characters, holds the secret whole here. A match masks
   * from its first character to its last, the dropped ones between included.
   */
  static TextView unfolded(TextView view) {
    byte[] bytes = view.bytes;
    int length = view.length;
    TextView.Builder out = null;
    for (int i = 0; i < length; i++) {
      int skip = invisible(bytes, i, length);
      if (skip > 0) {
        if (out == null) {
          out = copy(view, i);
        }
        out.changed = true;
        i += skip - 1;
        continue;
      }
      if (out != null) {
        out.add(bytes[i], view.from[i], view.to[i]);
      }
    }
    return out == null ? view : out.build();
  }

  /**
   * How many bytes at {@code at} stand for what {@link #unfolded} drops, or 0: a line break with
   * the spaces and tabs after it (a folded header's CRLF and space, text wrapped with an indent),
   * or a character that shows as nothing.
   */
  private static int invisible(byte[] bytes, int at, int length) {
    int b = bytes[at] & 0xFF;
    if (b == '\r' || b == '\n') {
      int end = at + 1;
      while (end < length && (bytes[end] == ' ' || bytes[end] == '\t')) {
        end++;
      }
      return end - at;
    }
    if (at + 1 >= length) {
      return 0;
    }
    int b1 = bytes[at + 1] & 0xFF;
    if (b == 0xC2 && b1 == 0xAD // U+00AD soft hyphen
        || b == 0xCD && b1 == 0x8F // U+034F combining grapheme joiner
        || b == 0xD8 && b1 == 0x9C) { // U+061C Arabic letter mark
      return 2;
    }
    if (at + 2 >= length) {
      return 0;
    }
    int b2 = bytes[at + 2] & 0xFF;
    return invisible(b, b1, b2) ? 3 : 0;
  }

  /**
   * The three-byte characters that show as nothing (Unicode's default-ignorable ones a text may
   * carry): U+180E, U+200B to U+200F, U+202A to U+202E, U+2060 to U+206F, U+FE00 to U+FE0F, U+FEFF.
   */
  private static boolean invisible(int b, int b1, int b2) {
    return b == 0xE1 && b1 == 0xA0 && b2 == 0x8E
        || b == 0xE2 && b1 == 0x80 && (b2 >= 0x8B && b2 <= 0x8F || b2 >= 0xAA && b2 <= 0xAE)
        || b == 0xE2 && b1 == 0x81 && b2 >= 0xA0 && b2 <= 0xAF
        || b == 0xEF && b1 == 0xB8 && b2 >= 0x80 && b2 <= 0x8F
        || b == 0xEF && b1 == 0xBB && b2 == 0xBF;
  }

  /**
   * Quoted-printable undone: {@code =XX} (either case) as the byte it stands for ({@code =C3=A4}
   * for ä, {@code =3D} for '='), and a soft line break ({@code =} at a line's end, before CRLF or
   * LF) dropped, as mail and some APIs write a body. This view itself when it holds neither.
   */
  static TextView quotedPrintable(TextView view) {
    byte[] bytes = view.bytes;
    int length = view.length;
    TextView.Builder out = new TextView.Builder(length);
    for (int i = 0; i < length; i++) {
      byte b = bytes[i];
      if (b == '=') {
        if (i + 2 < length && TextView.hex(bytes[i + 1]) >= 0 && TextView.hex(bytes[i + 2]) >= 0) {
          int value = TextView.hex(bytes[i + 1]) << 4 | TextView.hex(bytes[i + 2]);
          out.decoded((byte) value, view.from[i], view.to[i + 2]);
          i += 2;
          continue;
        }
        int end = softBreakEnd(bytes, i + 1, length);
        if (end > 0) {
          out.changed = true;
          i = end - 1;
          continue;
        }
      }
      out.add(b, view.from[i], view.to[i]);
    }
    return out.buildOr(view);
  }

  /** Where a soft line break's CRLF or LF starting at {@code at} ends, or -1 when none starts. */
  private static int softBreakEnd(byte[] bytes, int at, int length) {
    if (at < length && bytes[at] == '\n') {
      return at + 1;
    }
    if (at + 1 < length && bytes[at] == '\r' && bytes[at + 1] == '\n') {
      return at + 2;
    }
    return -1;
  }

  /** A builder holding the first {@code end} bytes of {@code view} as they are. */
  private static TextView.Builder copy(TextView view, int end) {
    TextView.Builder out = new TextView.Builder(view.length);
    for (int i = 0; i < end; i++) {
      out.add(view.bytes[i], view.from[i], view.to[i]);
    }
    return out;
  }

  /**
   * {@code bytes} without CR and LF and the spaces and tabs after them (a single-byte form: {@link
   * #unfolded} drops only those).
   */
  static byte[] stripped(byte[] bytes) {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(bytes.length);
    boolean afterBreak = false;
    for (byte b : bytes) {
      boolean lineBreak = b == '\r' || b == '\n';
      if (!lineBreak && !(afterBreak && (b == ' ' || b == '\t'))) {
        out.write(b);
      }
      afterBreak = lineBreak || afterBreak && (b == ' ' || b == '\t');
    }
    return out.toByteArray();
  }

  /** {@code value} without what {@link #unfolded} drops (a PEM key's line breaks). */
  static String stripped(String value) {
    byte[] bytes = value.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(bytes.length);
    for (int i = 0; i < bytes.length; ) {
      int skip = invisible(bytes, i, bytes.length);
      if (skip > 0) {
        i += skip;
      } else {
        out.write(bytes[i++]);
      }
    }
    return out.toString(java.nio.charset.StandardCharsets.UTF_8);
  }
}
