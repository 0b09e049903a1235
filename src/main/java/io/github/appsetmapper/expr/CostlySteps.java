package io.github.appsetmapper.expr;

import org.springframework.expression.EvaluationException;
import org.springframework.expression.TypedValue;
import org.springframework.expression.spel.ExpressionState;
import org.springframework.expression.spel.ast.FunctionReference;
import org.springframework.expression.spel.ast.SpelNodeImpl;

/**
 * The node {@link BuildCounting} puts around a function call, a step that may be costly with no
 * node of ours around it (a function may read a text of a megabyte), so that it checks the deadline
 * before it runs. Arithmetic checks in {@link CheckedOperator}, comparisons in {@link
 * CheckedComparison}, method calls in {@link AllowlistMethodResolver} and {@link BoundedMethods};
 * every other step is cheap, and SpEL's count of operations ticks the deadline for it ({@link
 * OperationTicks}). Never compiled.
 */
final class CostlySteps {
  private CostlySteps() {}

  /** {@code node} as a checked step, or null when it is no function call. */
  static SpelNodeImpl checked(SpelNodeImpl node, SpelNodeImpl[] children) {
    return node instanceof FunctionReference ? new Call(node) : null;
  }

  /** A function call, after the deadline is checked (its arguments check their own steps). */
  static final class Call extends ValueNode.Around {
    Call(SpelNodeImpl function) {
      super(function);
    }

    @Override
    public TypedValue getValueInternal(ExpressionState state) throws EvaluationException {
      EvaluationBudget.current().checkDeadline();
      return children[0].getValueInternal(state);
    }
  }
}
