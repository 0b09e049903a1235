package io.github.appsetmapper.secret;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * A text as bytes after undoing one or more wire encodings (percent-encoding, JSON string escapes,
 * HTML character references, base64), each byte remembering which characters of the original text
 * it came from. A secret is looked for in these bytes, and a match is masked in the original over
 * the characters it came from: so {@code %7E} for {@code ~}, {@code \/} for {@code /} or a secret
 * inside a base64 string are found whatever mix of escaped and plain characters the upstream chose.
 */
final class TextView {
  final byte[] bytes;

  /** For each byte, the first original character it came from and the one after its last. */
  final int[] from;

  final int[] to;

  final int length;

  /** Whether an HTML name was read in another case than its own ({@code &EURO;}): see below. */
  final boolean folded;

  /** Whether every byte is ASCII (most views): no Unicode form to look at then. */
  final boolean ascii;

  private TextView(byte[] bytes, int[] from, int[] to, int length, boolean folded, boolean ascii) {
    this.bytes = bytes;
    this.from = from;
    this.to = to;
    this.length = length;
    this.folded = folded;
    this.ascii = ascii;
  }

  /** The text as UTF-8 (a lone surrogate as '?', as {@link String#getBytes} writes it). */
  static TextView of(String text) {
    Builder out = new Builder(text.length() + 8);
    for (int i = 0; i < text.length(); ) {
      int codePoint = text.codePointAt(i);
      int next = i + Character.charCount(codePoint);
      out.codePoint(
          Character.isSurrogate(text.charAt(i)) && next == i + 1 ? '?' : codePoint, i, next);
      i = next;
    }
    return out.build();
  }

  boolean contains(char ascii) {
    for (int i = 0; i < length; i++) {
      if (bytes[i] == ascii) {
        return true;
      }
    }
    return false;
  }

  /**
   * {@code %XX} (either case) as the byte it stands for; with {@code plusIsSpace}, '+' as ' '. This
   * view itself when there is none.
   */
  TextView percentDecoded(boolean plusIsSpace) {
    Builder out = new Builder(length);
    for (int i = 0; i < length; i++) {
      byte b = bytes[i];
      if (b == '%' && i + 2 < length && hex(bytes[i + 1]) >= 0 && hex(bytes[i + 2]) >= 0) {
        out.decoded((byte) (hex(bytes[i + 1]) << 4 | hex(bytes[i + 2])), from[i], to[i + 2]);
        i += 2;
      } else if (b == '+' && plusIsSpace) {
        out.decoded((byte) ' ', from[i], to[i]);
      } else {
        out.add(b, from[i], to[i]);
      }
    }
    return out.buildOr(this);
  }

  /**
   * JSON string escapes undone: {@code \" \\ \/ \b \f \n \r \t} and {@code \}{@code uXXXX}. This
   * view itself when there is none (so for each decoding below).
   */
  TextView jsonUnescaped() {
    return unescaped(false);
  }

  /**
   * One layer of both percent-encoding and JSON string escapes undone in one pass: each layer of a
   * secret nested in JSON inside a URL inside JSON (in any order) comes off with one more pass.
   */
  TextView layerUndone() {
    return unescaped(true);
  }

  private TextView unescaped(boolean percentToo) {
    Builder out = new Builder(length);
    for (int i = 0; i < length; i++) {
      byte b = bytes[i];
      if (percentToo
          && b == '%'
          && i + 2 < length
          && hex(bytes[i + 1]) >= 0
          && hex(bytes[i + 2]) >= 0) {
        out.decoded((byte) (hex(bytes[i + 1]) << 4 | hex(bytes[i + 2])), from[i], to[i + 2]);
        i += 2;
        continue;
      }
      if (b != '\\' || i + 1 >= length) {
        out.add(b, from[i], to[i]);
        continue;
      }
      byte c = bytes[i + 1];
      int simple =
          switch (c) {
            case '"', '\\', '/' -> c;
            case 'b' -> '\b';
            case 'f' -> '\f';
            case 'n' -> '\n';
            case 'r' -> '\r';
            case 't' -> '\t';
            default -> -1;
          };
      if (simple >= 0) {
        out.decoded((byte) simple, from[i], to[i + 1]);
        i++;
        continue;
      }
      int unit = c == 'u' ? unit(i + 2) : -1;
      if (unit < 0) {
        out.add(b, from[i], to[i]);
        continue;
      }
      int end = i + 5;
      int codePoint = unit;
      if (Character.isHighSurrogate((char) unit)
          && end + 2 < length
          && bytes[end + 1] == '\\'
          && bytes[end + 2] == 'u') {
        int low = unit(end + 3);
        if (low >= 0 && Character.isLowSurrogate((char) low)) {
          codePoint = Character.toCodePoint((char) unit, (char) low);
          end += 6;
        }
      }
      if (codePoint <= 0xFFFF && Character.isSurrogate((char) codePoint)) {
        codePoint = '?';
      }
      out.changed = true;
      out.codePoint(codePoint, from[i], to[end]);
      i = end;
    }
    return out.buildOr(this);
  }

  /**
   * HTML and XML character references undone: every named one ({@link HtmlEntities}: {@code &amp;},
   * {@code &euro;}, {@code &auml;}) and numeric ones ({@code &#39;}, {@code &#x2B;}, any number of
   * leading zeros; the ';' optional, as browsers read them). An error page that quotes a password
   * escapes its {@code & ' " < >}, and {@code htmlentities} every non-ASCII character.
   */
  TextView htmlUnescaped() {
    return htmlUnescaped(false);
  }

