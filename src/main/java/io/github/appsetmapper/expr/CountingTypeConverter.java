package io.github.appsetmapper.expr;

import java.util.Collection;
import java.util.Map;
import org.springframework.core.convert.TypeDescriptor;
import org.springframework.expression.TypeConverter;
import org.springframework.expression.spel.SpelEvaluationException;
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
    if (targetType != null
        && targetType.getType() == String.class
        && value instanceof Number number
        && MixedNumbers.finite(number)) {
      return Values.text(number); // plain, as a template writes it: 100, never 1E+2
    }
    Object converted;
    try {
      converted = standard.convertValue(value, sourceType, targetType);
    } catch (SpelEvaluationException e) {
      if (value instanceof Number number
          && targetType != null
          && Number.class.isAssignableFrom(targetType.getObjectType())) {
        // 4294967298L for an int: "Type conversion problem, cannot convert from number to number".
        throw NumberArguments.outOfRange(number, targetType.getObjectType());
      }
      throw e;
    }
    if (value instanceof Number number
        && converted instanceof Number made
        && converted.getClass() != value.getClass()
        && !MixedNumbers.same(number, made)) {
      throw NumberArguments.changed(number, made);
    }
    return converted;
  }
}
