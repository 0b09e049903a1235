package io.github.appsetmapper.secret;

/**
 * HTML and XML character references undone in a {@link TextView} ({@link TextView#htmlUnescaped}):
 * every named one ({@link HtmlEntities}), a name in another case too, and numeric ones.
 */
final class HtmlView {
  private final TextView view;
  private final byte[] bytes;
  private final int length;

  private HtmlView(TextView view) {
    this.view = view;
    this.bytes = view.bytes;
    this.length = view.length;
  }

  static TextView unescaped(TextView view, boolean capitalFirst) {
    return new HtmlView(view).unescaped(capitalFirst);
  }

  private TextView unescaped(boolean capitalFirst) {
    int[] from = view.from;
    int[] to = view.to;
    TextView.Builder out = new TextView.Builder(length);
    for (int i = 0; i < length; i++) {
      byte b = bytes[i];
      if (b == '&') {
        int end = -1;
        int codePoint = -1;
        if (i + 2 < length && bytes[i + 1] == '#') {
          boolean hexDigits = bytes[i + 2] == 'x' || bytes[i + 2] == 'X';
          int k = i + (hexDigits ? 3 : 2);
          int value = 0;
          int digits = 0;
          int zeros = 0;
          while (k < length && bytes[k] == '0') { // &#x0001f600;: zeros are no digits of the value
            k++;
            zeros++;
          }
          while (k < length && digits < 7) {
            int d =
                hexDigits
                    ? TextView.hex(bytes[k])
                    : bytes[k] >= '0' && bytes[k] <= '9' ? bytes[k] - '0' : -1;
            if (d < 0) {
              break;
            }
            value = value * (hexDigits ? 16 : 10) + d;
            k++;
            digits++;
          }
          if (digits + zeros > 0 && value <= Character.MAX_CODE_POINT) {
            codePoint = value;
            end = k < length && bytes[k] == ';' ? k : k - 1;
          }
        } else {
          int[] named = named(i + 1, capitalFirst, out);
          if (named != null) {
            out.changed = true;
            end = named[0];
            for (int n = 1; n < named.length; n++) {
              out.codePoint(named[n], from[i], to[end]);
            }
            i = end;
            continue;
          }
        }
        if (codePoint >= 0) {
          out.changed = true;
          if (codePoint <= 0xFFFF && Character.isSurrogate((char) codePoint)) {
            codePoint = '?';
          }
          out.codePoint(codePoint, from[i], to[end]);
          i = end;
          continue;
        }
      }
      out.add(b, from[i], to[i]);
    }
    return out.buildOr(view);
  }

  /**
   * The named reference whose name starts at {@code at}: the index of its last byte, then its code
   * points; null when none. With its ';' the whole name, without it the longest legacy name that
   * starts there ({@code &copy2024} is the copyright sign and "2024"), as a browser reads it; a
   * name in another case as {@link HtmlEntities#anyCase} reads it ({@code &EURO;}).
   */
  private int[] named(int at, boolean capitalFirst, TextView.Builder out) {
    int k = at;
    while (k < length && k - at < HtmlEntities.LONGEST && isAsciiLetterOrDigit(bytes[k])) {
      k++;
    }
    if (k == at) {
      return null;
    }
    if (k < length && bytes[k] == ';') {
      int[] found = reference(ascii(at, k + 1), capitalFirst, out);
      if (found != null) {
        return withEnd(k, found);
      }
    }
    for (int end = Math.min(k, at + HtmlEntities.longestLegacy()); end > at; end--) {
      int[] found = reference(ascii(at, end), capitalFirst, out);
      if (found != null) {
        return withEnd(end - 1, found);
      }
    }
    return null;
  }

  private static int[] reference(String name, boolean capitalFirst, TextView.Builder out) {
    int[] exact = HtmlEntities.codePoints(name);
    if (exact != null) {
      return exact;
    }
    int[] folded = HtmlEntities.anyCase(name, capitalFirst);
    out.folded |= folded != null;
    return folded;
  }

  private static boolean isAsciiLetterOrDigit(byte b) {
    return (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9');
  }

  private String ascii(int from, int to) {
    return new String(bytes, from, to - from, java.nio.charset.StandardCharsets.US_ASCII);
  }

  private static int[] withEnd(int end, int[] codePoints) {
    int[] out = new int[codePoints.length + 1];
    out[0] = end;
    System.arraycopy(codePoints, 0, out, 1, codePoints.length);
    return out;
  }
}
