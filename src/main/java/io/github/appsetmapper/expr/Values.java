package io.github.appsetmapper.expr;

import io.github.appsetmapper.json.Numbers;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** How values become text and wire JSON: numbers written plainly, never {@code 1.0E7}. */
public final class Values {
  private Values() {}

  /** The text a value is inserted as into a URL, a header or a string template. */
  public static String text(Object value) {
    if (value == null) {
      return "";
    }
    if (value instanceof String s) {
      return s;
    }
    if (value instanceof Number n) {
      // A number of 10,000 digits takes a millisecond to write: a template's or a parameter's.
      EvaluationBudget.current().before(n, null);
      return plainNumber(n).toString();
    }
    if (value instanceof Map || value instanceof Collection) {
      return Functions.writeJson(value);
    }
    return value.toString();
  }

  /**
   * A key as a map of text keys holds it: a number by its one value ({@link Equality#canonical}),
   * written plainly, so that 1, 1.0 and 1E+0 are the key "1" and 1E+2 is "100"; text as it is.
   */
  public static String canonicalKey(Object key) {
    return key(key instanceof Number ? Equality.canonical(key) : key);
  }

  /**
   * The text a map's key is in a parameter map: a number written plainly as {@link #text} writes it
   * ({@code {(item.e): 1}} with {@code e: 1E+2} is the key {@code 100}), anything else as Java
   * writes it. The deadline is checked where the key is computed ({@link InlineMapKeys}).
   */
  static String key(Object key) {
    return key instanceof Number n && MixedNumbers.finite(n)
        ? plainNumber(n).toString()
        : String.valueOf(key);
  }

  /**
   * A number as a BigDecimal-backed plain text, or the integral types as they are; a decimal whose
   * plain form would be huge keeps its scientific form ({@link Numbers#plain}).
   */
  static Object plainNumber(Number n) {
    if (n instanceof BigDecimal d) {
      return Numbers.plain(d);
    }
    if (n instanceof Double || n instanceof Float) {
      return decimal(n).toPlainString();
    }
    return n.toString();
  }

  /**
   * A finite double as its shortest decimal, a float as {@link Float#toString}'s ({@code 0.1f} is
   * 0.1, not the 0.10000000149011612 its double is), with no trailing zeros.
   */
  private static BigDecimal decimal(Number n) {
    double d = finite(n);
    return (n instanceof Float f ? new BigDecimal(Float.toString(f)) : BigDecimal.valueOf(d))
        .stripTrailingZeros();
  }

  /**
   * A decimal's value when it is finite. JSON has no NaN or infinity, and text "NaN" is no number:
   * the evaluator refuses them first ({@link Arithmetic#finite}); this holds for any other caller.
   */
  private static double finite(Number n) {
    double d = n.doubleValue();
    if (!Double.isFinite(d)) {
      throw new IllegalArgumentException(Arithmetic.notFinite("a value", n).getMessage());
    }
    return d;
  }

  /**
   * A parameter value for Argo CD: with {@code keepTypes} false every scalar becomes a string (also
   * inside lists and maps), null stays null; with it true, numbers become plain BigDecimals so JSON
   * shows {@code 10000000}, not {@code 1.0E7}.
   */
  public static Object parameter(Object value, boolean keepTypes) {
    if (value == null) {
      return null;
    }
    if (value instanceof Map<?, ?> map) {
      Map<String, Object> out = new LinkedHashMap<>();
      map.forEach((k, v) -> out.put(key(k), parameter(v, keepTypes)));
      return out;
    }
    if (value instanceof Collection<?> list) {
      List<Object> out = new ArrayList<>(list.size());
      list.forEach(v -> out.add(parameter(v, keepTypes)));
      return out;
    }
    if (value instanceof Object[] array) {
      return parameter(java.util.Arrays.asList(array), keepTypes);
    }
    if (keepTypes) {
      if (value instanceof Number n) {
        if (!(n instanceof Double || n instanceof Float)) {
          return n;
        }
        return decimal(n);
      }
      if (value instanceof Boolean || value instanceof String) {
        return value;
      }
      return value.toString();
    }
    return text(value);
  }
}
