package io.github.appsetmapper.compile;

import io.github.appsetmapper.config.Expr;
import io.github.appsetmapper.expr.Evaluator;
import io.github.appsetmapper.expr.Inspection;
import io.github.appsetmapper.expr.PlainRead;
import io.github.appsetmapper.expr.Scope;
import org.springframework.expression.Expression;

/**
 * A SpEL expression parsed and checked once at load, evaluated many times; a literal or a plain
 * chain of names is read without the interpreter ({@link PlainRead}).
 */
public record CompiledExpression(
    Expression expression, Expr source, Inspection inspection, PlainRead plain) {

  public CompiledExpression(Expression expression, Expr source, Inspection inspection) {
    this(expression, source, inspection, PlainRead.of(expression));
  }

  public Object evaluate(Scope scope) {
    return Evaluator.evaluate(expression, plain, scope.root());
  }

  /** Evaluated and converted to {@code type} as SpEL converts an operand of {@code and}. */
  public <T> T evaluate(Scope scope, Class<T> type) {
    return Evaluator.evaluate(expression, scope.root(), type);
  }

  public boolean readsInput() {
    return inspection.reads(Scope.Name.INPUT.word());
  }

  public String path() {
    return source.pos().path();
  }
}
