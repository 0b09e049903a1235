package io.github.appsetmapper.expr;

import org.springframework.expression.EvaluationException;

/**
 * An expression went past a bound: a string or collection it builds grew too large, a regex was
 * refused, or the mapping's deadline ran out while it ran. A SpEL evaluation failure like any
 * other, so it fails the row's answer with a clean message; it is thrown past SpEL unchanged.
 */
public final class ExpressionLimitException extends EvaluationException {
  private final boolean deadline;

  ExpressionLimitException(String message) {
    this(message, false);
  }

  ExpressionLimitException(String message, boolean deadline) {
    super(message);
    this.deadline = deadline;
  }

  /** True when the deadline ran out (a 504 rather than an expression error). */
  public boolean deadline() {
    return deadline;
  }
}
