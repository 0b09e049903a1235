package io.github.appsetmapper.engine;

import com.jayway.jsonpath.JsonPath;
import com.jayway.jsonpath.PathNotFoundException;
import io.github.appsetmapper.compile.JsonPaths;
import io.github.appsetmapper.config.BodyFormat;
import io.github.appsetmapper.expr.Values;
import io.github.appsetmapper.upstream.call.RequestFailure;
import java.util.List;
import java.util.Map;

/**
 * Reads the next cursor or next-page URL from a page's body. What holds it must exist: {@code
 * {"meta":{}}} may end the listing for {@code $.meta.next_cursor}, but a body without {@code meta}
 * (an error envelope answered with a 200) is an error, never the last page.
 */
final class Cursors {
  private Cursors() {}

  /**
   * The text at {@code path}, or null when it is absent, null or blank.
   *
   * @param holder what holds it (null: the body itself)
   * @param field the setting, for errors ({@code next}, {@code cursor.from})
   * @param numbers whether a number is a value (a cursor may be an offset; a URL is text)
   */
  static String value(Page page, JsonPath path, JsonPath holder, String field, boolean numbers)
      throws RequestFailure {
    return value(page, path, holder, field, numbers, false);
  }

  /**
   * As {@link #value(Page, JsonPath, JsonPath, String, boolean)}; with {@code absentEnds}, a holder
   * that is missing or null (a member missing or null anywhere along the path) is the end as a null
   * value is: HAL leaves {@code _links.next} out of its last page, JSON:API writes {@code next:
   * null} for {@code $.links.next.href}. The body itself must still be an object or a list, and a
   * holder that is another value is still refused; the caller's end check (a body naming a next
   * page by another signal) is what keeps a typo in the path from being a one-page answer.
   */
  static String value(
      Page page, JsonPath path, JsonPath holder, String field, boolean numbers, boolean absentEnds)
      throws RequestFailure {
    Object body = page.json();
    Object held = holder == null ? body : read(holder, body);
    if (held == null && absentEnds && (body instanceof Map || body instanceof List)) {
      return null;
    }
    if (!(held instanceof Map) && !(held instanceof List)) {
      page.refusedBy("cursor-holder");
      String where = holder == null ? "the body" : holder.getPath();
      throw RequestFailure.of(
          page.request(),
          field
              + " '"
              + path.getPath()
              + "': "
              + (held == null
                  ? where + " is missing or null"
                  : "expected an object at " + where + ", got " + kind(held)));
    }
    Object value = read(path, body);
    if (value == null) {
      return null;
    }
    if (!(value instanceof String) && !(numbers && value instanceof Number)) {
      // An object's or a list's text sent as a cursor or followed as a URL ends nowhere useful.
      page.refusedBy("malformed-signal");
      throw RequestFailure.of(
          page.request(),
          field
              + " '"
              + path.getPath()
              + "' gave "
              + (value instanceof Map || value instanceof List ? kindOf(value) : kind(value))
              + ", not "
              + (numbers ? "a string or a number" : "a string"));
    }
    String text = Values.text(value);
    if (value instanceof Number number && NumberSpelling.mayDiffer(number) && isJson(page)) {
      // A cursor is opaque: sent back as written (1E+2 is not 100 to every upstream).
      String written = NumberSpelling.of(page.response().body(), body, path);
      text = written == null ? text : written;
    }
    return text.isBlank() ? null : text;
  }

  private static boolean isJson(Page page) {
    return page.format() == BodyFormat.JSON;
  }

  private static Object read(JsonPath path, Object document) {
    try {
      return path.read(document, JsonPaths.CONFIGURATION);
    } catch (PathNotFoundException e) {
      return null;
    }
  }

  private static String kindOf(Object value) {
    return value instanceof Map ? "an object" : "a list";
  }

  private static String kind(Object value) {
    if (value instanceof String) {
      return "a string";
    }
    if (value instanceof Boolean) {
      return "a boolean";
    }
    return value instanceof Number ? "a number" : "a " + value.getClass().getSimpleName();
  }
}
