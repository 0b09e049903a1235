package io.github.appsetmapper.expr;

import java.util.List;
import org.springframework.expression.EvaluationException;
import org.springframework.expression.TypeComparator;
import org.springframework.expression.TypedValue;
import org.springframework.expression.spel.ExpressionState;
import org.springframework.expression.spel.ast.OpEQ;
import org.springframework.expression.spel.ast.OpGE;
import org.springframework.expression.spel.ast.OpGT;
import org.springframework.expression.spel.ast.OpLE;
import org.springframework.expression.spel.ast.OpLT;
import org.springframework.expression.spel.ast.OpNE;
import org.springframework.expression.spel.ast.Operator;
import org.springframework.expression.spel.ast.OperatorBetween;
import org.springframework.expression.spel.ast.SpelNodeImpl;
import org.springframework.expression.spel.support.BooleanTypedValue;

/**
 * A comparison ({@code == != < <= > >= between}) that is exact where SpEL's is not: a double beside
 * an integer it cannot hold ({@link MixedNumbers}) is compared as exact decimals, where SpEL made
 * both doubles ({@code 9007199254740993 == 9007199254740992.0} was true, and a filter kept or
 * dropped the wrong row). Every other pair goes to SpEL's own operator ({@code spel}, over {@link
 * CheckedOperator.Slot}s that hand it the values already evaluated). The deadline is checked before
 * a costly pair is compared (a rescale to line up two scales multiplies a 10,000-digit number; long
 * texts, large lists). {@link BuildCounting} puts this node in the tree in place of SpEL's; never
 * compiled.
 */
final class CheckedComparison extends ValueNode {
  private final Operator spel;
  private final String symbol;

  private CheckedComparison(Operator spel, String symbol, SpelNodeImpl... operands) {
    super(spel.getStartPosition(), spel.getEndPosition(), operands);
    this.spel = spel;
    this.symbol = symbol;
  }

  /** {@code node} made exact over {@code operands}, or null when it is no comparison. */
  static CheckedComparison of(SpelNodeImpl node, SpelNodeImpl[] operands) {
    String symbol = symbol(node);
    if (symbol == null || operands.length != 2) {
      return null;
    }
    int start = node.getStartPosition();
    int end = node.getEndPosition();
    SpelNodeImpl[] slots = CheckedOperator.slots(2, start, end);
    Operator spel =
        switch (symbol) {
          case "==" -> new OpEQ(start, end, slots);
          case "!=" -> new OpNE(start, end, slots);
          case "<" -> new OpLT(start, end, slots);
          case "<=" -> new OpLE(start, end, slots);
          case ">" -> new OpGT(start, end, slots);
          case ">=" -> new OpGE(start, end, slots);
          default -> new OperatorBetween(start, end, slots);
        };
    return new CheckedComparison(spel, symbol, operands);
  }

  private static String symbol(SpelNodeImpl node) {
    Class<?> type = node.getClass();
    if (type == OpEQ.class) {
      return "==";
    } else if (type == OpNE.class) {
      return "!=";
    } else if (type == OpLT.class) {
      return "<";
    } else if (type == OpLE.class) {
      return "<=";
    } else if (type == OpGT.class) {
      return ">";
    } else if (type == OpGE.class) {
      return ">=";
    }
    return type == OperatorBetween.class ? "between" : null;
  }

  @Override
  public TypedValue getValueInternal(ExpressionState state) throws EvaluationException {
    TypedValue left = children[0].getValueInternal(state);
    TypedValue right = children[1].getValueInternal(state);
    Object r = right.getValue();
    EvaluationBudget budget = EvaluationBudget.current();
    budget.before(left.getValue(), r);
    if (r instanceof List<?> bounds && bounds.size() == 2) {
      budget.before(bounds.get(0), bounds.get(1)); // between's bounds
    }
    Boolean exact = exact(state, left.getValue(), r);
    if (exact == null) {
      return CheckedOperator.over(spel, state, left, right);
    }
    state.trackOperation(); // as SpEL's comparison counts itself against the bound of operations
    return BooleanTypedValue.forValue(exact);
  }

  /**
   * The answer for a pair {@link MixedNumbers} computes, or two lists or maps {@link Equality}
   * compares; null for SpEL's own.
   */
  private Boolean exact(ExpressionState state, Object left, Object right) {
    if (symbol.equals("between")) {
      if (left instanceof Number value
          && right instanceof List<?> range
          && range.size() == 2
          && range.get(0) instanceof Number low
          && range.get(1) instanceof Number high
          && (MixedNumbers.comparedExactly(value, low)
              || MixedNumbers.comparedExactly(value, high))) {
        TypeComparator spelOrder = state.getTypeComparator();
        int fromLow =
            MixedNumbers.comparedExactly(value, low)
                ? MixedNumbers.compare(value, low)
                : spelOrder.compare(value, low);
        int toHigh =
            MixedNumbers.comparedExactly(value, high)
                ? MixedNumbers.compare(value, high)
                : spelOrder.compare(value, high);
        return fromLow >= 0 && toHigh <= 0;
      }
      return null;
    }
    if ((symbol.equals("==") || symbol.equals("!=")) && Equality.structured(left, right)) {
      // Two lists or two maps: equal element by element as == says ({1} == {1.0}), not by equals.
      return Equality.same(left, right) == symbol.equals("==");
    }
    if (!(left instanceof Number l
        && right instanceof Number r
        && MixedNumbers.comparedExactly(l, r))) {
      return null;
    }
    int order = MixedNumbers.compare(l, r);
    return switch (symbol) {
      case "==" -> order == 0;
      case "!=" -> order != 0;
      case "<" -> order < 0;
      case "<=" -> order <= 0;
      case ">" -> order > 0;
      default -> order >= 0;
    };
  }

  @Override
  public String toStringAST() {
    return "(" + children[0].toStringAST() + " " + symbol + " " + children[1].toStringAST() + ")";
  }
}
