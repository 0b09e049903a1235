package io.github.appsetmapper.expr;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Collection;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;

/**
 * One equality for the values an expression reads and builds: two numbers are equal when {@code ==}
 * says so, whatever their Java types ({@code 1}, {@code 1L}, {@code 1.0} and the decimal {@code
 * 1.00} are one value; 2^53 + 1 as a long is not 2^53 as a double: {@link MixedNumbers}), and two
 * lists or maps when their elements or entries are. Java's {@code equals} said {@code 1} and {@code
 * 1.0} differ, so {@code {1.0}.contains(1)} was false where {@code 1.0 == 1} is true. Every place
 * that compares or hashes values does it here: a list's {@code contains}, {@code indexOf} and
 * {@code containsAll}, a map's {@code containsValue}, a number's {@code equals}, {@code ==} and
 * {@code !=} on two lists or two maps, a number as a map's key ({@link #canonical}: an inline map's
 * keys and an index are made canonical, so {@code {1: 'a'}[1.0]} finds 'a'), distinctBy keys, and
 * outside expressions {@code test}, {@code diff} and shadow comparisons.
 *
 * <p>{@link #hash} agrees with {@link #same}: a number hashes as its canonical form (an {@code
 * Integer} or a {@code Long} for a whole number one holds, else the exact decimal without trailing
 * zeros). Neither allocates for text, booleans and the integers of JSON; both tick the deadline per
 * element.
 */
public final class Equality {
  private Equality() {}

  /**
   * Whether {@code a} and {@code b} are one value: numbers by value, lists and maps deeply. Also
   * the rule of every comparison that tells an author what changed ({@code test}'s expectations,
   * {@code diff}'s and shadow's rows), so that what {@code ==} calls one value is never reported as
   * a change, nor a difference in the 17th digit missed.
   */
  public static boolean same(Object a, Object b) {
    if (a == b) {
      return true;
    }
    if (a == null || b == null) {
      return false;
    }
    if (a instanceof Number x && b instanceof Number y) {
      if (integral(x) && integral(y)) {
        return x.longValue() == y.longValue();
      }
      return number(x).equals(number(y));
    }
    if (a instanceof Map<?, ?> x && b instanceof Map<?, ?> y) {
      return sameMaps(x, y);
    }
    if (ordered(a) && ordered(b)) {
      return sameLists((Collection<?>) a, (Collection<?>) b);
    }
    return a.equals(b);
  }

  /** Whether {@code a} and {@code b} are two lists or two maps: compared here, not by Java. */
  static boolean structured(Object a, Object b) {
    return a instanceof Map<?, ?> && b instanceof Map<?, ?> || ordered(a) && ordered(b);
  }

  /** A hash that agrees with {@link #same}. */
  static int hash(Object value) {
    EvaluationBudget.current().tick();
    if (value == null) {
      return 0;
    }
    if (value instanceof Number n) {
      Object canonical = integral(n) ? n : number(n);
      return canonical instanceof Integer || canonical instanceof Long
          ? Long.hashCode(((Number) canonical).longValue())
          : canonical.hashCode();
    }
    if (value instanceof Map<?, ?> map) {
      int h = 0;
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        h += hash(entry.getKey()) ^ hash(entry.getValue());
      }
      return h;
    }
    if (ordered(value)) {
      int h = 1;
      for (Object element : (Collection<?>) value) {
        h = 31 * h + hash(element);
      }
      return h;
    }
    return value.hashCode();
  }

  /** {@code value} as a key of a hash set or map in which keys are equal as {@link #same} says. */
  public static Object key(Object value) {
    return new Key(value, hash(value));
  }

  /** A value hashed and compared by {@link #same}; prints as the value. */
  private record Key(Object value, int hash) {
    @Override
    public boolean equals(Object other) {
      return other instanceof Key key && hash == key.hash && same(value, key.value);
    }

    @Override
    public int hashCode() {
      return hash;
    }

    @Override
    public String toString() {
      return String.valueOf(value);
    }
  }

  /**
   * The one form of a number's value: an {@code Integer} or a {@code Long} for a whole number one
   * holds, else the exact decimal without trailing zeros (a double by the decimal it is written
   * as); a NaN or an infinity as a {@code Double}. Anything that is no number is returned as it is.
   */
  static Object canonical(Object value) {
    return value instanceof Number n ? number(n) : value;
  }

  private static Object number(Number n) {
    if (integral(n)) {
      return whole(n, n.longValue());
    }
    if (!MixedNumbers.finite(n)) {
      return n.doubleValue();
    }
    if (n instanceof BigInteger big && big.bitLength() < 64) {
      return whole(n, big.longValue());
    }
    EvaluationBudget.current().before(n, null); // stripping 10,000 digits takes a while
    BigDecimal exact = MixedNumbers.decimal(n);
    BigDecimal stripped = exact.signum() == 0 ? BigDecimal.ZERO : exact.stripTrailingZeros();
    if (stripped.scale() <= 0 && stripped.precision() - stripped.scale() <= 19) {
      try {
        return whole(n, stripped.longValueExact());
      } catch (ArithmeticException e) {
        // beyond a long: the decimal is the form
      }
    }
    return stripped;
  }

  /**
   * A whole number: an {@code Integer} when an int holds it (as JSON's are), else a {@code Long}.
   */
  private static Number whole(Number n, long value) {
    if (value == (int) value) {
      return n instanceof Integer ? n : Integer.valueOf((int) value);
    }
    return n instanceof Long ? n : Long.valueOf(value);
  }

  private static boolean integral(Number n) {
    return n instanceof Integer || n instanceof Long || n instanceof Short || n instanceof Byte;
  }

  /** A list (or another collection with an order that is no set: a map's values). */
  private static boolean ordered(Object value) {
    return value instanceof Collection<?> && !(value instanceof Set<?>);
  }

  private static boolean sameLists(Collection<?> a, Collection<?> b) {
    if (a.size() != b.size()) {
      return false;
    }
    EvaluationBudget budget = EvaluationBudget.current();
    Iterator<?> other = b.iterator();
    for (Object element : a) {
      budget.tick();
      if (!same(element, other.next())) {
        return false;
      }
    }
    return true;
  }

  private static boolean sameMaps(Map<?, ?> a, Map<?, ?> b) {
    if (a.size() != b.size()) {
      return false;
    }
    EvaluationBudget budget = EvaluationBudget.current();
    for (Map.Entry<?, ?> entry : a.entrySet()) {
      budget.tick();
      Object key = entry.getKey();
      Object theirs = b.get(key);
      if (theirs == null && !b.containsKey(key) || !same(entry.getValue(), theirs)) {
        return false;
      }
    }
    return true;
  }
}
