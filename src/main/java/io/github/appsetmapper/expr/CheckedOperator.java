package io.github.appsetmapper.expr;

import java.math.BigDecimal;
import org.springframework.expression.EvaluationException;
import org.springframework.expression.TypedValue;
import org.springframework.expression.spel.ExpressionState;
import org.springframework.expression.spel.ast.Operator;
import org.springframework.expression.spel.ast.SpelNodeImpl;

/**
 * An arithmetic operator ({@code + - * / % ^}, binary or unary) whose result is exact or an error:
 * the operands are evaluated once, two integers are computed by {@link Arithmetic} (an overflow
 * fails), a double beside an integer it cannot hold as exact decimals ({@link MixedNumbers}),
 * anything else by SpEL's own operator ({@code spel}, over {@link Slot}s that hand it the values
 * already evaluated), whose decimal result must be finite. SpEL offers no hook for either (its
 * {@code OperatorOverloader} is asked only for operands it cannot compute itself), so {@link
 * BuildCounting} puts this node in the tree in place of the operator. Never compiled.
 */
final class CheckedOperator extends ValueNode {
  /** The operands of the operator running on this thread, read by its {@link Slot}s. */
  private static final ThreadLocal<TypedValue[]> OPERANDS =
      ThreadLocal.withInitial(() -> new TypedValue[2]);

  private final char op;
  private final Operator spel;
  private final String what;

  /**
   * @param spel SpEL's operator (or {@link BuildCounting}'s counting one) over {@link #slots}
   */
  CheckedOperator(char op, Operator spel, SpelNodeImpl... operands) {
    super(spel.getStartPosition(), spel.getEndPosition(), operands);
    this.op = op;
    this.spel = spel;
    this.what = "the operator '" + op + "'";
  }

  /** The operands {@code spel} is built over, one per operand of this node. */
  static SpelNodeImpl[] slots(int count, int start, int end) {
    SpelNodeImpl[] slots = new SpelNodeImpl[count];
    for (int i = 0; i < count; i++) {
      slots[i] = new Slot(i, start, end);
    }
    return slots;
  }

  @Override
  public TypedValue getValueInternal(ExpressionState state) throws EvaluationException {
    TypedValue left = children[0].getValueInternal(state);
    TypedValue right = children.length > 1 ? children[1].getValueInternal(state) : null;
    Object exact =
        right == null
            ? (op == '-' ? Arithmetic.negate(left.getValue()) : Arithmetic.SPEL)
            : Arithmetic.binary(op, left.getValue(), right.getValue());
    if (exact != Arithmetic.SPEL) {
      state.trackOperation(); // as SpEL's operator counts itself against the bound of operations
      TypedValue value = new TypedValue(exact);
      return op == '+' || op == '*' ? BuildCounting.count(value, what) : value;
    }
    Object l = left.getValue();
    Object r = right == null ? null : right.getValue();
    if (right != null && MixedNumbers.atStake(l, r)) {
      // 9007199254740993 + 0.5: exact decimals, where SpEL's doubles gave 9007199254740992.
      l = MixedNumbers.exact(l);
      r = MixedNumbers.exact(r);
      left = new TypedValue(l);
      right = new TypedValue(r);
    }
    // Before a costly computation, not after: a quotient or a power of big numbers, or any
    // operation on one past EvaluationBudget.CHEAP_DIGITS, may take milliseconds.
    EvaluationBudget budget = EvaluationBudget.current();
    if (op == '^' && Decimals.big(l, r)) {
      // A power of big numbers may build thousands of digits from two short ones: never under a
      // slice (EvaluationBudget.slice), where a quotient of short ones stays cheap.
      budget.costlyStep();
    } else if ((op == '/' || op == '%') && Decimals.big(l, r)) {
      budget.before(l, r);
      budget.checkDeadline();
    } else {
      budget.before(l, r);
    }
    Decimals.operands(op, what, l, r);
    Number exactResult =
        op == '/' ? Decimals.divide(l, r) : op == '^' ? Decimals.integerPower(l, r) : null;
    if (exactResult != null) {
      state.trackOperation();
      return new TypedValue(Decimals.result(what, exactResult));
    }
    TypedValue value = over(spel, state, left, right);
    Object result = Arithmetic.finite(what, value.getValue());
    BigDecimal exactInstead = right == null ? null : MixedNumbers.roundedByDouble(op, l, r, result);
    if (exactInstead != null) {
      return new TypedValue(Decimals.result(what, exactInstead));
    }
    Decimals.result(what, result);
    return value;
  }

  /** SpEL's operator {@code spel}, built over {@link #slots}, on the operands evaluated already. */
  static TypedValue over(
      SpelNodeImpl spel, ExpressionState state, TypedValue left, TypedValue right) {
    TypedValue[] operands = OPERANDS.get();
    TypedValue savedLeft = operands[0];
    TypedValue savedRight = operands[1];
    operands[0] = left;
    operands[1] = right;
    try {
      return spel.getValueInternal(state);
    } finally {
      operands[0] = savedLeft;
      operands[1] = savedRight;
    }
  }

  @Override
  public String toStringAST() {
    return children.length == 1
        ? op + children[0].toStringAST()
        : "(" + children[0].toStringAST() + " " + op + " " + children[1].toStringAST() + ")";
  }

  /** An operand of {@code spel}: the value {@link CheckedOperator} evaluated for it. */
  static final class Slot extends SpelNodeImpl {
    private final int index;

    Slot(int index, int start, int end) {
      super(start, end);
      this.index = index;
    }

    @Override
    public TypedValue getValueInternal(ExpressionState state) {
      return OPERANDS.get()[index];
    }

    @Override
    public String toStringAST() {
      return "?";
    }
  }
}
