package io.github.appsetmapper.json;

import java.nio.charset.StandardCharsets;

/**
 * The lines and scalars of BlockYamlReader: a cursor over the UTF-8 bytes, and the scalars of the
 * subset it reads (plain, quoted, literal block), each answered exactly as SnakeYAML reads it or
 * left with {@link YamlText#OUTSIDE}. The structure (mappings, sequences, what the builder is
 * given) is BlockYamlReader's.
 */
abstract class BlockYamlScanner {
  /** SnakeYAML refuses a simple key past 1,024 characters: longer ones are left to it. */
  private static final int MAX_KEY = 1000;

  /** Thrown to leave the subset: no stack trace, never seen outside this package. */
  static final YamlText.OutsideText OUTSIDE = YamlText.OUTSIDE;

  final byte[] b;
  final int n;

  /** Where reading stands, and the start of its line. */
  int p;

  int lineStart;
  private final ShortTexts texts = new ShortTexts();
  private final int[] end = new int[1];
  private boolean nonAscii;
  private byte[] scratch = new byte[1024];
  private int kept;

  BlockYamlScanner(byte[] yaml) {
    this.b = yaml;
    this.n = yaml.length;
  }

  /**
   * Moves to the next line holding something other than spaces or a comment: {@code p} at its first
   * character, {@code lineStart} at its start; answers its indentation, or -1 at the end.
   */
  final int nextContent() {
    int q = lineStart;
    while (true) {
      int start = q;
      while (q < n && b[q] == ' ') {
        q++;
      }
      if (q >= n) {
        lineStart = p = n;
        return -1;
      }
      if (b[q] == '\n' || b[q] == '#') {
        q = endOfLine(q) + 1;
        if (q >= n) {
          lineStart = p = n;
          return -1;
        }
        continue;
      }
      if (q == start && (startsWith(q, "---") || startsWith(q, "..."))) {
        throw OUTSIDE; // a second document, or the end marker
      }
      lineStart = start;
      p = q;
      return q - start;
    }
  }

  /**
   * A literal block scalar as Go's yaml writes a text of several lines: {@code |} (one final line
   * break kept) or {@code |-} (none), its lines at the indentation of the first, which must pass
   * {@code owner}; empty lines inside are line breaks. An indentation indicator, {@code |+}, an
   * empty first line, a line of spaces past the indentation or a last line without a line break are
   * left to SnakeYAML.
   */
  final String literal(int owner) {
    p++;
    boolean strip = p < n && b[p] == '-';
    if (strip) {
      p++;
    }
    if (p >= n || b[p] != '\n') {
      throw OUTSIDE;
    }
    nextLine();
    int indent = indentation(lineStart);
    if (indent <= owner) {
      throw OUTSIDE;
    }
    kept = 0;
    boolean anyNonAscii = false;
    while (true) {
      int from = lineStart + indent;
      int to = endOfLine(from);
      if (to >= n) {
        throw OUTSIDE; // no line break after the last line: SnakeYAML keeps none even with |
      }
      for (int q = from; q < to && !anyNonAscii; q++) {
        anyNonAscii = b[q] < 0;
      }
      keep(from, to);
      p = to;
      nextLine();
      int blank = 0;
      int next;
      while (true) { // empty lines: kept as line breaks when more of the text follows
        int q = lineStart;
        while (q < n && b[q] == ' ') {
          q++;
        }
        if (q >= n) {
          next = -1;
          break;
        }
        if (b[q] != '\n') {
          next = q - lineStart;
          break;
        }
        if (q - lineStart > indent) {
          throw OUTSIDE; // spaces past the indentation are text: left to SnakeYAML
        }
        blank++;
        p = q;
        nextLine();
      }
      if (next < indent) {
        break; // the empty lines before are not the text's (| keeps one line break, |- none)
      }
      for (int i = 0; i <= blank; i++) {
        keep((byte) '\n');
      }
    }
    if (!strip) {
      keep((byte) '\n');
    }
    return kept(anyNonAscii);
  }

  /**
   * The indentation of the line at {@code start}; a blank line (or spaces alone) leaves the subset,
   * the end of the document answers -1.
   */
  private int indentation(int start) {
    int q = start;
    while (q < n && b[q] == ' ') {
      q++;
    }
    if (q >= n) {
      if (q == start) {
        return -1;
      }
      throw OUTSIDE;
    }
    if (b[q] == '\n') {
      throw OUTSIDE;
    }
    return q - start;
  }

  /** A plain scalar, its wrapped lines folded with one space each. */
  final String plain(int owner) {
    if (indicator(b[p])) {
      throw OUTSIDE;
    }
    nonAscii = false;
    int start = p;
    int end = plainLine();
    boolean folded = false;
    boolean anyNonAscii = false;
    while (true) {
      nextLine();
      int q = lineStart;
      while (q < n && b[q] == ' ') {
        q++;
      }
      if (q >= n || b[q] == '\n' || b[q] == '#' || q - lineStart <= owner) {
        break; // what follows a blank line or a comment is left to the structure
      }
      if (!folded) {
        folded = true;
        anyNonAscii = nonAscii;
        kept = 0;
        keep(start, end);
      }
      p = q;
      if (indicator(b[p]) || b[p] == '-') {
        throw OUTSIDE;
      }
      nonAscii = false;
      int from = p;
      int to = plainLine();
      anyNonAscii |= nonAscii;
      keep((byte) ' ');
      keep(from, to);
    }
    return folded ? kept(anyNonAscii) : text(start, end);
  }

