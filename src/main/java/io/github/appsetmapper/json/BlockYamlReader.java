package io.github.appsetmapper.json;

import java.nio.charset.StandardCharsets;

/**
 * A reader of the UTF-8 bytes themselves for the block YAML that Go's yaml libraries write (a Helm
 * repository's {@code index.yaml}), several times faster than SnakeYAML's scanner: block mappings
 * and sequences (also at their key's indentation, and {@code - key: value}), plain scalars (wrapped
 * ones included), single- and double-quoted scalars on one line, empty values, {@code []} and
 * {@code {}}, comment lines and a leading {@code ---}. It feeds the same {@link YamlBuilder} as
 * SnakeYAML's events, so every bound and the heap estimate are counted by one mechanism.
 *
 * <p>It never decides anything on its own: whatever lies outside that subset (a tab, an anchor, an
 * alias, a tag, a block scalar, a flow collection that is not empty, a byte that is not printable
 * UTF-8, a comment after a value, an indentation it did not expect, a long gap between values...)
 * and every refusal of the builder make {@link #read} answer null, and the caller reads the
 * document again with SnakeYAML, which gives its exact answer or refusal.
 */
final class BlockYamlReader {
  /**
   * The longest stretch of bytes across two consecutive values (from the end of one to the end of
   * the one after next) read here. SnakeYAML's reader holds at most the current token, the one
   * after it (its look-ahead for a simple key) and a 1,024-character buffer beyond the last event
   * when ValueBoundReader counts; a character takes at least one byte. So this stays more than
   * 100,000 characters short of that bound ({@value ValueBoundReader#MAX_VALUE_CHARS} plus 65,536),
   * and what SnakeYAML would refuse as too long is never read here.
   */
  private static final int MAX_WINDOW = 1_000_000;

  /** SnakeYAML refuses a simple key past 1,024 characters: longer ones are left to it. */
  private static final int MAX_KEY = 1000;

  /** Thrown to leave the subset: no stack trace, never seen outside this package. */
  private static final YamlText.OutsideText OUTSIDE = YamlText.OUTSIDE;

  private final byte[] b;
  private final int n;
  private final YamlBuilder out = new YamlBuilder();
  private final ShortTexts texts = new ShortTexts();
  private int p;
  private int lineStart;
  private int lastEvent;
  private int previousGap;
  private byte[] scratch = new byte[1024];
  private int kept;
  private final int[] end = new int[1];
  private boolean nonAscii;

  private BlockYamlReader(byte[] yaml) {
    this.b = yaml;
    this.n = yaml.length;
  }

  /** The document and its heap estimate, or null: outside the subset, or refused. */
  static JsonCodec.Measured read(byte[] yaml) {
    try {
      YamlText.check(yaml);
      BlockYamlReader reader = new BlockYamlReader(yaml);
      reader.document();
      return new JsonCodec.Measured(reader.out.document(), reader.out.bytes);
    } catch (YamlText.OutsideText | JsonRefusal e) {
      return null;
    }
  }

  private void document() throws JsonRefusal {
    if (startsWith(0, "---\n")) {
      p = lineStart = 4;
    }
    if (nextContent() != 0) {
      throw OUTSIDE; // empty, or not a collection at the first column
    }
    if (dashItem(p)) {
      sequence(0, false);
    } else {
      mapping(0);
    }
    if (nextContent() != -1 || !out.done()) {
      throw OUTSIDE;
    }
    p = n;
    event();
  }

