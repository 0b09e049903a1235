package io.github.appsetmapper.expr;

import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * Where a double (or a float) meets an exact number it cannot hold: an integer beyond 2^53 in
 * magnitude (2^24 for a float), such as a long or a big integer from upstream JSON. SpEL makes both
 * doubles there, so {@code 9007199254740993 + 0.5} was 9007199254740992 and {@code 9007199254740993
 * == 9007199254740992.0} was true; {@link CheckedOperator} and {@link CheckedComparison} compute
 * and compare such a pair as exact decimals instead.
 *
 * <p>A double counts as the decimal it is written as ({@link BigDecimal#valueOf(double)}, the
 * shortest decimal that reads back as it; {@link Float#toString} for a float), not its binary
 * value: what a mapping wrote as {@code 0.1} means 0.1 ({@code new BigDecimal(0.1)} is
 * 0.1000000000000000055511151231257827...). SpEL converts a double beside an exact decimal so
 * already, as sorting and distinct keys do, and a double is written to JSON so. Where the integer
 * fits (within 2^53), comparing doubles and comparing these decimals give the same answer, and the
 * double result and its type stay SpEL's. A literal written with more digits than its double holds
 * ({@code 9223372036854775808.0}, whose shortest text is {@code 9.223372036854776E18}) is no double
 * at all: {@link ExactLiteral} makes it the exact decimal written.
 */
final class MixedNumbers {
  private static final long DOUBLE_HOLDS = 1L << 53;
  private static final long FLOAT_HOLDS = 1L << 24;

  private MixedNumbers() {}

  /**
   * Whether {@code ==}, {@code <} and the rest compare {@code left} and {@code right} here, as
   * {@link #compare} orders them: such a pair, or a finite float beside another finite number (SpEL
   * compares a float with a decimal by its text, 0.1, and with a double by its binary value: {@code
   * 0.1f == 0.1} false yet {@code 0.1f} equal to the decimal 0.1, one value two ways).
   */
  static boolean comparedExactly(Object left, Object right) {
    return atStake(left, right)
        || (left instanceof Float || right instanceof Float)
            && left instanceof Number l
            && right instanceof Number r
            && finite(l)
            && finite(r);
  }

  /** Whether {@code left} and {@code right} are such a pair: a finite decimal and an integer. */
  static boolean atStake(Object left, Object right) {
    return beyond(left, right) || beyond(right, left);
  }

  private static boolean beyond(Object binary, Object exact) {
    long holds;
    if (binary instanceof Double d && Double.isFinite(d)) {
      holds = DOUBLE_HOLDS;
    } else if (binary instanceof Float f && Float.isFinite(f)) {
      holds = FLOAT_HOLDS;
    } else {
      return false;
    }
    if (exact instanceof Long || exact instanceof Integer) {
      long v = ((Number) exact).longValue();
      return v > holds || v < -holds;
    }
    return exact instanceof BigInteger big && big.abs().compareTo(BigInteger.valueOf(holds)) > 0;
  }

  /** {@code value} as an exact decimal when it is a double or a float; else as it is. */
  static Object exact(Object value) {
    if (value instanceof Double d) {
      return BigDecimal.valueOf(d);
    }
    if (value instanceof Float f) {
      return new BigDecimal(Float.toString(f));
    }
    return value;
  }

  /** The exact order of two numbers (any of Java's integers, decimals, doubles and floats). */
  static int compare(Number left, Number right) {
    return decimal(left).compareTo(decimal(right));
  }

  /**
   * Whether {@code converted} has the value of {@code original} ({@code 2.0} and {@code 2} do,
   * {@code 2.5} and {@code 2} do not, nor {@code 1e400} and the infinity a double makes of it). A
   * double or float that is no number (NaN, an infinity) matches only its own kind of non-number.
   */
  static boolean same(Number original, Number converted) {
    if (!finite(original) || !finite(converted)) {
      return !finite(original)
          && Double.compare(original.doubleValue(), converted.doubleValue()) == 0;
    }
    return compare(original, converted) == 0;
  }

  static boolean finite(Number n) {
    return !(n instanceof Double || n instanceof Float) || Double.isFinite(n.doubleValue());
  }

  /**
   * A finite number as an exact decimal, a double by the decimal it is written as, a float as the
   * double it widens to (as {@code ==} compares a float with a double): {@code 0.1f} is
   * 0.10000000149011612, not 0.1, so that {@code 0.1f == 0.1} is false and so is {@code
   * {0.1f}.contains(0.1)}, {@code {0.1: 'a'}[0.1f]} finds nothing, and distinctBy keeps both rows.
   * Before, lookups and keys took a float as {@link Float#toString}'s 0.1, and a row was merged
   * into another that {@code ==} calls different. (Arithmetic and literals keep {@link #exact}: the
   * decimal a float is written as.)
   */
  static BigDecimal decimal(Number n) {
    if (n instanceof Float f) {
      return BigDecimal.valueOf(f.doubleValue());
    }
    Object exact = exact(n);
    if (exact instanceof BigDecimal d) {
      return d;
    }
    if (exact instanceof BigInteger big) {
      return new BigDecimal(big);
    }
    return BigDecimal.valueOf(n.longValue()); // Long, Integer, Short, Byte
  }

  /**
   * Where SpEL's double arithmetic on an integer and a double (or float) rounded: the exact result
   * of {@code left op right} ({@code +}, {@code -}, {@code *}, {@code %}) when the double SpEL
   * computed, {@code spel}, is not that number, else null (SpEL's result stands, type and all).
   * Within 2^53 an integer converts to a double exactly, but the result may still need more digits
   * than a double holds: {@code item.n + 0.5} with {@code n: 9007199254740992} gave the integer
   * back, {@code 350224384 + 0.00000000000000001} too. A quotient stays SpEL's: most have no exact
   * decimal at all.
   */
  static BigDecimal roundedByDouble(char op, Object left, Object right, Object spel) {
    if ((op != '+' && op != '-' && op != '*' && op != '%')
        || !(spel instanceof Double || spel instanceof Float)
        || !finite((Number) spel)
        || !(integerBesideBinary(left, right) || integerBesideBinary(right, left))) {
      return null;
    }
    BigDecimal l = shortest((Number) left);
    BigDecimal r = shortest((Number) right);
    BigDecimal exact =
        switch (op) {
          case '+' -> l.add(r);
          case '-' -> l.subtract(r);
          case '*' -> l.multiply(r);
          default -> r.signum() == 0 ? null : l.remainder(r);
        };
    if (exact == null || decimal((Number) spel).compareTo(exact) == 0) {
      return null;
    }
    return exact;
  }

  /** Its decimal without the zero a double's text ends with ({@code 1.0E-17} is 1E-17). */
  private static BigDecimal shortest(Number n) {
    BigDecimal d = decimal(n);
    if (d.scale() <= 0) {
      return d;
    }
    BigDecimal stripped = d.stripTrailingZeros();
    return stripped.scale() < 0 ? stripped.setScale(0) : stripped;
  }

  private static boolean integerBesideBinary(Object integer, Object binary) {
    return (integer instanceof Integer
            || integer instanceof Long
            || integer instanceof Short
            || integer instanceof Byte
            || integer instanceof BigInteger)
        && (binary instanceof Double || binary instanceof Float)
        && finite((Number) binary);
  }
}
