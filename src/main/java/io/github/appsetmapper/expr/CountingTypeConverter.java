package io.github.appsetmapper.expr;

import io.github.appsetmapper.text.Printable;
import java.util.Collection;
import java.util.Map;
import org.springframework.core.convert.TypeDescriptor;
import org.springframework.expression.EvaluationException;
import org.springframework.expression.TypeConverter;
import org.springframework.expression.spel.support.StandardTypeConverter;

/**
 * SpEL's standard conversions, with a list or map made into text ({@code 'x' + input.list}, which
 * the conversion service joins) counted against the evaluation's budget before the text is built,
 * the deadline checked before a costly value (a big number, a long text) is converted, and a number
 * made into another kind of number (a method's or function's argument, an index) only when it keeps
 * its value: {@code (9007199254740992.0).compareTo(9007199254740993)} compared two equal doubles,
 * {@code 2.compareTo(2.5)} two 2s, {@code 'abc'.charAt(1.5)} read index 1.
 */
final class CountingTypeConverter implements TypeConverter {
  private final StandardTypeConverter standard = new StandardTypeConverter();

  @Override
  public boolean canConvert(TypeDescriptor sourceType, TypeDescriptor targetType) {
    return standard.canConvert(sourceType, targetType);
  }

  @Override
  public Object convertValue(Object value, TypeDescriptor sourceType, TypeDescriptor targetType) {
    // A number of 10,000 digits takes milliseconds to write as text ('' + n, a function's text).
    EvaluationBudget.current().before(value, null);
    if (targetType != null
        && targetType.getType() == String.class
        && (value instanceof Collection || value instanceof Map || value instanceof Object[])) {
      EvaluationBudget.current().charge(value, "converting a list or map to text");
    }
    Object converted = standard.convertValue(value, sourceType, targetType);
    if (value instanceof Number number
        && converted instanceof Number made
        && converted.getClass() != value.getClass()
        && !MixedNumbers.same(number, made)) {
      throw new EvaluationException(
          "the number "
              + shown(number)
              + " cannot be an argument that takes "
              + (made instanceof Double || made instanceof Float ? "a double" : "an integer")
              + ": it would become "
              + shown(made));
    }
    return converted;
  }

  /** A number as a message shows it: plain and cut short, or what a double holds (Infinity). */
  private static String shown(Number n) {
    return MixedNumbers.finite(n) ? Printable.cut(Values.text(n), 40) : String.valueOf(n);
  }
}
