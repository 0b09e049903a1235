package io.github.appsetmapper.expr;

import java.util.List;
import org.springframework.expression.EvaluationException;
import org.springframework.expression.TypedValue;
import org.springframework.expression.spel.ExpressionState;
import org.springframework.expression.spel.ast.FunctionReference;
import org.springframework.expression.spel.ast.OpEQ;
import org.springframework.expression.spel.ast.OpGE;
import org.springframework.expression.spel.ast.OpGT;
import org.springframework.expression.spel.ast.OpLE;
import org.springframework.expression.spel.ast.OpLT;
import org.springframework.expression.spel.ast.OpNE;
import org.springframework.expression.spel.ast.OperatorBetween;
import org.springframework.expression.spel.ast.SpelNodeImpl;
import org.springframework.expression.spel.ast.ValueRef;

/**
 * The nodes {@link BuildCounting} puts in place of SpEL's steps that may be costly with no node of
 * ours around them, so that each checks the deadline before it runs: a comparison ({@code < > <= >=
 * == != between}) of big numbers (a rescale to line up two scales multiplies a 10,000-digit
 * number), of long texts or of large lists, and a function call (a function may read a text of a
 * megabyte). Arithmetic checks in {@link CheckedOperator}, method calls in {@link
 * AllowlistMethodResolver} and {@link BoundedMethods}; every other step is cheap, and SpEL's count
 * of operations ticks the deadline for it ({@link OperationTicks}). Never compiled.
 */
final class CostlySteps {
  private CostlySteps() {}

  /** {@code node} as a checked step, or null when it is none of those. */
  static SpelNodeImpl checked(SpelNodeImpl node, SpelNodeImpl[] children) {
    if (node instanceof FunctionReference) {
      return new Call(node);
    }
    int start = node.getStartPosition();
    int end = node.getEndPosition();
    Class<?> type = node.getClass();
    SpelNodeImpl spel;
    if (children.length != 2) {
      return null;
    }
    SpelNodeImpl[] slots = CheckedOperator.slots(2, start, end);
    if (type == OpLT.class) {
      spel = new OpLT(start, end, slots);
    } else if (type == OpGT.class) {
      spel = new OpGT(start, end, slots);
    } else if (type == OpLE.class) {
      spel = new OpLE(start, end, slots);
    } else if (type == OpGE.class) {
      spel = new OpGE(start, end, slots);
    } else if (type == OpEQ.class) {
      spel = new OpEQ(start, end, slots);
    } else if (type == OpNE.class) {
      spel = new OpNE(start, end, slots);
    } else if (type == OperatorBetween.class) {
      spel = new OperatorBetween(start, end, slots);
    } else {
      return null;
    }
    return new Comparison(node, spel, children);
  }

  /**
   * A comparison: its operands evaluated once, the deadline checked when either is costly to
   * compare, then SpEL's own operator on them (over {@link CheckedOperator}'s slots).
   */
  static final class Comparison extends SpelNodeImpl {
    private final SpelNodeImpl written;
    private final SpelNodeImpl spel;

    Comparison(SpelNodeImpl written, SpelNodeImpl spel, SpelNodeImpl... operands) {
      super(written.getStartPosition(), written.getEndPosition(), operands);
      this.written = written;
      this.spel = spel;
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
      return CheckedOperator.over(spel, state, left, right);
    }

    @Override
    protected ValueRef getValueRef(ExpressionState state) throws EvaluationException {
      return new ValueRef.TypedValueHolderValueRef(getValueInternal(state), this);
    }

    @Override
    public String toStringAST() {
      return written.toStringAST();
    }
  }

  /** A function call, after the deadline is checked (its arguments check their own steps). */
  static final class Call extends SpelNodeImpl {
    Call(SpelNodeImpl function) {
      super(function.getStartPosition(), function.getEndPosition(), function);
    }

    @Override
    public TypedValue getValueInternal(ExpressionState state) throws EvaluationException {
      EvaluationBudget.current().checkDeadline();
      return children[0].getValueInternal(state);
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
