package io.github.appsetmapper.expr;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import org.springframework.expression.EvaluationException;

/**
 * The bounds of big integers and exact decimals in arithmetic, checked on every operand before an
 * operator computes and on every result: at most {@value #MAX_DIGITS} digits (the bound {@link
 * EvaluationBudget} already puts on what {@code +} and {@code *} build) and a scale within
 * &plusmn;{@value #MAX_SCALE}. A JSON number (1,000 digits, exponent &plusmn;1,000) is far inside
 * them, and SpEL's bit cap on powers stays. The scale is the one that matters: {@code 1e1000 ^
 * 100000} is the digit 1 with scale -100,000,000, and {@code + 1} then lines the two up in a
 * hundred-million-digit number (an outside tester's find: the IO thread spun past the deadline).
 *
 * <p>{@code ^} on a big integer or an exact decimal needs a whole exponent that fits an {@code int}
 * and is not negative (SpEL passed {@code intValue()}, which cut {@code 4294967298L} to 2 and
 * {@code 0.5} to 0), and its size is checked from the operands before it is computed. {@code /}
 * with an exact decimal is exact when the quotient ends, else 34 significant digits ({@link
 * MathContext#DECIMAL128}); SpEL rounded it to the operands' larger scale ({@code 0.1 / 3} was
 * {@code 0.0}).
 */
final class Decimals {
  static final int MAX_DIGITS = EvaluationBudget.MAX_NUMBER_DIGITS;
  static final int MAX_SCALE = io.github.appsetmapper.json.Numbers.MAX_PLAIN_SCALE;

  /** Bits a number of {@link #MAX_DIGITS} digits has at least: a power past it is never made. */
  private static final long MAX_BITS = (long) (MAX_DIGITS * 3.3219);

  private Decimals() {}

  /** Refuses an operand out of bounds, and a power whose exponent or size is out of bounds. */
  static void operands(char op, String what, Object left, Object right) {
    if (!within(left) || !within(right)) {
      throw new EvaluationException(what + " has an operand " + bounds());
    }
    if (op == '^' && big(left, right)) {
      power(what, left, exponent(what, right));
    }
  }

  /** {@code result}, when it is within the bounds. */
  static Object result(String what, Object result) {
    if (!within(result)) {
      throw new EvaluationException(what + " gives a number " + bounds());
    }
    return result;
  }

  /**
   * {@code left / right} when either is an exact decimal and the other a finite number: the exact
   * quotient, or 34 significant digits when it does not end; {@code null} for SpEL's own (a zero
   * divisor keeps SpEL's error).
   */
  static BigDecimal divide(Object left, Object right) {
    if (!(left instanceof BigDecimal || right instanceof BigDecimal)) {
      return null;
    }
    BigDecimal l = decimal(left);
    BigDecimal r = decimal(right);
    if (l == null || r == null || r.signum() == 0) {
      return null;
    }
    try {
      return l.divide(r);
    } catch (ArithmeticException endless) {
      return l.divide(r, MathContext.DECIMAL128);
    }
  }

  /**
   * {@code left ^ right} for an integer base ({@code int} or {@code long}) and a big integer or
   * exact decimal exponent ({@link #operands} checked it is whole and the power in bounds): exact,
   * a big integer or a decimal as the exponent is. {@code null} for SpEL's own, which made both
   * doubles and cut the result to a long ({@code 3 ^ 40} was the largest long).
   */
  static Number integerPower(Object left, Object right) {
    if (!(left instanceof Integer
            || left instanceof Long
            || left instanceof Short
            || left instanceof Byte)
        || !(right instanceof BigInteger || right instanceof BigDecimal)) {
      return null;
    }
    int n =
        ((Number) right) instanceof BigInteger i
            ? i.intValueExact()
            : ((BigDecimal) right).intValueExact();
    long base = ((Number) left).longValue();
    return right instanceof BigInteger
        ? BigInteger.valueOf(base).pow(n)
        : BigDecimal.valueOf(base).pow(n);
  }

  private static BigDecimal decimal(Object value) {
    if (value instanceof BigDecimal d) {
      return d;
    }
    if (value instanceof BigInteger i) {
      return new BigDecimal(i);
    }
    if (value instanceof Integer
        || value instanceof Long
        || value instanceof Short
        || value instanceof Byte) {
      return BigDecimal.valueOf(((Number) value).longValue());
    }
    if ((value instanceof Double || value instanceof Float)
        && Double.isFinite(((Number) value).doubleValue())) {
      return new BigDecimal(value.toString()); // as SpEL converts it
    }
    return null;
  }

  /** Whether either is a big integer or an exact decimal. */
  static boolean big(Object left, Object right) {
    return left instanceof BigDecimal
        || left instanceof BigInteger
        || right instanceof BigDecimal
        || right instanceof BigInteger;
  }

  /** The exponent as an {@code int} from 0 up, or the error: never a part of it. */
  private static int exponent(String what, Object right) {
    BigDecimal exponent = right instanceof Number ? decimal(right) : null;
    if (exponent != null && exponent.signum() >= 0) {
      try {
        return exponent.intValueExact();
      } catch (ArithmeticException notAnInt) {
        // below
      }
    }
    throw new EvaluationException(
        what
            + " needs a whole exponent from 0 to "
            + Integer.MAX_VALUE
            + " for a big integer or an exact decimal");
  }

  /** Refuses {@code left ^ n} before it is computed when its scale or size is out of bounds. */
  private static void power(String what, Object left, int n) {
    BigDecimal base = decimal(left);
    if (base == null || n <= 1) {
      return; // not a number: SpEL's own error
    }
    long scale = (long) base.scale() * n;
    long bits = (long) (base.unscaledValue().abs().bitLength() - 1) * n;
    if (Math.abs(scale) > MAX_SCALE || bits > MAX_BITS + 8) { // 2^(MAX_BITS + 8) > 10^MAX_DIGITS
      throw new EvaluationException(what + " gives a number " + bounds());
    }
  }

  /** Whether {@code value} is no big integer or exact decimal, or one within the bounds. */
  static boolean within(Object value) {
    if (value instanceof BigInteger big) {
      return big.bitLength() <= MAX_BITS || digits(big) <= MAX_DIGITS;
    }
    if (value instanceof BigDecimal decimal) {
      return Math.abs((long) decimal.scale()) <= MAX_SCALE
          && (decimal.unscaledValue().bitLength() <= MAX_BITS
              || digits(decimal.unscaledValue()) <= MAX_DIGITS);
    }
    return true;
  }

  /** Digits of {@code big}, read only when its bit length is near the bound. */
  private static long digits(BigInteger big) {
    return big.bitLength() > MAX_BITS + 8 ? Long.MAX_VALUE : new BigDecimal(big).precision();
  }

  private static String bounds() {
    return "beyond " + MAX_DIGITS + " digits or a scale beyond \u00b1" + MAX_SCALE;
  }
}
