package io.github.appsetmapper.expr;

import io.github.appsetmapper.text.Printable;
import java.math.BigDecimal;
import org.springframework.expression.EvaluationException;

/**
 * A number given for a method's or function's argument, or an index, keeps its value or the row
 * fails with one line naming the number and what the argument takes: {@code 'abcdef'.indexOf('c',
 * 4294967298L)} read from index 2 (the JDK's {@code intValue} wraps), {@code indexOf('c', 2.5)}
 * from 2, and {@code split('b', 4294967297L)} had a limit of 1. {@link CountingTypeConverter}
 * checks SpEL's conversions by these messages, {@link BoundedMethods} its own integer arguments.
 */
final class NumberArguments {
  private static final BigDecimal MIN_INT = BigDecimal.valueOf(Integer.MIN_VALUE);
  private static final BigDecimal MAX_INT = BigDecimal.valueOf(Integer.MAX_VALUE);

  private NumberArguments() {}

  /** {@code value} as an {@code int} argument, exactly: whole and within 32 bits, else an error. */
  static int toInt(Number value) {
    if (!MixedNumbers.finite(value)) {
      throw outOfRange(value, Integer.class);
    }
    BigDecimal exact = MixedNumbers.decimal(value);
    if (exact.compareTo(MIN_INT) < 0 || exact.compareTo(MAX_INT) > 0) {
      throw outOfRange(value, Integer.class);
    }
    int made = exact.intValue();
    if (exact.compareTo(BigDecimal.valueOf(made)) != 0) {
      throw changed(value, made);
    }
    return made;
  }

  /** {@code value} cannot be an argument of {@code type}: beyond its range or no number. */
  static EvaluationException outOfRange(Number value, Class<?> type) {
    String takes;
    if (type == Integer.class || type == int.class) {
      takes = "an integer from " + Integer.MIN_VALUE + " to " + Integer.MAX_VALUE;
    } else if (type == Long.class || type == long.class) {
      takes = "an integer from " + Long.MIN_VALUE + " to " + Long.MAX_VALUE;
    } else if (type == Short.class || type == short.class) {
      takes = "an integer from " + Short.MIN_VALUE + " to " + Short.MAX_VALUE;
    } else if (type == Byte.class || type == byte.class) {
      takes = "an integer from " + Byte.MIN_VALUE + " to " + Byte.MAX_VALUE;
    } else if (type == Double.class || type == double.class) {
      takes = "a double";
    } else if (type == Float.class || type == float.class) {
      takes = "a float";
    } else {
      takes = "a " + type.getSimpleName();
    }
    return new EvaluationException(
        "the number " + shown(value) + " cannot be an argument that takes " + takes);
  }

  /** {@code value} would change converting to the argument's kind of number ({@code made}). */
  static EvaluationException changed(Number value, Number made) {
    return new EvaluationException(
        "the number "
            + shown(value)
            + " cannot be an argument that takes "
            + (made instanceof Double || made instanceof Float ? "a double" : "an integer")
            + ": it would become "
            + shown(made));
  }

  /** A number as a message shows it: plain and cut short, or what a double holds (Infinity). */
  static String shown(Number n) {
    return MixedNumbers.finite(n) ? Printable.cut(Values.text(n), 40) : String.valueOf(n);
  }
}
