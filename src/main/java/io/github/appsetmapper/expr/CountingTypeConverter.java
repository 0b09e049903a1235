package io.github.appsetmapper.expr;

import java.util.Collection;
import java.util.Map;
import org.springframework.core.convert.TypeDescriptor;
import org.springframework.expression.TypeConverter;
import org.springframework.expression.spel.support.StandardTypeConverter;

/**
 * SpEL's standard conversions, with a list or map made into text ({@code 'x' + input.list}, which
 * the conversion service joins) counted against the evaluation's budget before the text is built,
 * and the deadline checked before a costly value (a big number, a long text) is converted.
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
    return standard.convertValue(value, sourceType, targetType);
  }
}
