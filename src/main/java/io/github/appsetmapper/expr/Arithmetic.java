package io.github.appsetmapper.expr;

import java.math.BigInteger;
import org.springframework.expression.EvaluationException;

/**
 * Integer arithmetic as SpEL types it (an {@code int} when both operands are {@code int}, a {@code
 * long} when either is a {@code long}), but exact: a result beyond the type is an evaluation error,
 * never the wrapped-around number Java gives ({@code 2147483647 + 1} is not {@code -2147483648}).
 * And a decimal result must be finite: JSON has no NaN or Infinity. {@link CheckedOperator} calls
 * it with the operands SpEL evaluated; anything that is not two integers goes to SpEL's own
 * operator.
 */
final class Arithmetic {
  /** A result that is not a number this class computes: SpEL's operator computes it. */
  static final Object SPEL = new Object();

  private Arithmetic() {}

  /** Integer, Short or Byte: what SpEL computes as an {@code int}. */
  private static boolean intLike(Object value) {
    return value instanceof Integer || value instanceof Short || value instanceof Byte;
  }

  /** {@code left op right} exactly, or {@link #SPEL} when they are not both int or long. */
  static Object binary(char op, Object left, Object right) {
    if (!(intLike(left) || left instanceof Long) || !(intLike(right) || right instanceof Long)) {
      return SPEL;
    }
    boolean longs = left instanceof Long || right instanceof Long;
    long l = ((Number) left).longValue();
    long r = ((Number) right).longValue();
    if (op == '^') {
      return power(l, r, longs);
    }
    return longs ? (Object) longs(op, l, r) : (Object) ints(op, (int) l, (int) r);
  }

  private static long longs(char op, long l, long r) {
    try {
      return switch (op) {
        case '+' -> Math.addExact(l, r);
        case '-' -> Math.subtractExact(l, r);
        case '*' -> Math.multiplyExact(l, r);
        case '/' -> r == -1 ? Math.negateExact(l) : l / r; // Long.MIN_VALUE / -1 overflows
        case '%' -> l % r;
        default -> throw new IllegalStateException("operator " + op);
      };
    } catch (ArithmeticException e) {
      throw r == 0 && (op == '/' || op == '%') ? e : overflow(op, e, "a 64-bit integer");
    }
  }

  private static int ints(char op, int l, int r) {
    try {
      return switch (op) {
        case '+' -> Math.addExact(l, r);
        case '-' -> Math.subtractExact(l, r);
        case '*' -> Math.multiplyExact(l, r);
        case '/' -> r == -1 ? Math.negateExact(l) : l / r; // Integer.MIN_VALUE / -1 overflows
        case '%' -> l % r;
        default -> throw new IllegalStateException("operator " + op);
      };
    } catch (ArithmeticException e) {
      throw r == 0 && (op == '/' || op == '%') ? e : overflow(op, e, "a 32-bit integer");
    }
  }

  /**
   * {@code l ^ r} exactly for a non-negative exponent: an {@code int} when both are and it fits,
   * else a {@code long} (as SpEL widens), else an error. A negative exponent is refused: its result
   * is no integer, and SpEL's was wrong ({@code 2 ^ -1} was 0, {@code 0 ^ -1} the largest long).
   */
  private static Object power(long l, long r, boolean longs) {
    if (r < 0) {
      throw new EvaluationException(
          "the operator '^' refuses a negative exponent on an integer: the result is no integer"
              + " (write a decimal base, such as 2.0 ^ -1)");
    }
    BigInteger exact;
    if (l == 0 || l == 1) {
      exact = BigInteger.valueOf(r == 0 ? 1 : l);
    } else if (l == -1) {
      exact = BigInteger.valueOf(r % 2 == 0 ? 1 : -1);
    } else if (r > 63) {
      exact = null; // |l| >= 2 at least doubles per step: past 63 nothing fits, never computed
    } else {
      exact = BigInteger.valueOf(l).pow((int) r);
    }
    if (exact == null || exact.bitLength() > 63) {
      throw overflow('^', null, "a 64-bit integer");
    }
    long value = exact.longValue();
    return !longs && value == (int) value ? (Object) (int) value : (Object) value;
  }

  /** {@code -value} exactly, or {@link #SPEL} when it is not an integer. */
  static Object negate(Object value) {
    try {
      if (value instanceof Integer i) {
        return Math.negateExact(i);
      }
      if (value instanceof Long l) {
        return Math.negateExact(l);
      }
    } catch (ArithmeticException e) {
      throw overflow('-', e, value instanceof Integer ? "a 32-bit integer" : "a 64-bit integer");
    }
    if ((value instanceof Short s && s == Short.MIN_VALUE)
        || (value instanceof Byte b && b == Byte.MIN_VALUE)) {
      throw overflow('-', null, "its type");
    }
    return SPEL;
  }

  /** Whether {@code name} is a number method that converts: {@link #converted} checks it. */
  static boolean converts(String name) {
    return name.equals("intValue") || name.equals("longValue") || name.equals("doubleValue");
  }

  /**
   * Refuses {@code number.name()} when the JDK's answer is not the number: an integer part beyond
   * {@code intValue}'s 32 or {@code longValue}'s 64 bits (the JDK wraps or clamps it), a NaN, or a
   * {@code doubleValue} beyond a double's range. Dropping a fraction is what they are for.
   */
  static void converted(String name, Number number) {
    if (name.equals("doubleValue")) {
      finite("the method 'doubleValue'", number.doubleValue());
      return;
    }
    int bits = name.equals("intValue") ? 32 : 64;
    boolean fits;
    if (number instanceof Integer || number instanceof Short || number instanceof Byte) {
      fits = true;
    } else if (number instanceof Long l) {
      fits = bits == 64 || l == (int) (long) l;
    } else if (number instanceof BigInteger big) {
      fits = big.bitLength() < bits;
    } else if (number instanceof java.math.BigDecimal decimal) {
      fits = decimal.abs().compareTo(LIMIT) < 0 && decimal.toBigInteger().bitLength() < bits;
    } else {
      double d = number.doubleValue();
      fits = Double.isFinite(d) && Math.abs(d) < (bits == 32 ? 0x1p31 : 0x1p63);
      fits |= bits == 32 ? d > -0x1p31 - 1 && d <= -0x1p31 : d == -0x1p63;
    }
    if (!fits) {
      throw new EvaluationException(
          "the method '" + name + "' overflows: the value does not fit a " + bits + "-bit integer");
    }
  }

  /** Beyond it no decimal's integer part fits 64 bits: never turned into a (huge) BigInteger. */
  private static final java.math.BigDecimal LIMIT = java.math.BigDecimal.TEN.pow(20);

  /** {@code value} when it is not a NaN or infinite decimal; else the error saying so. */
  static Object finite(String what, Object value) {
    if ((value instanceof Double d && !Double.isFinite(d))
        || (value instanceof Float f && !Float.isFinite(f))) {
      throw notFinite(what, value);
    }
    return value;
  }

  /** The one error for a NaN or an infinity, wherever it would leave an expression. */
  static EvaluationException notFinite(String what, Object value) {
    return new EvaluationException(
        what + " gives " + value + ", which is not a number JSON can hold");
  }

  private static EvaluationException overflow(char op, ArithmeticException cause, String type) {
    return new EvaluationException(
        "the operator '" + op + "' overflows: the result does not fit " + type, cause);
  }
}
