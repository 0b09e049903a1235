package io.github.appsetmapper.engine;

import io.github.appsetmapper.compile.CompiledExpression;
import io.github.appsetmapper.compile.CostlyPart;
import io.github.appsetmapper.expr.ExpressionLimitException;
import io.github.appsetmapper.expr.Scope;
import io.github.appsetmapper.expr.SpelMessages;
import io.github.appsetmapper.upstream.call.RequestFailure;
import java.util.Map;

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
    RequestFailure notJson = readsNotJson(expression, row);
    if (notJson != null && onTheData(e)) {
      return notJson
          .adding(" (" + describe(expression) + " failed on it, row " + row.named() + ")")
          .causedBy(e);
    }
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
      if (page.textForNotJson() && onTheData(e)) {
        page.refusedBy("not-json");
        throw page.notJson();
      }
      throw RequestFailure.expression(
          describe(expression) + " failed: " + SpelMessages.simple(e), e);
    }
  }

  /**
   * The failure of the answer that is not JSON whose text {@code expression} reads on {@code row}
   * (a whole-body enrich of a request stating no {@code format}), or null when it reads none.
   */
  static RequestFailure readsNotJson(CompiledExpression expression, Row row) {
    for (Map.Entry<String, RequestFailure> text : row.notJson().entrySet()) {
      if (expression.inspection().reads(text.getKey())) {
        return text.getValue();
      }
    }
    return null;
  }

  /**
   * Whether an expression failed on the data it read (a property of a text, a method it lacks), not
   * on a bound of ours (the deadline, what it may build, its operations), which keeps its own
   * status.
   */
  static boolean onTheData(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof ExpressionLimitException || CostlyPart.spentOperations(t)) {
        return false;
      }
    }
    return true;
  }

  /** "parameters.name 'item.name'": where the expression is and what it says. */
  static String describe(CompiledExpression expression) {
    return expression.path() + " '" + expression.source().text() + "'";
  }
}
