package io.github.appsetmapper.text;

/**
 * The one escape for text that reaches a terminal or a log line and may carry upstream or request
 * data (explain text, {@code test} and {@code diff} text, log lines, CLI lines): line breaks, every
 * other C0 and C1 control character, DEL, the Unicode line and paragraph separators and the
 * bidirectional controls are written as escapes ({@code \n}, {@code \r}, {@code \t}, {@code \u001b}
 * ...). So a value can neither end a line early and forge the next, nor move the cursor, recolour
 * or clear the screen, nor reverse what the reader sees. Half of a surrogate pair, which has no
 * UTF-8 form and would be printed as '?', is written as its escape ({@code \\ud83d}) too.
 */
public final class Printable {
  private static final char[] HEX = "0123456789abcdef".toCharArray();

  private Printable() {}

  /** {@code text} with every unsafe character escaped; null stays null. */
  public static String escape(String text) {
    if (text == null) {
      return null;
    }
    int first = firstUnsafe(text);
    if (first < 0) {
      return text;
    }
    StringBuilder out = new StringBuilder(text.length() + 16);
    out.append(text, 0, first);
    for (int i = first; i < text.length(); i++) {
      char c = text.charAt(i);
      if (!unsafe(text, i)) {
        out.append(c);
        continue;
      }
      switch (c) {
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default ->
            out.append("\\u")
                .append(HEX[(c >> 12) & 0xf])
                .append(HEX[(c >> 8) & 0xf])
                .append(HEX[(c >> 4) & 0xf])
                .append(HEX[c & 0xf]);
      }
    }
    return out.toString();
  }

  /**
   * {@code text} with only each half of a surrogate pair escaped ({@code \\ud83d}): what a JSON
   * line, which escapes the rest itself, must show as text. The same instance when there is none;
   * null stays null.
   */
  public static String halvesShown(String text) {
    return halvesShown(text, "\\u");
  }

  /**
   * {@code text} with each half of a surrogate pair written as {@code escape} and its four hex
   * digits (JSON text, whose strings read {@code \\\\u} back as a backslash and a 'u', uses that).
   */
  public static String halvesShown(String text, String escape) {
    if (text == null) {
      return null;
    }
    StringBuilder out = null;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      boolean half = Character.isSurrogate(c) && unsafe(text, i);
      if (half && out == null) {
        out = new StringBuilder(text.length() + 16).append(text, 0, i);
      }
      if (out == null) {
        continue;
      }
      if (half) {
        out.append(escape)
            .append(HEX[(c >> 12) & 0xf])
            .append(HEX[(c >> 8) & 0xf])
            .append(HEX[(c >> 4) & 0xf])
            .append(HEX[c & 0xf]);
      } else {
        out.append(c);
      }
    }
    return out == null ? text : out.toString();
  }

  /** The longest a label (a row's, an input's) is shown: enough to know it by. */
  public static final int LABEL_CHARS = 80;

  /**
   * {@code text} cut to {@code max} characters with "..." when longer, never between the two halves
   * of a surrogate pair. The one cut: a caller redacts first (so that no cut leaves a secret's
   * first characters behind), escapes as it must, then cuts.
   */
  public static String cut(String text, int max) {
    if (text == null || text.length() <= max) {
      return text;
    }
    int at = Character.isLowSurrogate(text.charAt(max)) ? max - 1 : max;
    return text.substring(0, at) + "...";
  }

  private static int firstUnsafe(String text) {
    for (int i = 0; i < text.length(); i++) {
      if (unsafe(text, i)) {
        return i;
      }
    }
    return -1;
  }

  /** Whether the character at {@code i} is escaped: {@link #unsafe(char)}, or half of a pair. */
  private static boolean unsafe(String text, int i) {
    char c = text.charAt(i);
    // A pair is unsafe when it is half of one, or a format character beyond the BMP (a tag
    // character hides text, U+E0041): both halves are then written as escapes.
    if (Character.isHighSurrogate(c)) {
      return i + 1 >= text.length()
          || !Character.isLowSurrogate(text.charAt(i + 1))
          || isFormat(Character.toCodePoint(c, text.charAt(i + 1)));
    }
    if (Character.isLowSurrogate(c)) {
      return i == 0
          || !Character.isHighSurrogate(text.charAt(i - 1))
          || isFormat(Character.toCodePoint(text.charAt(i - 1), c));
    }
    return unsafe(c);
  }

  /**
   * Whether {@code c} is escaped wherever it stands (a control, a line or paragraph separator, a
   * bidirectional control): the one rule, which the JSON log ({@code logging.JsonLines}) applies
   * too.
   */
  private static boolean isFormat(int codePoint) {
    return Character.getType(codePoint) == Character.FORMAT;
  }

  public static boolean unsafe(char c) {
    // FORMAT: the bidirectional controls, zero-width spaces and joiners, the byte order mark: they
    // reorder or hide what the reader sees.
    return Character.isISOControl(c)
        || c == '\u2028'
        || c == '\u2029'
        || Character.getType(c) == Character.FORMAT;
  }
}
