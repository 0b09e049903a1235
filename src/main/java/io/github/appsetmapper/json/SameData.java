package io.github.appsetmapper.json;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * When two answers' data are the same, for every comparison that tells an author or an operator
 * what changed ({@code test}'s expectations, {@code diff}, shadow differences): numbers by value,
 * as an expression's {@code ==} compares them ({@code 1}, {@code 1.0} and {@code 1.00} are one
 * number, {@code 12.5} and {@code 12.50000000000000001} are two), everything else by Java equality.
 * Java's own equality told a {@code 350224384} from a {@code 350224384.0} (a change nobody sees on
 * the wire), and a comparison through Jackson's tree read decimals as doubles (a difference in the
 * 17th digit passed).
 */
public final class SameData {
  private SameData() {}

  /** Whether {@code a} and {@code b} are the same data. */
  public static boolean same(Object a, Object b) {
    return canonical(a).equals(canonical(b));
  }

  /**
   * {@code data} with every number as one canonical {@link BigDecimal} (its written value, trailing
   * zeros stripped), so that {@code equals} and {@code hashCode} follow {@link #same}: a key for
   * matching rows, a value to compare. Other values are kept; maps and lists are copied.
   */
  public static Object canonical(Object data) {
    if (data instanceof Number number) {
      return number(number);
    }
    if (data instanceof Map<?, ?> map) {
      Map<Object, Object> out = new LinkedHashMap<>(Math.max(4, map.size() * 2));
      map.forEach((k, v) -> out.put(canonical(k), canonical(v)));
      return out;
    }
    if (data instanceof List<?> list) {
      List<Object> out = new ArrayList<>(list.size());
      list.forEach(item -> out.add(canonical(item)));
      return out;
    }
    return data;
  }

  private static Object number(Number number) {
    BigDecimal value;
    if (number instanceof BigDecimal d) {
      value = d;
    } else if (number instanceof BigInteger big) {
      value = new BigDecimal(big);
    } else if (number instanceof Long
        || number instanceof Integer
        || number instanceof Short
        || number instanceof Byte) {
      value = BigDecimal.valueOf(number.longValue());
    } else if (Double.isFinite(number.doubleValue())) {
      value = new BigDecimal(Numbers.written(number));
    } else {
      return number; // NaN and the infinities: never in parsed data, compared as they are
    }
    return value.signum() == 0 ? BigDecimal.ZERO : value.stripTrailingZeros();
  }
}