  /**
   * One line of a plain scalar from {@code p}: answers where its text ends (trailing spaces
   * dropped), leaves {@code p} at the line's end. A {@code ": "} or a {@code " #"} leaves the
   * subset (an error in a value, or a comment).
   */
  private int plainLine() {
    int q = p;
    int end = p;
    while (q < n) {
      byte c = b[q];
      if (c == '\n') {
        break;
      }
      if (c == ' ') {
        if (q + 1 < n && b[q + 1] == '#') {
          throw OUTSIDE;
        }
      } else {
        if (c == ':' && (q + 1 == n || b[q + 1] == ' ' || b[q + 1] == '\n')) {
          throw OUTSIDE;
        }
        if (c < 0) {
          nonAscii = true;
        }
        end = q + 1;
      }
      q++;
    }
    p = q;
    return end;
  }

  /** A quoted scalar (wrapped lines folded with one space), nothing after it on its last line. */
  final String quoted(boolean doubleQuoted, int owner) {
    char quote = doubleQuoted ? '"' : '\'';
    int start = p + 1;
    int q = start;
    nonAscii = false;
    while (q < n && b[q] != quote && b[q] != '\n' && b[q] != '\\') {
      if (b[q] < 0) {
        nonAscii = true;
      }
      q++;
    }
    String value;
    if (q < n && b[q] == quote && (doubleQuoted || q + 1 >= n || b[q + 1] != '\'')) {
      value = text(start, q);
      p = q + 1;
    } else {
      value = YamlText.unquote(b, start, quote, owner, end);
      p = end[0];
    }
    endOfValue();
    return value;
  }

  /**
   * The colon ending a plain key that starts at {@code p} on this line, or -1 when the line holds
   * none. A comment before it, or a key SnakeYAML reads otherwise, leaves the subset.
   */
  final int keyEnd() {
    if (indicator(b[p])) {
      throw OUTSIDE;
    }
    nonAscii = false;
    int limit = Math.min(n, p + MAX_KEY);
    for (int q = p; q < limit; q++) {
      byte c = b[q];
      if (c == '\n') {
        return -1;
      }
      if (c == ':' && (q + 1 == n || b[q + 1] == ' ' || b[q + 1] == '\n')) {
        if (b[q - 1] == ' ') {
          throw OUTSIDE;
        }
        return q;
      }
      if (c == ' ' && q + 1 < n && b[q + 1] == '#') {
        throw OUTSIDE;
      }
      if (c < 0) {
        nonAscii = true;
      }
    }
    // No key within MAX_KEY bytes: a mapping leaves the subset; a long item of a sequence is read
    // as a plain scalar, which leaves it on a later ": " (a key too long for SnakeYAML).
    return -1;
  }

  /** Characters that start a value never read as a key here. */
  static boolean inlineOnly(byte c) {
    return c == '"' || c == '\'' || c == '[' || c == '{' || c == '|';
  }

  /** Characters that start something other than a plain scalar (or may: SnakeYAML decides). */
  static boolean indicator(byte c) {
    return switch (c) {
      case '?',
          ':',
          ',',
          '[',
          ']',
          '{',
          '}',
          '#',
          '&',
          '*',
          '!',
          '|',
          '>',
          '\'',
          '"',
          '%',
          '@',
          '`' ->
          true;
      default -> false;
    };
  }

  final boolean dashItem(int q) {
    return b[q] == '-' && (q + 1 == n || b[q + 1] == ' ' || b[q + 1] == '\n');
  }

  final void skipSpaces() {
    while (p < n && b[p] == ' ') {
      p++;
    }
  }

  final boolean atEndOfLine() {
    return p >= n || b[p] == '\n';
  }

  /** Nothing may follow a quoted scalar or an empty collection on its line: on to the next. */
  final void endOfValue() {
    if (!atEndOfLine()) {
      throw OUTSIDE;
    }
    nextLine();
  }

  /** From the end of a line ({@code p} at its '\n' or the end) to the start of the next. */
  final void nextLine() {
    lineStart = p = Math.min(n, p + 1);
  }

  final int endOfLine(int q) {
    while (q < n && b[q] != '\n') {
      q++;
    }
    return q;
  }

  final boolean startsWith(int q, String text) {
    if (q + text.length() > n) {
      return false;
    }
    for (int i = 0; i < text.length(); i++) {
      if (b[q + i] != text.charAt(i)) {
        return false;
      }
    }
    return true;
  }

  /** Appends to the text being folded (bounded by the window: one value's bytes at most). */
  private void keep(int from, int to) {
    int length = to - from;
    if (kept + length > scratch.length) {
      scratch = java.util.Arrays.copyOf(scratch, Math.max(scratch.length * 2, kept + length));
    }
    System.arraycopy(b, from, scratch, kept, length);
    kept += length;
  }

  private void keep(byte c) {
    if (kept == scratch.length) {
      scratch = java.util.Arrays.copyOf(scratch, scratch.length * 2);
    }
    scratch[kept++] = c;
  }

  private String kept(boolean anyNonAscii) {
    return anyNonAscii
        ? new String(scratch, 0, kept, StandardCharsets.UTF_8)
        : texts.get(scratch, 0, kept);
  }

  final String text(int from, int to) {
    if (nonAscii) {
      return new String(b, from, to - from, StandardCharsets.UTF_8);
    }
    return texts.get(b, from, to);
  }
}
