package io.github.appsetmapper.compile;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.jayway.jsonpath.Configuration;
import com.jayway.jsonpath.JsonPath;
import com.jayway.jsonpath.spi.json.JacksonJsonProvider;
import com.jayway.jsonpath.spi.mapper.JacksonMappingProvider;

/**
 * The one JsonPath configuration (Jackson-backed, default options: a missing definite path throws),
 * never the global {@code Configuration.setDefaults}.
 */
public final class JsonPaths {
  /** Upstream JSON: floats as BigDecimal so that numbers keep their exact written value. */
  public static final ObjectMapper MAPPER =
      new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

  public static final Configuration CONFIGURATION =
      Configuration.builder()
          .jsonProvider(new JacksonJsonProvider(MAPPER))
          .mappingProvider(new JacksonMappingProvider(MAPPER))
          .build();

  private JsonPaths() {}

  /**
   * Why a path's brackets or quotes do not pair up, or null when they do. Jayway's compiler reads
   * an unclosed {@code $.items[} as {@code $['items']}, so this is checked before it.
   */
  static String unbalanced(String path) {
    java.util.Deque<Character> open = new java.util.ArrayDeque<>();
    char quote = 0;
    for (int i = 0; i < path.length(); i++) {
      char c = path.charAt(i);
      if (quote != 0) {
        if (c == '\\') {
          i++;
        } else if (c == quote) {
          quote = 0;
        }
      } else if (c == '\'' || c == '"') {
        quote = c;
      } else if (c == '[' || c == '(') {
        open.push(c);
      } else if (c == ']' || c == ')') {
        char expected = c == ']' ? '[' : '(';
        if (open.isEmpty() || open.pop() != expected) {
          return "unexpected '" + c + "' at " + (i + 1);
        }
      }
    }
    if (quote != 0) {
      return "unclosed quote";
    }
    return open.isEmpty() ? null : "unclosed '" + open.peek() + "'";
  }

  /**
   * The definite leading part of an indefinite path ({@code $['items']} of {@code $.items[*]}), or
   * null when the path is definite or starts indefinite right at the root ({@code $[*]}).
   */
  static JsonPath container(JsonPath path) {
    if (path.isDefinite()) {
      return null;
    }
    String normalized = path.getPath();
    int end = prefixEnd(normalized);
    return end <= 1 ? null : JsonPath.compile(normalized.substring(0, end));
  }

  /**
   * Whether the first indefinite step walks an array ({@code [*]}, a filter {@code [?...]} or a
   * slice): then its container must be a list. JsonPath would walk an object's values instead, and
   * turn an error object like {@code {"message":"Not Found"}} into rows.
   */
  static boolean walksArray(JsonPath path) {
    if (path.isDefinite()) {
      return false;
    }
    String normalized = path.getPath();
    String rest = normalized.substring(prefixEnd(normalized));
    return rest.startsWith("[*]")
        || rest.startsWith("[?")
        || rest.matches("^\\[-?\\d*:-?\\d*(:-?\\d*)?\\].*");
  }

  private static int prefixEnd(String normalized) {
    int end = 1;
    while (end < normalized.length()) {
      int next = definiteTokenEnd(normalized, end);
      if (next < 0) {
        break;
      }
      end = next;
    }
    return end;
  }

  /** The end of a single-name ({@code ['x']}) or single-index ({@code [3]}) token, else -1. */
  private static int definiteTokenEnd(String path, int at) {
    if (path.startsWith("['", at)) {
      int close = path.indexOf("']", at + 2);
      if (close < 0 || path.substring(at + 2, close).contains("','")) {
        return -1;
      }
      return close + 2;
    }
    if (path.startsWith("[", at)) {
      int close = path.indexOf(']', at);
      if (close > at + 1 && path.substring(at + 1, close).matches("-?\\d+")) {
        return close + 1;
      }
    }
    return -1;
  }
}
