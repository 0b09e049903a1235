package io.github.appsetmapper.engine;

import com.jayway.jsonpath.JsonPath;
import com.jayway.jsonpath.PathNotFoundException;
import io.github.appsetmapper.compile.JsonPaths;
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
   */
  static String value(Page page, JsonPath path, JsonPath holder, String field)
      throws RequestFailure {
    Object body = page.json();
    Object held = holder == null ? body : read(holder, body);
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
    String text = Values.text(value);
    return text.isBlank() ? null : text;
  }

  private static Object read(JsonPath path, Object document) {
    try {
      return path.read(document, JsonPaths.CONFIGURATION);
    } catch (PathNotFoundException e) {
      return null;
    }
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
