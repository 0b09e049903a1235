package io.github.appsetmapper.replay;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The parts of a URL or a form body a recorded exchange compares: a URL's text before the query,
 * and the query's or the form's {@code name=value} pairs, whose order does not matter.
 */
final class QueryString {
  private QueryString() {}

  /** The URL up to its query (the whole URL when it has none). */
  static String base(String url) {
    int query = url.indexOf('?');
    return query < 0 ? url : url.substring(0, query);
  }

  /** The query's pairs as sent (still encoded), sorted; empty pairs ({@code a=1&&b=2}) left out. */
  static List<String> pairs(String url) {
    int query = url.indexOf('?');
    return query < 0 ? List.of() : sorted(url.substring(query + 1));
  }

  /** Whether two URLs are the same but for the order of their query parameters. */
  static boolean sameUrl(String expected, String actual) {
    return base(expected).equals(base(actual)) && pairs(expected).equals(pairs(actual));
  }

  /**
   * The pairs of a form body ({@code application/x-www-form-urlencoded}), decoded ('+' is a space),
   * as {@code name=value}, sorted.
   */
  static List<String> formPairs(String body) {
    List<String> out = new ArrayList<>();
    for (String pair : body.split("&", -1)) {
      if (pair.isEmpty()) {
        continue;
      }
      int equals = pair.indexOf('=');
      String name = equals < 0 ? pair : pair.substring(0, equals);
      String value = equals < 0 ? "" : pair.substring(equals + 1);
      out.add(decode(name) + "=" + decode(value));
    }
    out.sort(null);
    return out;
  }

  private static String decode(String text) {
    try {
      return URLDecoder.decode(text, StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      return text; // a malformed escape is compared as written
    }
  }

  private static List<String> sorted(String query) {
    List<String> out = new ArrayList<>();
    for (String pair : query.split("&", -1)) {
      if (!pair.isEmpty()) {
        out.add(pair);
      }
    }
    out.sort(null);
    return out;
  }
}
