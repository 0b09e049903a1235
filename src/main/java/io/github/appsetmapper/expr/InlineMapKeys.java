package io.github.appsetmapper.expr;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.springframework.expression.EvaluationException;
import org.springframework.expression.TypedValue;
import org.springframework.expression.spel.ExpressionState;
import org.springframework.expression.spel.SpelNode;
import org.springframework.expression.spel.ast.InlineList;
import org.springframework.expression.spel.ast.InlineMap;
import org.springframework.expression.spel.ast.Literal;
import org.springframework.expression.spel.ast.OpMinus;
import org.springframework.expression.spel.ast.PropertyOrFieldReference;
import org.springframework.expression.spel.ast.SpelNodeImpl;
import org.springframework.expression.spel.support.SimpleEvaluationContext;

/**
 * The keys of an inline map ({@code {a: 1, 'b': 2}}) are one each: a parameter map's keys are text
 * ({@link Values#parameter}), so {@code {1: 'a', '1': 'c'}} would keep one of two values, and SpEL
 * itself keeps the last of {@code {a: 1, 'a': 2}}. Keys written as names, literals or negated
 * number literals ({@code -1}, {@code -(1)}, {@code (-1)}) are checked when the mapping loads
 * ({@link #repeated}), whether or not SpEL folds the map into a constant; a map with any other key,
 * each time it is built ({@link Checked}). A key is text, a number or a boolean: a list or a map
 * would become its Java text ({@code [1]}, {@code {a=1}}), so one written as such is refused at
 * load ({@link #shapeless}) and one computed, when the map is built.
 */
final class InlineMapKeys {
  private InlineMapKeys() {}

  /** The text of a key written as a name or a literal; null for any other key. */
  static String written(SpelNode key) {
    if (key instanceof PropertyOrFieldReference name) {
      return name.getName(); // SpEL takes {a: 1} as the text 'a', never a read
    }
    if (key instanceof Literal literal) {
      // The key the instrumented map has: 9007199254740993.0 is that decimal (ExactLiteral).
      Literal exact = ExactLiteral.of((SpelNodeImpl) key);
      return Values.key((exact != null ? exact : literal).getLiteralValue().getValue());
    }
    return null;
  }

  /**
   * The text of a key written as a name, a literal or a negated number literal ({@code -1}, which
   * SpEL still takes as a constant); null for a computed key. The negation is SpEL's own, so the
   * text is the one the answer would carry ({@code -0} is {@code 0}).
   */
  static String text(SpelNode key) {
    String written = written(key);
    if (written != null || !negatedNumber(key)) {
      return written;
    }
    ExactLiteral exact = ExactLiteral.of((SpelNodeImpl) key.getChild(0));
    if (exact != null) { // -9007199254740993.0, the negated decimal written
      return Values.key(((java.math.BigDecimal) exact.getLiteralValue().getValue()).negate());
    }
    try {
      return Values.key(
          ((SpelNodeImpl) key)
              .getValue(
                  new ExpressionState(SimpleEvaluationContext.forReadOnlyDataBinding().build())));
    } catch (EvaluationException e) {
      return null;
    }
  }

  private static boolean negatedNumber(SpelNode key) {
    return key instanceof OpMinus minus
        && minus.getChildCount() == 1
        && minus.getChild(0) instanceof Literal literal
        && literal.getLiteralValue().getValue() instanceof Number;
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

  /**
   * The first key written as a name or a (negated) literal that is there twice (as text), or null.
   */
  static String repeated(SpelNode map) {
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < map.getChildCount(); i += 2) {
      String key = text(map.getChild(i));
      if (key != null && !seen.add(key)) {
        return key;
      }
    }
    return null;
  }

  /** The first key of {@code map} written as an inline list or map, or null. */
  static SpelNode shapeless(SpelNode map) {
    for (int i = 0; i < map.getChildCount(); i += 2) {
      if (map.getChild(i) instanceof InlineList || map.getChild(i) instanceof InlineMap) {
        return map.getChild(i);
      }
    }
    return null;
  }

  /** What a key is: text, a number or a boolean. */
  static final String KEY_KINDS = "an inline map's key must be text, a number or a boolean";

  /** The message for a key written as a list or a map, at load. */
  static String shapeless(SpelNode key, String source) {
    return "the inline map " + source + " has the key " + key.toStringAST() + ": " + KEY_KINDS;
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
  static final class Checked extends ValueNode.Around {
    private final int keys;

    Checked(SpelNodeImpl map) {
      super(map);
      this.keys = map.getChildCount() / 2;
    }

    @Override
    public TypedValue getValueInternal(ExpressionState state) throws EvaluationException {
      TypedValue value = children[0].getValueInternal(state);
      if (value.getValue() instanceof Map<?, ?> map && !textual(map)) {
        throw new EvaluationException(
            "the inline map " + toStringAST() + " has a list or a map as a key: " + KEY_KINDS);
      }
      if (value.getValue() instanceof Map<?, ?> map && !unique(map)) {
        // The key itself is not named: a computed key may hold what the answer must not show.
        throw new EvaluationException(
            "the inline map " + toStringAST() + " has two keys that are the same text");
      }
      return value;
    }

    private static boolean textual(Map<?, ?> map) {
      for (Object key : map.keySet()) {
        if (key instanceof Map<?, ?>
            || key instanceof Iterable<?>
            || key != null && key.getClass().isArray()) {
          return false;
        }
      }
      return true;
    }

    private boolean unique(Map<?, ?> map) {
      if (map.size() < keys) {
        return false; // SpEL's own map kept one of two equal keys
      }
      Set<String> texts = new HashSet<>();
      EvaluationBudget budget = EvaluationBudget.current();
      for (Object key : map.keySet()) {
        budget.before(key, null);
        if (!texts.add(Values.key(key))) {
          return false;
        }
      }
      return true;
    }
  }
}
