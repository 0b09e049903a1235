package io.github.appsetmapper.json;

/**
 * A reader of the UTF-8 bytes themselves for the block YAML that Go's yaml libraries write (a Helm
 * repository's {@code index.yaml}), several times faster than SnakeYAML's scanner: block mappings
 * and sequences (also at their key's indentation, and {@code - key: value}), plain, single- and
 * double-quoted scalars (wrapped ones included), literal block scalars ({@code |}, {@code |-}),
 * empty values, {@code []} and {@code {}}, comment lines and a leading {@code ---}. It feeds the
 * same {@link YamlBuilder} as SnakeYAML's events, so every bound and the heap estimate are counted
 * by one mechanism.
 *
 * <p>It never decides anything on its own: whatever lies outside that subset (a tab, an anchor, an
 * alias, a tag, a folded block scalar, a flow collection that is not empty, a byte that is not
 * printable UTF-8, a comment after a value, an indentation it did not expect, a long gap between
 * values...) and every refusal of the builder make {@link #read} answer null, and the caller reads
 * the document again with SnakeYAML, which gives its exact answer or refusal.
 */
final class BlockYamlReader extends BlockYamlScanner {
  /**
   * The longest stretch of bytes across two consecutive values (from the end of one to the end of
   * the one after next) read here. SnakeYAML's reader holds at most the current token, the one
   * after it (its look-ahead for a simple key) and a 1,024-character buffer beyond the last event
   * when ValueBoundReader counts; a character takes at least one byte. So this stays more than
   * 100,000 characters short of that bound ({@value ValueBoundReader#MAX_VALUE_CHARS} plus 65,536),
   * and what SnakeYAML would refuse as too long is never read here.
   */
  private static final int MAX_WINDOW = 1_000_000;

  private final YamlBuilder out;
  private int lastEvent;
  private int previousGap;

  private BlockYamlReader(byte[] yaml, Growth growth) {
    super(yaml);
    out = new YamlBuilder(growth);
  }

  /** The document and its heap estimate, or null: outside the subset, or refused. */
  static JsonCodec.Measured read(byte[] yaml) {
    return read(yaml, Growth.NONE);
  }

  /** As {@link #read(byte[])}, telling {@code growth} what the document takes as it is built. */
  static JsonCodec.Measured read(byte[] yaml, Growth growth) {
    try {
      YamlText.check(yaml);
      BlockYamlReader reader = new BlockYamlReader(yaml, growth);
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
      case '"' -> scalar(quoted(true, owner), false);
      case '\'' -> scalar(quoted(false, owner), false);
      case '|' -> scalar(literal(owner), false);
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
      default -> scalar(plain(owner), true);
    }
  }

  private void scalar(String text, boolean plain) throws JsonRefusal {
    event();
    out.scalar(text, plain);
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
}