  /**
   * Moves to the next line holding something other than spaces or a comment: {@code p} at its first
   * character, {@code lineStart} at its start; answers its indentation, or -1 at the end.
   */
  private int nextContent() {
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

  /** A block mapping whose keys stand at column {@code c}; {@code p} at its first key. */
  private void mapping(int c) throws JsonRefusal {
    event();
    out.startCollection(true);
    while (true) {
      int colon = keyEnd();
      if (colon < 0 || b[p] == '-') {
        throw OUTSIDE;
      }
      String key = text(p, colon);
      if ("<<".equals(key)) {
        throw OUTSIDE; // a merge key
      }
      p = colon;
      event();
      out.scalar(key, true);
      p = colon + 1;
      skipSpaces();
      if (atEndOfLine()) {
        nextLine();
        int indent = nextContent();
        if (indent > c) {
          block(indent);
        } else if (indent == c && dashItem(p)) {
          sequence(c, true);
        } else {
          empty();
        }
      } else {
        if (dashItem(p)) {
          throw OUTSIDE; // "key: - a" is an error
        }
        inline(c);
      }
      int indent = nextContent();
      if (indent < c) {
        break;
      }
      if (indent > c) {
        throw OUTSIDE;
      }
    }
    event();
    out.endCollection();
  }

  /**
   * A block sequence whose dashes stand at column {@code s}; {@code p} at its first dash. An
   * indentless one (at its key's column) ends at the first line at that column without a dash.
   */
  private void sequence(int s, boolean indentless) throws JsonRefusal {
    event();
    out.startCollection(false);
    while (true) {
      p++;
      skipSpaces();
      if (atEndOfLine()) {
        nextLine();
        int indent = nextContent();
        if (indent > s) {
          block(indent);
        } else {
          empty();
        }
      } else if (dashItem(p)) {
        sequence(p - lineStart, false);
      } else if (inlineOnly(b[p]) || keyEnd() < 0) {
        inline(s);
      } else {
        mapping(p - lineStart); // "- key: value"
      }
      int indent = nextContent();
      if (indent < s) {
        break;
      }
      if (indent > s) {
        throw OUTSIDE;
      }
      if (!dashItem(p)) {
        if (indentless) {
          break;
        }
        throw OUTSIDE;
      }
    }
    event();
    out.endCollection();
  }

  /** A collection starting on its own line at column {@code indent}. */
  private void block(int indent) throws JsonRefusal {
    if (dashItem(p)) {
      sequence(indent, false);
    } else {
      mapping(indent);
    }
  }

  /** A value left empty: null, as SnakeYAML's empty plain scalar. */
  private void empty() throws JsonRefusal {
    event();
    out.scalar("", true);
  }

  /**
   * A value on the line of its key or dash: a scalar or an empty flow collection. {@code owner} is
   * the column a wrapped plain scalar's lines must pass (SnakeYAML's indentation there).
   */
  private void inline(int owner) throws JsonRefusal {
    switch (b[p]) {
      case '"' -> quoted(true, owner);
      case '\'' -> quoted(false, owner);
      case '|' -> literal(owner);
      case '[', '{' -> {
        boolean isMap = b[p] == '{';
        if (p + 1 >= n || b[p + 1] != (isMap ? '}' : ']')) {
          throw OUTSIDE;
        }
        p += 2;
        event();
        endOfValue();
        out.startCollection(isMap);
        out.endCollection();
      }
      default -> plain(owner);
    }
  }

  /**
   * A literal block scalar as Go's yaml writes a text of several lines: {@code |} (one final line
   * break kept) or {@code |-} (none), its lines at the indentation of the first, which must pass
   * {@code owner}. An indentation indicator, {@code |+}, a blank line or a last line without a line
   * break are left to SnakeYAML.
   */
  private void literal(int owner) throws JsonRefusal {
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
      int next = indentation(lineStart);
      if (next < indent) {
        break;
      }
      keep((byte) '\n');
    }
    if (!strip) {
      keep((byte) '\n');
    }
    event();
    out.scalar(kept(anyNonAscii), false);
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
  private void plain(int owner) throws JsonRefusal {
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
    String value = folded ? kept(anyNonAscii) : text(start, end);
    event();
    out.scalar(value, true);
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
  private void quoted(boolean doubleQuoted, int owner) throws JsonRefusal {
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
    event();
    endOfValue();
    out.scalar(value, false);
  }

  /**
   * The colon ending a plain key that starts at {@code p} on this line, or -1 when the line holds
   * none. A comment before it, or a key SnakeYAML reads otherwise, leaves the subset.
   */
  private int keyEnd() {
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
    if (limit < n) {
      throw OUTSIDE; // a long key, or a long line: left to SnakeYAML
    }
    return -1;
  }

  /** Characters that start a value never read as a key here. */
  private static boolean inlineOnly(byte c) {
    return c == '"' || c == '\'' || c == '[' || c == '{' || c == '|';
  }

  /** Characters that start something other than a plain scalar (or may: SnakeYAML decides). */
  private static boolean indicator(byte c) {
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

  private boolean dashItem(int q) {
    return b[q] == '-' && (q + 1 == n || b[q + 1] == ' ' || b[q + 1] == '\n');
  }

  private void skipSpaces() {
    while (p < n && b[p] == ' ') {
      p++;
    }
  }

  private boolean atEndOfLine() {
    return p >= n || b[p] == '\n';
  }

  /** Nothing may follow a quoted scalar or an empty collection on its line: on to the next. */
  private void endOfValue() {
    if (!atEndOfLine()) {
      throw OUTSIDE;
    }
    nextLine();
  }

  /** From the end of a line ({@code p} at its '\n' or the end) to the start of the next. */
  private void nextLine() {
    lineStart = p = Math.min(n, p + 1);
  }

  private int endOfLine(int q) {
    while (q < n && b[q] != '\n') {
      q++;
    }
    return q;
  }

  private boolean startsWith(int q, String text) {
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

  /** A value is given to the builder: its stretch and the one before stay within the window. */
  private void event() {
    int gap = p - lastEvent;
    if (gap + previousGap > MAX_WINDOW) {
      throw OUTSIDE;
    }
    previousGap = gap;
    lastEvent = p;
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

  private String text(int from, int to) {
    if (nonAscii) {
      return new String(b, from, to - from, StandardCharsets.UTF_8);
    }
    return texts.get(b, from, to);
  }
}
