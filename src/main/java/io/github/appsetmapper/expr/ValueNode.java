package io.github.appsetmapper.expr;

import org.springframework.expression.EvaluationException;
import org.springframework.expression.spel.ExpressionState;
import org.springframework.expression.spel.ast.SpelNodeImpl;
import org.springframework.expression.spel.ast.ValueRef;

/**
 * A node {@link BuildCounting} puts in SpEL's tree: it computes a value and nothing else (never
 * assigned to, never compiled). SpEL asks a node for a reference when it stands before a method
 * call or an index, and a holder of the value is all such a node has to give.
 */
abstract class ValueNode extends SpelNodeImpl {
  ValueNode(int start, int end, SpelNodeImpl... operands) {
    super(start, end, operands);
  }

  @Override
  protected final ValueRef getValueRef(ExpressionState state) throws EvaluationException {
    return new ValueRef.TypedValueHolderValueRef(getValueInternal(state), this);
  }

  /** A node around one node the author wrote: it stands in its place and prints as it does. */
  abstract static class Around extends ValueNode {
    Around(SpelNodeImpl written) {
      super(written.getStartPosition(), written.getEndPosition(), written);
    }

    @Override
    public final String toStringAST() {
      return children[0].toStringAST();
    }
  }
}
