package io.github.appsetmapper.expr;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.springframework.expression.EvaluationException;
import org.springframework.expression.TypedValue;
import org.springframework.expression.spel.ExpressionState;
import org.springframework.expression.spel.SpelNode;
import org.springframework.expression.spel.ast.Literal;
import org.springframework.expression.spel.ast.PropertyOrFieldReference;
import org.springframework.expression.spel.ast.SpelNodeImpl;
import org.springframework.expression.spel.ast.ValueRef;

/**
 * The keys of an inline map ({@code {a: 1, 'b': 2}}) are one each: a parameter map's keys are text
 * ({@link Values#parameter}), so {@code {1: 'a', '1': 'c'}} would keep one of two values, and SpEL
 * itself keeps the last of {@code {a: 1, 'a': 2}}. Keys written as names or literals are checked
 * when the mapping loads ({@link #repeated}); a map with a computed key, each time it is built
 * ({@link Checked}).
 */
final class InlineMapKeys {
  private InlineMapKeys() {}

  /** The text of a key written as a name or a literal; null for a computed key. */
  static String written(SpelNode key) {
    if (key instanceof PropertyOrFieldReference name) {
      return name.getName(); // SpEL takes {a: 1} as the text 'a', never a read
    }
    if (key instanceof Literal literal) {
      return String.valueOf(literal.getLiteralValue().getValue());
    }
    return null;
  }

  /** Whether every key of {@code map} is written as a name or a literal. */
  static boolean allWritten(SpelNode map) {
    for (int i = 0; i < map.getChildCount(); i += 2) {
      if (written(map.getChild(i)) == null) {
        return false;
      }
    }
    return true;
  }

  /** The first written key that is there twice (as text), or null. */
  static String repeated(SpelNode map) {
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < map.getChildCount(); i += 2) {
      String key = written(map.getChild(i));
      if (key != null && !seen.add(key)) {
        return key;
      }
    }
    return null;
  }

  /** The message for a key written twice, at load. */
  static String twice(String key, String source) {
    return "the inline map "
        + source
        + " has the key '"
        + key
        + "' twice (keys are text: 1 and '1' are one key)";
  }

  /** An inline map with a computed key, refused when two keys are one text. */
  static final class Checked extends SpelNodeImpl {
    private final int keys;

    Checked(SpelNodeImpl map) {
      super(map.getStartPosition(), map.getEndPosition(), map);
      this.keys = map.getChildCount() / 2;
    }

    @Override
    public TypedValue getValueInternal(ExpressionState state) throws EvaluationException {
      TypedValue value = children[0].getValueInternal(state);
      if (value.getValue() instanceof Map<?, ?> map && !unique(map)) {
        // The key itself is not named: a computed key may hold what the answer must not show.
        throw new EvaluationException(
            "the inline map " + toStringAST() + " has two keys that are the same text");
      }
      return value;
    }

    private boolean unique(Map<?, ?> map) {
      if (map.size() < keys) {
        return false; // SpEL's own map kept one of two equal keys
      }
      Set<String> texts = new HashSet<>();
      for (Object key : map.keySet()) {
        if (!texts.add(String.valueOf(key))) {
          return false;
        }
      }
      return true;
    }

    @Override
    protected ValueRef getValueRef(ExpressionState state) throws EvaluationException {
      return new ValueRef.TypedValueHolderValueRef(getValueInternal(state), this);
    }

    @Override
    public String toStringAST() {
      return children[0].toStringAST();
    }
  }
}
