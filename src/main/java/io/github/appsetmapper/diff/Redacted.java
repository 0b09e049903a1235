package io.github.appsetmapper.diff;

import io.github.appsetmapper.expr.EvaluationBudget;
import io.github.appsetmapper.json.JsonCodec;
import io.github.appsetmapper.secret.Redactor;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * Values made fit to show: every string in them (map keys too) passed through the redactor before
 * anything is written, so that a secret is found whole whatever escaping the output adds later; a
 * value larger than {@link #MAX_VALUE_BYTES} (by its heap estimate) is shown as the start of its
 * JSON, redacted whole before it is cut, and a marker saying how large it was. A report, a shadow
 * difference or a test output then holds at most that much per value, whatever the answers hold.
 */
public final class Redacted {
  /** The largest value shown whole, as {@link JsonCodec#estimate} counts it. */
  public static final long MAX_VALUE_BYTES = 16 * 1024;

  /** The characters of a larger value's JSON shown. */
  public static final int SHOWN_CHARS = 1000;

  private Redacted() {}

  public static Object deep(Object value, UnaryOperator<String> redact) {
    if (value instanceof String text && text.length() <= SHOWN_CHARS) {
      return redact.apply(text);
    }
    if (value instanceof Map<?, ?> map && JsonCodec.estimate(value) > MAX_VALUE_BYTES) {
      // A row or an input: each of its values bounded on its own, its names kept.
      Map<String, Object> out = new LinkedHashMap<>();
      map.forEach((k, v) -> out.put(redact.apply(String.valueOf(k)), deep(v, redact)));
      return out;
    }
    if ((value instanceof List<?> || value instanceof String)
        && JsonCodec.estimate(value) > MAX_VALUE_BYTES) {
      return shortened(value, redact);
    }
    return walk(value, redact);
  }

  /** The start of the value's JSON (redacted whole, then cut) and how long it was. */
  private static String shortened(Object value, UnaryOperator<String> redact) {
    // Written whole before it is cut (redacted whole): within the deadline where one is open.
    String text =
        redact.apply(
            value instanceof String s ? s : JsonCodec.write(value, EvaluationBudget.pace()));
    if (text.length() <= SHOWN_CHARS) {
      return text;
    }
    return text.substring(0, SHOWN_CHARS)
        + String.format(Locale.ROOT, "... [shortened: %,d characters]", text.length());
  }

  private static Object walk(Object value, UnaryOperator<String> redact) {
    if (value instanceof Map<?, ?> map) {
      Map<String, Object> out = new LinkedHashMap<>();
      map.forEach((k, v) -> out.put(redact.apply(String.valueOf(k)), walk(v, redact)));
      return out;
    }
    if (value instanceof List<?> list) {
      List<Object> out = new ArrayList<>(list.size());
      list.forEach(v -> out.add(walk(v, redact)));
      return out;
    }
    return Redactor.scalar(value, redact);
  }

  @SuppressWarnings("unchecked")
  public static Map<String, Object> map(Map<String, Object> value, UnaryOperator<String> redact) {
    return (Map<String, Object>) deep(value, redact);
  }
}
