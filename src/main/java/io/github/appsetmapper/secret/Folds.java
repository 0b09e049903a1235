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
   * {@code view} without its line breaks (CR, LF) and the characters that show as nothing: zero
   * width space, non-joiner and joiner (U+200B to U+200D), word joiner (U+2060), the byte order
   * mark (U+FEFF) and the soft hyphen (U+00AD). An error body wrapped at 76 columns as base64 MIME
   * is, or a token with a zero-width space after every few characters, holds the secret whole here.
   * A match masks from its first character to its last, the dropped ones between included.
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

  /** How many bytes at {@code at} stand for a character {@link #unfolded} drops, or 0. */
  private static int invisible(byte[] bytes, int at, int length) {
    int b = bytes[at] & 0xFF;
    if (b == '\r' || b == '\n') {
      return 1;
    }
    if (b == 0xC2 && at + 1 < length && (bytes[at + 1] & 0xFF) == 0xAD) {
      return 2; // U+00AD
    }
    if (at + 2 >= length) {
      return 0;
    }
    int b1 = bytes[at + 1] & 0xFF;
    int b2 = bytes[at + 2] & 0xFF;
    boolean zeroWidth = b == 0xE2 && b1 == 0x80 && b2 >= 0x8B && b2 <= 0x8D; // U+200B..U+200D
    boolean wordJoiner = b == 0xE2 && b1 == 0x81 && b2 == 0xA0; // U+2060
    boolean byteOrderMark = b == 0xEF && b1 == 0xBB && b2 == 0xBF; // U+FEFF
    return zeroWidth || wordJoiner || byteOrderMark ? 3 : 0;
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

  /** {@code bytes} without CR and LF (a single-byte form: {@link #unfolded} drops only those). */
  static byte[] stripped(byte[] bytes) {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(bytes.length);
    for (byte b : bytes) {
      if (b != '\r' && b != '\n') {
        out.write(b);
      }
    }
    return out.toByteArray();
  }

  /** {@code value} without the characters {@link #unfolded} drops (a PEM key's line breaks). */
  static String stripped(String value) {
    StringBuilder out = new StringBuilder(value.length());
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c != '\r'
          && c != '\n'
          && c != '\u00AD'
          && !(c >= '\u200B' && c <= '\u200D')
          && c != '\u2060'
          && c != '\uFEFF') {
        out.append(c);
      }
    }
    return out.toString();
  }
}
