package io.github.appsetmapper.compile;

import io.github.appsetmapper.config.Expr;
import io.github.appsetmapper.expr.Evaluator;
import io.github.appsetmapper.expr.Inspection;
import java.util.Map;
import org.springframework.expression.Expression;

/** A SpEL expression parsed and checked once at load, evaluated many times. */
public record CompiledExpression(Expression expression, Expr source, Inspection inspection) {

  public Object evaluate(Map<String, Object> scope) {
    return Evaluator.evaluate(expression, scope);
  }

  public boolean readsInput() {
    return inspection.reads("input");
  }

  public String path() {
    return source.pos().path();
  }
}
