package io.github.appsetmapper.expr;

import org.springframework.expression.spel.SpelParserConfiguration;

/**
 * SpEL's configuration, the same in every setting, whose bound of operations also ticks this
 * thread's {@link EvaluationBudget}: SpEL asks it for the bound each time it counts an operation
 * ({@code ExpressionState.trackOperation}, called by every operator, property and method reference,
 * function call, and for every element of a projection, a selection and an inline list or map), so
 * every such step is counted, and every 1,024th checks the deadline. The one place SpEL calls for
 * each unit of work, without a node of ours around each; a costly step (an operator on big numbers,
 * a comparison of them, a function or method call) checks the deadline itself before it runs.
 */
final class OperationTicks extends SpelParserConfiguration {
  private OperationTicks(SpelParserConfiguration base) {
    super(
        base.getCompilerMode(),
        base.getCompilerClassLoader(),
        base.isAutoGrowNullReferences(),
        base.isAutoGrowCollections(),
        base.getMaximumAutoGrowSize(),
        base.getMaximumExpressionLength(),
        base.getMaximumOperations(),
        base.getMaximumBigPowerBits());
  }

  /** {@code base}, ticking the deadline on every operation SpEL counts. */
  static SpelParserConfiguration of(SpelParserConfiguration base) {
    return base instanceof OperationTicks ? base : new OperationTicks(base);
  }

  @Override
  public int getMaximumOperations() {
    EvaluationBudget.current().tick();
    return super.getMaximumOperations();
  }
}
