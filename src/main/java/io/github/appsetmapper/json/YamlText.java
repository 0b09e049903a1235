package io.github.appsetmapper.json;

import java.nio.charset.StandardCharsets;

/**
 * The bytes BlockYamlReader accepts, and its quoted scalars. Whatever it cannot answer exactly as
 * SnakeYAML would throws {@link OutsideText}: the reader then leaves the document to SnakeYAML.
 */
final class YamlText {
  private YamlText() {}

  /** Thrown where the reader must leave the document to SnakeYAML; no stack trace. */
  static final class OutsideText extends RuntimeException {
    private static final long serialVersionUID = 1L;

    OutsideText() {
      super(null, null, false, false);
    }
  }

  static final OutsideText OUTSIDE = new OutsideText();

  /**
   * Every byte is printable ASCII, a line feed, or strict UTF-8 of a printable character (as
   * SnakeYAML's reader counts them) that SnakeYAML does not read as a line break or a byte order
   * mark. Tabs and carriage returns are left to SnakeYAML as well.
   */
  static void check(byte[] b) {
    int n = b.length;
    int i = 0;
    while (i < n) {
      byte c = b[i];
      if ((c >= 0x20 && c < 0x7F) || c == '\n') {
        i++;
      } else if (c < 0) {
        i += multiByte(b, i);
      } else {
        throw OUTSIDE;
      }
    }
  }

  /** The length of the UTF-8 sequence at {@code i}, if it is strict and printable. */
  private static int multiByte(byte[] b, int i) {
    int lead = b[i] & 0xFF;
    int length;
    int code;
    if (lead >= 0xC2 && lead < 0xE0) {
      length = 2;
      code = lead & 0x1F;
    } else if (lead >= 0xE0 && lead < 0xF0) {
      length = 3;
      code = lead & 0x0F;
    } else if (lead >= 0xF0 && lead < 0xF5) {
      length = 4;
      code = lead & 0x07;
    } else {
      throw OUTSIDE;
    }
    if (i + length > b.length) {
      throw OUTSIDE;
    }
    for (int k = 1; k < length; k++) {
      int next = b[i + k] & 0xFF;
      if ((next & 0xC0) != 0x80) {
        throw OUTSIDE;
      }
      code = (code << 6) | (next & 0x3F);
    }
    boolean shortest =
        length == 2 || (length == 3 && code >= 0x800) || (length == 4 && code >= 0x10000);
    if (!shortest
        || code < 0xA0 // C1 controls, NEL among them
        || (code >= 0xD800 && code <= 0xDFFF)
        || code == 0x2028
        || code == 0x2029
        || code == 0xFEFF
        || code == 0xFFFE
        || code == 0xFFFF
        || code > 0x10FFFF) {
      throw OUTSIDE;
    }
    return length;
  }

  /**
   * A quoted scalar from {@code start} (after its opening quote) to its closing quote; {@code
   * end[0]} is set past the closing quote. Double-quoted: the escapes SnakeYAML reads as Go's yaml
   * writes them; any other leaves the subset. A line break folds into one space, as SnakeYAML folds
   * it, when the next line is indented past {@code owner} and not blank; else (a blank line keeps a
   * line break, an escaped one none) it leaves the subset too.
   */
  static String unquote(byte[] b, int start, char quote, int owner, int[] end) {
    StringBuilder out = new StringBuilder();
    int q = start;
    int run = start;
    while (true) {
      if (q >= b.length) {
        throw OUTSIDE;
      }
      if (b[q] == '\n') {
        int kept = q;
        while (kept > run && b[kept - 1] == ' ') {
          kept--;
        }
        out.append(decode(b, run, kept)).append(' ');
        int line = q + 1;
        q = line;
        while (q < b.length && b[q] == ' ') {
          q++;
        }
        if (q >= b.length || b[q] == '\n' || q - line <= owner) {
          throw OUTSIDE;
        }
        run = q;
        continue;
      }
      byte c = b[q];
      if (c == quote) {
        if (quote == '\'' && q + 1 < b.length && b[q + 1] == '\'') {
          out.append(decode(b, run, q + 1));
          q += 2;
          run = q;
          continue;
        }
        out.append(decode(b, run, q));
        end[0] = q + 1;
        return out.toString();
      }
      if (c == '\\' && quote == '"') {
        out.append(decode(b, run, q));
        q = escape(b, q + 1, out);
        run = q;
        continue;
      }
      q++;
    }
  }

  /** One escape after a backslash at {@code q - 1}; answers where the text goes on. */
  private static int escape(byte[] b, int q, StringBuilder out) {
    if (q >= b.length) {
      throw OUTSIDE;
    }
    char simple =
        switch (b[q]) {
          case '0' -> '\0';
          case 'a' -> '\u0007';
          case 'b' -> '\b';
          case 't' -> '\t';
          case 'n' -> '\n';
          case 'v' -> '\u000B';
          case 'f' -> '\f';
          case 'r' -> '\r';
          case 'e' -> '\u001B';
          case ' ' -> ' ';
          case '"' -> '"';
          case '\\' -> '\\';
          default -> 0xFFFF;
        };
    if (simple != 0xFFFF) {
      out.append(simple);
      return q + 1;
    }
    int digits =
        switch (b[q]) {
          case 'x' -> 2;
          case 'u' -> 4;
          case 'U' -> 8;
          default -> throw OUTSIDE;
        };
    long code = 0;
    for (int k = 1; k <= digits; k++) {
      int digit = q + k < b.length ? Character.digit(b[q + k], 16) : -1;
      if (digit < 0) {
        throw OUTSIDE;
      }
      code = code * 16 + digit;
    }
    if (code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) {
      throw OUTSIDE;
    }
    out.appendCodePoint((int) code);
    return q + 1 + digits;
  }

  private static String decode(byte[] b, int from, int to) {
    return new String(b, from, to - from, StandardCharsets.UTF_8);
  }
}
