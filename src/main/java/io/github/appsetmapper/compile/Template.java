package io.github.appsetmapper.compile;

import io.github.appsetmapper.config.Expr;
import io.github.appsetmapper.expr.Scope;
import io.github.appsetmapper.expr.Values;
import java.util.List;

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
    return parts.stream()
        .anyMatch(
            p ->
                p instanceof Hole h && h.expression().inspection().reads(Scope.Name.SECRET.word()));
  }

  /** A single hole's value as it is; otherwise the rendered string. */
  public Object value(Scope scope) {
    if (isSingleHole()) {
      return ((Hole) parts.get(0)).expression().evaluate(scope);
    }
    return render(scope);
  }

  public String render(Scope scope) {
    StringBuilder out = new StringBuilder();
    for (Part part : parts) {
      if (part instanceof Literal literal) {
        out.append(literal.text());
      } else {
        out.append(Values.text(((Hole) part).expression().evaluate(scope)));
      }
    }
    return out.toString();
  }
}