  /**
   * As {@link #htmlUnescaped()}, a name in another case than its own read capitalised first with
   * {@code capitalFirst} ({@code &AUML;} as Ä: a page upper-cased whole), else lower-cased first
   * ({@code &EACUTE;} as é: a writer that upper-cases names only). {@link #folded} tells whether a
   * second reading may differ.
   */
  TextView htmlUnescaped(boolean capitalFirst) {
    return HtmlView.unescaped(this, capitalFirst);
  }

  /**
   * Every run of at least {@code minChars} base64 characters (standard and URL-safe alphabets
   * alike, padding ends a run) decoded from each of its first four characters on, in four views:
   * the {@code offset}-th holds each run decoded from its {@code offset}-th character. Together
   * they decode a base64 string embedded anywhere in the text on its own 4-character grid, so a
   * secret inside it is found whatever bytes came before it in the encoded data. No view when no
   * run is that long (most texts).
   */
  List<TextView> base64Decoded(int minChars) {
    Builder[] out = null; // made at the first run long enough
    int i = 0;
    while (i < length) {
      if (sextet(bytes[i]) < 0) {
        i++;
        continue;
      }
      int start = i;
      while (i < length && sextet(bytes[i]) >= 0) {
        i++;
      }
      if (i - start < minChars) {
        continue;
      }
      if (out == null) {
        out = new Builder[4];
        for (int offset = 0; offset < 4; offset++) {
          out[offset] = new Builder(length * 3 / 4 + 3);
        }
      }
      for (int offset = 0; offset < 4 && start + offset + 1 < i; offset++) {
        decodeRun(start + offset, i, out[offset]);
      }
    }
    if (out == null) {
      return List.of();
    }
    List<TextView> views = new java.util.ArrayList<>(4);
    for (Builder builder : out) {
      views.add(builder.build());
    }
    return views;
  }

  /** The base64 characters from {@code start} to {@code end}, four at a time, into {@code out}. */
  private void decodeRun(int start, int end, Builder out) {
    for (int p = start; p + 1 < end; p += 4) {
      int v0 = sextet(bytes[p]);
      int v1 = sextet(bytes[p + 1]);
      out.add((byte) (v0 << 2 | v1 >> 4), from[p], to[p + 1]);
      if (p + 2 < end) {
        int v2 = sextet(bytes[p + 2]);
        out.add((byte) ((v1 & 0xF) << 4 | v2 >> 2), from[p + 1], to[p + 2]);
        if (p + 3 < end) {
          int v3 = sextet(bytes[p + 3]);
          out.add((byte) ((v2 & 0x3) << 6 | v3), from[p + 2], to[p + 3]);
        }
      }
    }
  }

  private int unit(int at) {
    if (at + 4 > length) {
      return -1;
    }
    int value = 0;
    for (int k = at; k < at + 4; k++) {
      int digit = hex(bytes[k]);
      if (digit < 0) {
        return -1;
      }
      value = value << 4 | digit;
    }
    return value;
  }

  static int hex(byte b) {
    if (b >= '0' && b <= '9') {
      return b - '0';
    }
    if (b >= 'a' && b <= 'f') {
      return b - 'a' + 10;
    }
    if (b >= 'A' && b <= 'F') {
      return b - 'A' + 10;
    }
    return -1;
  }

  static int sextet(byte b) {
    if (b >= 'A' && b <= 'Z') {
      return b - 'A';
    }
    if (b >= 'a' && b <= 'z') {
      return b - 'a' + 26;
    }
    if (b >= '0' && b <= '9') {
      return b - '0' + 52;
    }
    return switch (b) {
      case '+', '-' -> 62;
      case '/', '_' -> 63;
      default -> -1;
    };
  }

  /** Grows the three arrays together. */
  static final class Builder {
    private byte[] bytes;
    private int[] from;
    private int[] to;
    private int length;
    boolean folded;

    /** Whether a byte past ASCII was added. */
    private boolean wide;

    /** Whether anything was decoded: if not, the view read is the view made. */
    boolean changed;

    Builder(int capacity) {
      int size = Math.max(capacity, 16);
      bytes = new byte[size];
      from = new int[size];
      to = new int[size];
    }

    void add(byte b, int first, int end) {
      if (length == bytes.length) {
        int size = length * 2;
        bytes = java.util.Arrays.copyOf(bytes, size);
        from = java.util.Arrays.copyOf(from, size);
        to = java.util.Arrays.copyOf(to, size);
      }
      wide |= b < 0;
      bytes[length] = b;
      from[length] = first;
      to[length] = end;
      length++;
    }

    /** A byte a decoding made (not one copied as it was). */
    void decoded(byte b, int first, int end) {
      changed = true;
      add(b, first, end);
    }

    void codePoint(int codePoint, int first, int end) {
      if (codePoint < 0x80) {
        add((byte) codePoint, first, end);
        return;
      }
      for (byte b : new String(Character.toChars(codePoint)).getBytes(StandardCharsets.UTF_8)) {
        add(b, first, end);
      }
    }

    TextView build() {
      return new TextView(bytes, from, to, length, folded, !wide);
    }

    /** The view made, or {@code read} itself when nothing was decoded. */
    TextView buildOr(TextView read) {
      return changed ? build() : read;
    }
  }
}
