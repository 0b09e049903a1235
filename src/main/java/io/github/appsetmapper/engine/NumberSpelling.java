package io.github.appsetmapper.engine;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.jayway.jsonpath.JsonPath;
import com.jayway.jsonpath.Option;
import io.github.appsetmapper.compile.JsonPaths;
import io.github.appsetmapper.json.Numbers;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/**
 * The text a number was written with in a JSON body. Reading a body makes its numbers values, and a
 * value has one spelling ({@code 1E+2} becomes {@code 100}, {@code -0} becomes {@code 0}); a cursor
 * is a token to send back as the upstream wrote it, so its text is found again in the body, at the
 * place the path names. Only for a value whose own text may differ from its spelling.
 */
final class NumberSpelling {
  private static final JsonFactory FACTORY =
      JsonFactory.builder()
          .streamReadConstraints(
              StreamReadConstraints.builder().maxNumberLength(Numbers.MAX_DIGITS + 16).build())
          .build();

  private static final com.jayway.jsonpath.Configuration PATHS =
      JsonPaths.CONFIGURATION.addOptions(Option.AS_PATH_LIST);

  private NumberSpelling() {}

  /**
   * Whether {@code value}'s text may not be how it was written: a decimal, or zero ({@code -0}).
   */
  static boolean mayDiffer(Number value) {
    return value instanceof java.math.BigDecimal
        || (value instanceof Integer i && i == 0)
        || (value instanceof Long l && l == 0);
  }

  /**
   * The text of the number {@code path} selects in the JSON {@code body} ({@code document} is the
   * body read), or null when it cannot be told (then the value's own text is used).
   */
  static String of(byte[] body, Object document, JsonPath path) {
    String where;
    try {
      List<?> paths = path.read(document, PATHS);
      if (paths == null || paths.size() != 1) {
        return null;
      }
      where = String.valueOf(paths.get(0));
    } catch (RuntimeException e) {
      return null;
    }
    try (JsonParser parser = FACTORY.createParser(body)) {
      Deque<Object> at = new ArrayDeque<>();
      JsonToken token;
      while ((token = parser.nextToken()) != null) {
        switch (token) {
          case START_OBJECT, START_ARRAY -> {
            step(at);
            at.push(token == JsonToken.START_OBJECT ? "" : -1);
          }
          case END_OBJECT, END_ARRAY -> at.pop();
          case FIELD_NAME -> {
            at.pop();
            at.push(parser.currentName());
          }
          default -> {
            step(at);
            if ((token == JsonToken.VALUE_NUMBER_INT || token == JsonToken.VALUE_NUMBER_FLOAT)
                && where.equals(normalized(at))) {
              return parser.getText();
            }
          }
        }
      }
    } catch (IOException | RuntimeException e) {
      return null;
    }
    return null;
  }

  /** A value begins: one more element when it is in a list (in an object, its name placed it). */
  private static void step(Deque<Object> at) {
    if (!at.isEmpty() && at.peek() instanceof Integer index) {
      at.pop();
      at.push(index + 1);
    }
  }

  /** The place as Jayway writes it: {@code $['meta']['next']}, {@code $['data'][3]}. */
  private static String normalized(Deque<Object> at) {
    StringBuilder out = new StringBuilder("$");
    var steps = at.descendingIterator();
    while (steps.hasNext()) {
      Object step = steps.next();
      if (step instanceof Integer index) {
        out.append('[').append(index).append(']');
      } else {
        out.append("['").append(((String) step).replace("'", "\\'")).append("']");
      }
    }
    return out.toString();
  }
}
