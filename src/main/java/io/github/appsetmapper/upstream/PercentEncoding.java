package io.github.appsetmapper.upstream;

import io.github.appsetmapper.json.Utf8;

/**
 * RFC 3986 percent-encoding for values put into URLs: everything but the unreserved characters is
 * encoded, so a value can never add a path segment, a query parameter or a fragment.
 */
public final class PercentEncoding {
  private static final char[] HEX = "0123456789ABCDEF".toCharArray();

  private PercentEncoding() {}

  /** One path segment (':' and '@' are kept: registries' digests read {@code sha256:...}). */
  public static String pathSegment(String value) {
    return encode(value, ":@");
  }

  public static String queryComponent(String value) {
    return encode(value, "");
  }

  /** {@code uri} with query parameter {@code name} set to {@code value} (replacing any). */
  public static java.net.URI withQuery(java.net.URI uri, String name, String value) {
    String key = queryComponent(name);
    StringBuilder query = new StringBuilder();
    if (uri.getRawQuery() != null) {
      for (String pair : uri.getRawQuery().split("&")) {
        String pairName = pair.contains("=") ? pair.substring(0, pair.indexOf('=')) : pair;
        if (!pair.isEmpty() && !pairName.equals(key)) {
          query.append(query.length() == 0 ? "" : "&").append(pair);
        }
      }
    }
    query
        .append(query.length() == 0 ? "" : "&")
        .append(key)
        .append('=')
        .append(queryComponent(value));
    String text = uri.toString();
    int cut = text.indexOf('?');
    int hash = text.indexOf('#');
    String base = cut >= 0 ? text.substring(0, cut) : hash >= 0 ? text.substring(0, hash) : text;
    return java.net.URI.create(base + "?" + query);
  }

  /**
   * Every byte but the unreserved characters and {@code alsoKept} as %XX; half of a surrogate pair
   * refused ({@link Utf8}: Java writes it as '?', {@code %3F}, another resource).
   */
  public static String encode(String value, String alsoKept) {
    StringBuilder out = new StringBuilder(value.length() + 8);
    for (byte b : Utf8.bytes(value, "a URL part")) {
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
