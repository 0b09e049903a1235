package io.github.appsetmapper.engine;

import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;

/**
 * The one way a query parameter is read from a URL an upstream gave (a {@code Link} target, a next
 * URL in a body). A parameter given twice with different values ({@code ?page=1&page=3}) has no
 * meaning we could rely on: read by its first value, a hostile last link cut the listing short with
 * a 200. So it is refused; the same value twice is harmless.
 */
final class QueryParameters {
  /**
   * A parameter given twice with different values; the message is {@code "name twice: a and b"}.
   */
  static final class Twice extends Exception {
    Twice(String name, String first, String second) {
      super(name + " twice: " + first + " and " + second, null, false, false);
    }
  }

  private QueryParameters() {}

  /** The value of {@code name} in {@code uri}'s query, or null when it has none. */
  static String single(URI uri, String name) throws Twice {
    if (name == null || uri.getRawQuery() == null) {
      return null;
    }
    String found = null;
    for (String pair : uri.getRawQuery().split("&")) {
      int eq = pair.indexOf('=');
      String key = decode(eq < 0 ? pair : pair.substring(0, eq));
      if (!key.equals(name)) {
        continue;
      }
      String value = eq < 0 ? "" : decode(pair.substring(eq + 1));
      if (found != null && !found.equals(value)) {
        throw new Twice(name, found, value);
      }
      found = value;
    }
    return found;
  }

  private static String decode(String text) {
    try {
      return URLDecoder.decode(text, StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      return text; // a stray '%': compared as written
    }
  }
}
