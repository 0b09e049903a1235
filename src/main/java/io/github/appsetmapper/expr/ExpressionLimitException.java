package io.github.appsetmapper.expr;

import org.springframework.expression.EvaluationException;

/**
 * An expression went past a bound: a string or collection it builds grew too large, a regex was
 * refused, or the mapping's deadline ran out while it ran. A SpEL evaluation failure like any
 * other, so it fails the row's answer with a clean message; it is thrown past SpEL unchanged.
 */
public final class ExpressionLimitException extends EvaluationException {
  private final boolean deadline;
  private final boolean perEvaluation;

  ExpressionLimitException(String message) {
    this(message, false);
  }

  ExpressionLimitException(String message, boolean deadline) {
    this(message, deadline, false);
  }

  ExpressionLimitException(String message, boolean deadline, boolean perEvaluation) {
    super(message);
    this.deadline = deadline;
    this.perEvaluation = perEvaluation;
  }

  /**
   * True when what one evaluation may build together ran out (not one value too large): splitting
   * the expression into {@code let}s, each its own evaluation, is a way out.
   */
  public boolean perEvaluation() {
    return perEvaluation;
  }

  /** True when the deadline ran out (a 504 rather than an expression error). */
  public boolean deadline() {
    return deadline;
  }
}
