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
   * The definite leading part of an indefinite path ({@code $['items']} of {@code $.items[*]}), or
   * null when the path is definite or starts indefinite right at the root.
   */
  static JsonPath container(JsonPath path) {
    if (path.isDefinite()) {
      return null;
    }
    String normalized = path.getPath();
    int end = 1;
    while (end < normalized.length()) {
      int next = definiteTokenEnd(normalized, end);
      if (next < 0) {
        break;
      }
      end = next;
    }
    return end <= 1 ? null : JsonPath.compile(normalized.substring(0, end));
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
