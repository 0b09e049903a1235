package io.github.appsetmapper.diff;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * Values made fit to show: every string in them (map keys too) passed through the redactor before
 * anything is written, so that a secret is found whole whatever escaping the output adds later.
 */
public final class Redacted {
  private Redacted() {}

  public static Object deep(Object value, UnaryOperator<String> redact) {
    if (value instanceof String text) {
      return redact.apply(text);
    }
    if (value instanceof Map<?, ?> map) {
      Map<String, Object> out = new LinkedHashMap<>();
      map.forEach((k, v) -> out.put(redact.apply(String.valueOf(k)), deep(v, redact)));
      return out;
    }
    if (value instanceof List<?> list) {
      List<Object> out = new ArrayList<>(list.size());
      list.forEach(v -> out.add(deep(v, redact)));
      return out;
    }
    return value;
  }

  @SuppressWarnings("unchecked")
  public static Map<String, Object> map(Map<String, Object> value, UnaryOperator<String> redact) {
    return (Map<String, Object>) deep(value, redact);
  }
}
