package io.github.appsetmapper.expr;

import java.util.Map;
import org.springframework.expression.AccessException;
import org.springframework.expression.EvaluationContext;
import org.springframework.expression.PropertyAccessor;
import org.springframework.expression.TypedValue;

/**
 * {@code key} and {@code value} of a map entry, read-only: a projection or selection over a map
 * ({@code item.env.![key]}) walks its entries. An entry reads as the object {@code {key, value}}:
 * any other name is null, as a missing key of a map is, never an error at run time.
 */
final class MapEntryAccessor implements PropertyAccessor {
  @Override
  public Class<?>[] getSpecificTargetClasses() {
    return new Class<?>[] {Map.Entry.class};
  }

  @Override
  public boolean canRead(EvaluationContext context, Object target, String name) {
    return target instanceof Map.Entry;
  }

  @Override
  public TypedValue read(EvaluationContext context, Object target, String name)
      throws AccessException {
    if (!(target instanceof Map.Entry<?, ?> entry)) {
      throw new AccessException("not a map entry");
    }
    Object value =
        switch (name) {
          case "key" -> entry.getKey();
          case "value" -> entry.getValue();
          default -> null;
        };
    return value == null ? TypedValue.NULL : new TypedValue(value);
  }

  @Override
  public boolean canWrite(EvaluationContext context, Object target, String name) {
    return false;
  }

  @Override
  public void write(EvaluationContext context, Object target, String name, Object newValue)
      throws AccessException {
    throw new AccessException("read-only");
  }
}
