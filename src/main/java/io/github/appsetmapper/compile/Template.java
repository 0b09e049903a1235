package io.github.appsetmapper.compile;

import io.github.appsetmapper.config.Expr;
import io.github.appsetmapper.expr.Scope;
import io.github.appsetmapper.expr.Values;
import java.util.List;
import java.util.function.Consumer;

/**
 * A string with {@code #{...}} holes. A template that is exactly one hole keeps the value's type;
 * any other renders to a string.
 */
public record Template(Expr source, List<Part> parts) {

  /** A piece of a template: literal text or a hole. */
  public sealed interface Part {}

  public record Literal(String text) implements Part {}

  public record Hole(CompiledExpression expression) implements Part {}

  public Template {
    parts = List.copyOf(parts);
  }

  public boolean isSingleHole() {
    return parts.size() == 1 && parts.get(0) instanceof Hole;
  }

  public boolean readsInput() {
    return parts.stream().anyMatch(p -> p instanceof Hole h && h.expression().readsInput());
  }

  public boolean readsSecret() {
    return parts.stream().anyMatch(p -> p instanceof Hole h && readsSecret(h.expression()));
  }

  /** A single hole's value as it is; otherwise the rendered string. */
  public Object value(Scope scope) {
    return value(scope, NO_ONE);
  }

  /**
   * As {@link #value(Scope)}, handing {@code secretHoles} the value of each hole that reads {@code
   * secret}: what was computed from a secret, for the redactor.
   */
  public Object value(Scope scope, Consumer<Object> secretHoles) {
    if (isSingleHole()) {
      return hole((Hole) parts.get(0), scope, secretHoles);
    }
    return render(scope, secretHoles);
  }

  public String render(Scope scope) {
    return render(scope, NO_ONE);
  }

  private String render(Scope scope, Consumer<Object> secretHoles) {
    StringBuilder out = new StringBuilder();
    for (Part part : parts) {
      if (part instanceof Literal literal) {
        out.append(literal.text());
      } else {
        out.append(Values.text(hole((Hole) part, scope, secretHoles)));
      }
    }
    return out.toString();
  }

  private static Object hole(Hole hole, Scope scope, Consumer<Object> secretHoles) {
    Object value = hole.expression().evaluate(scope);
    if (value != null && readsSecret(hole.expression())) {
      secretHoles.accept(value);
    }
    return value;
  }

  /** Whether {@code expression} reads {@code secret}. */
  public static boolean readsSecret(CompiledExpression expression) {
    return expression.inspection().reads(Scope.Name.SECRET.word());
  }

  private static final Consumer<Object> NO_ONE = value -> {};
}
