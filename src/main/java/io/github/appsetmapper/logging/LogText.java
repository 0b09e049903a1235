package io.github.appsetmapper.logging;

/**
 * Makes text safe to print on one log line: line breaks, every other C0 and C1 control character,
 * DEL and the Unicode line and paragraph separators are written as escapes ({@code \n}, {@code \r},
 * {@code \t}, {@code \u001b} ...), so that a value from a request or an upstream (a path, a name, a
 * message) can never end a log line early and start a forged one.
 */
public final class LogText {
  private static final char[] HEX = "0123456789abcdef".toCharArray();

  private LogText() {}

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
      if (!unsafe(c)) {
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

  private static int firstUnsafe(String text) {
    for (int i = 0; i < text.length(); i++) {
      if (unsafe(text.charAt(i))) {
        return i;
      }
    }
    return -1;
  }

  private static boolean unsafe(char c) {
    return Character.isISOControl(c) || c == '\u2028' || c == '\u2029';
  }
}
