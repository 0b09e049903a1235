package io.github.appsetmapper.logging;

import io.github.appsetmapper.text.Printable;

/**
 * Makes text safe to print on one log line, by the one escape every text output uses ({@link
 * Printable}): a value from a request or an upstream (a path, a name, a message) can never end a
 * log line early and start a forged one.
 */
public final class LogText {
  private LogText() {}

  public static String escape(String text) {
    return Printable.escape(text);
  }

  /**
   * A value a caller chose (a path, a mapping's name from the path) as one field of a line: as it
   * is when it holds nothing but letters, digits and URL punctuation, else {@link #quoted}: {@code
   * /mappings/e1%20status=200%20ms=1/...}, decoded into the line, added fields of its own, and
   * {@code /healthz%20from%209.9.9.9} named another client.
   */
  public static String value(String value) {
    if (value == null) {
      return "-";
    }
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (!(Character.isLetterOrDigit(c) || "-._~/:@+,%*()!$&;[]'".indexOf(c) >= 0)) {
        return quoted(value);
      }
    }
    return value.isEmpty() ? "\"\"" : value;
  }

  /**
   * {@code value} as a quoted field of a {@code key="value"} line (logfmt): a quote or a backslash
   * in it is escaped, so a value a caller chose (an input echoed by an error) cannot close the
   * quotes and add fields of its own ({@code x" status=200 rows=9}). Control characters are the
   * layout's to escape, as in every line.
   */
  public static String quoted(String value) {
    StringBuilder out = new StringBuilder(value.length() + 8).append('"');
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c == '"' || c == '\\') {
        out.append('\\');
      }
      out.append(c);
    }
    return out.append('"').toString();
  }
}
