package io.github.appsetmapper.expr;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.expression.EvaluationException;
import org.springframework.expression.TypedValue;
import org.springframework.expression.spel.ExpressionState;
import org.springframework.expression.spel.ast.SpelNodeImpl;

/**
 * A number as a map's key in its one form ({@link Equality#canonical}): an inline map holds its
 * number keys so, and an index or a key looked up is made so, so that {@code {1: 'a'}[1.0]} and
 * {@code {1: 'a'}[item.n]} with {@code n: 1.0} from JSON find 'a' as {@code 1 == 1.0} says (Java's
 * {@code equals} found nothing: a null). A map from JSON has text keys, unchanged. {@link
 * BuildCounting} puts these nodes in the tree; never compiled.
 */
final class CanonicalKeys {
  private CanonicalKeys() {}

  /** An inline map with its number keys canonical; the same map when they already are. */
  static final class InlineMap extends ValueNode.Around {
    private final boolean constant;
    private volatile TypedValue made;

    InlineMap(SpelNodeImpl map, boolean constant) {
      super(map);
      this.constant = constant;
    }

    @Override
    public TypedValue getValueInternal(ExpressionState state) throws EvaluationException {
      TypedValue cached = made;
      if (cached != null) {
        return cached;
      }
      TypedValue value = children[0].getValueInternal(state);
      if (value.getValue() instanceof Map<?, ?> map && !canonical(map)) {
        Map<Object, Object> keyed = new LinkedHashMap<>();
        map.forEach((k, v) -> keyed.put(Equality.canonical(k), v));
        value = new TypedValue(Collections.unmodifiableMap(keyed));
      }
      if (constant) {
        made = value; // a constant map is built once, as SpEL builds it once
      }
      return value;
    }

    private static boolean canonical(Map<?, ?> map) {
      for (Object key : map.keySet()) {
        if (key instanceof Number n && Equality.canonical(n) != n) {
          return false;
        }
      }
      return true;
    }
  }

  /** An index ({@code map[key]}, {@code list[i]}): a number in its canonical form. */
  static final class Index extends ValueNode.Around {
    Index(SpelNodeImpl index) {
      super(index);
    }

    @Override
    public TypedValue getValueInternal(ExpressionState state) throws EvaluationException {
      TypedValue value = children[0].getValueInternal(state);
      Object index = value.getValue();
      if (index instanceof Number) {
        Object canonical = Equality.canonical(index);
        return canonical == index ? value : new TypedValue(canonical);
      }
      return value;
    }
  }
}
