package io.github.appsetmapper.engine;

import java.nio.charset.StandardCharsets;

/**
 * RFC 3986 percent-encoding for values put into URLs: everything but the unreserved characters is
 * encoded, so a value can never add a path segment, a query parameter or a fragment.
 */
final class Encoding {
  private static final char[] HEX = "0123456789ABCDEF".toCharArray();

  private Encoding() {}

  /** One path segment (':' and '@' are kept: registries' digests read {@code sha256:...}). */
  static String pathSegment(String value) {
    return encode(value, ":@");
  }

  static String queryComponent(String value) {
    return encode(value, "");
  }

  private static String encode(String value, String alsoKept) {
    StringBuilder out = new StringBuilder(value.length() + 8);
    for (byte b : value.getBytes(StandardCharsets.UTF_8)) {
      char c = (char) (b & 0xff);
      if ((c >= 'a' && c <= 'z')
          || (c >= 'A' && c <= 'Z')
          || (c >= '0' && c <= '9')
          || c == '-'
          || c == '.'
          || c == '_'
          || c == '~'
          || alsoKept.indexOf(c) >= 0) {
        out.append(c);
      } else {
        out.append('%').append(HEX[(b >> 4) & 0xf]).append(HEX[b & 0xf]);
      }
    }
    return out.toString();
  }
}
