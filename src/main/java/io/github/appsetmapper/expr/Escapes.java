package io.github.appsetmapper.expr;

import io.github.appsetmapper.json.Utf8;

/** Text escaped for where it will be read: a URL part, a regex, a POSIX shell word. */
final class Escapes {
  private Escapes() {}

  /**
   * RFC 3986 percent-encoding of everything but the unreserved characters ({@code A-Z a-z 0-9 - . _
   * ~}), so that the result is one path segment or one query value wherever it is put. Half of a
   * surrogate pair is refused ({@link Utf8}), not encoded as the '?' ({@code %3F}) Java writes.
   */
  static String url(String text) {
    StringBuilder out = new StringBuilder(text.length() + 16);
    EvaluationBudget budget = EvaluationBudget.current();
    for (byte b : Utf8.bytes(text, "#urlEncode's text")) {
      int c = b & 0xff;
      if ((c >= 'A' && c <= 'Z')
          || (c >= 'a' && c <= 'z')
          || (c >= '0' && c <= '9')
          || c == '-'
          || c == '.'
          || c == '_'
          || c == '~') {
        out.append((char) c);
      } else {
        out.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)));
        out.append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
      }
      budget.tick();
    }
    return out.toString();
  }

  /** A regex (RE2, and Java's) that matches {@code text} literally. */
  static String regex(String text) {
    EvaluationBudget budget = EvaluationBudget.current();
    budget.reserve(text.length(), "#regexQuote"); // never shorter than the text
    StringBuilder out = new StringBuilder(text.length() + 8);
    for (int i = 0; i < text.length(); i++) {
      budget.tick();
      char c = text.charAt(i);
      if ("\\.+*?()|[]{}^$".indexOf(c) >= 0) {
        out.append('\\');
      }
      out.append(c);
    }
    return out.toString();
  }

  /** One POSIX shell word: single-quoted, each {@code '} written as {@code '\''}. */
  static String shell(String text) {
    EvaluationBudget.current().reserve(text.length() + 2L, "#shellQuote"); // never shorter
    return "'" + text.replace("'", "'\\''") + "'";
  }
}
