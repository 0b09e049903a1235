package io.github.appsetmapper.expr;

import java.util.Map;
import org.springframework.expression.AccessException;
import org.springframework.expression.EvaluationContext;
import org.springframework.expression.TypedValue;
import org.springframework.expression.spel.support.MapAccessor;

/**
 * Read-only map access where a missing key reads as null, so {@code item.milestone?.title} and
 * {@code #default(item.x, 'y')} work on upstream JSON whose fields come and go.
 */
final class LenientMapAccessor extends MapAccessor {
  LenientMapAccessor() {
    super(false);
  }

  @Override
  public boolean canRead(EvaluationContext context, Object target, String name) {
    return target instanceof Map;
  }

  @Override
  public TypedValue read(EvaluationContext context, Object target, String name)
      throws AccessException {
    if (!(target instanceof Map<?, ?> map)) {
      throw new AccessException("not a map");
    }
    Object value = map.get(name);
    return value == null ? TypedValue.NULL : new TypedValue(value);
  }

  @Override
  public boolean canWrite(EvaluationContext context, Object target, String name) {
    return false;
  }
}
