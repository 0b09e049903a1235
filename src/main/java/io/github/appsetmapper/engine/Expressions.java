package io.github.appsetmapper.engine;

import io.github.appsetmapper.compile.CompiledExpression;
import io.github.appsetmapper.compile.CostlyPart;
import io.github.appsetmapper.expr.ExpressionLimitException;
import io.github.appsetmapper.expr.Scope;
import io.github.appsetmapper.expr.SpelMessages;
import io.github.appsetmapper.upstream.call.RequestFailure;

/** Evaluates the mapping's expressions; a failure names the expression by its path and text. */
final class Expressions {
  private Expressions() {}

  /** An expression on a row (a parameter, filter, sortBy, distinctBy, an enrich value). */
  static Object onRow(CompiledExpression expression, Scope scope, Row row) throws RequestFailure {
    try {
      return expression.evaluate(scope);
    } catch (org.springframework.expression.EvaluationException
        | IllegalArgumentException
        | ArithmeticException e) {
      // ArithmeticException: a decimal divided by zero.
      throw failed(expression, row, e);
    }
  }

  /** As {@link #onRow}, converted as SpEL converts an operand of {@code and} or {@code or}. */
  static <T> T onRow(CompiledExpression expression, Scope scope, Row row, Class<T> type)
      throws RequestFailure {
    try {
      return expression.evaluate(scope, type);
    } catch (org.springframework.expression.EvaluationException
        | IllegalArgumentException
        | ArithmeticException e) {
      throw failed(expression, row, e);
    }
  }

  /**
   * The failure of an expression on a row, naming it and the row; when it spent a budget (SpEL's
   * operations, what it builds), the part that spent it and the way out.
   */
  private static RequestFailure failed(CompiledExpression expression, Row row, Exception e) {
    boolean spent =
        CostlyPart.spentOperations(e)
            || (e instanceof ExpressionLimitException limit && limit.perEvaluation());
    return RequestFailure.expression(
        describe(expression)
            + " failed on row "
            + row.named()
            + ": "
            + SpelMessages.simple(e)
            + (spent ? CostlyPart.hint(expression, e) : ""),
        e);
  }

  /** An expression over an answer ({@code failWhen}, a cursor's {@code until}). */
  static Object onResponse(CompiledExpression expression, Page page, Scope scope)
      throws RequestFailure {
    Scope withResponse = Scopes.response(scope, page);
    try {
      return expression.evaluate(withResponse);
    } catch (org.springframework.expression.EvaluationException | ArithmeticException e) {
      throw RequestFailure.expression(
          describe(expression) + " failed: " + SpelMessages.simple(e), e);
    }
  }

  /** "parameters.name 'item.name'": where the expression is and what it says. */
  static String describe(CompiledExpression expression) {
    return expression.path() + " '" + expression.source().text() + "'";
  }
}
