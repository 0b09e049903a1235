package io.github.appsetmapper.server;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Map;

/** Wire JSON: BigDecimals written plainly, so a number reads {@code 10000000}, not {@code 1E+7}. */
public final class Json {
  public static final ObjectMapper MAPPER =
      new ObjectMapper().enable(JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN);

  private Json() {}

  /** {@code {"output":{"parameters":[...]}}}, exactly what Argo CD reads. */
  public static String answer(List<Map<String, Object>> parameters) {
    return write(Map.of("output", Map.of("parameters", parameters)));
  }

  public static String error(String message) {
    return write(Map.of("error", message));
  }

  public static String write(Object value) {
    try {
      return MAPPER.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write JSON", e);
    }
  }
}
