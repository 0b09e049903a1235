package io.github.appsetmapper.compile;

import io.github.appsetmapper.config.EnrichSpec;
import io.github.appsetmapper.config.ExplodeSpec;
import io.github.appsetmapper.config.Expr;
import io.github.appsetmapper.config.MappingSpec;
import io.github.appsetmapper.config.Problems;
import io.github.appsetmapper.expr.Scope;
import io.github.appsetmapper.expr.Scope.Name;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Compiles {@code explode}, {@code let} and {@code label} ({@link RowSteps}) and says where each
 * let may be read: a let is read by its bare name, like an enrich result, and exists from the
 * enrich step after which all it reads exists. Its name may be no other name of the row.
 */
final class RowStepsCompiler {
  private final ExpressionCompiler expressions;
  private final Problems problems;
  private final MappingSpec spec;
  private final List<String> steps;
  private RowSteps.Explode explode;
  private final Map<String, RowSteps.Let> lets = new LinkedHashMap<>();

  /**
   * The lets whose expression did not compile: their line says the mistake, and what reads them is
   * not said unknown too (one mistake, one line). The mapping does not load.
   */
  private final Set<String> failed = new LinkedHashSet<>();

  RowStepsCompiler(ExpressionCompiler expressions, Problems problems, MappingSpec spec) {
    this.expressions = expressions;
    this.problems = problems;
    this.spec = spec;
    this.steps = List.copyOf(spec.enrich().keySet());
  }

  /**
   * {@code explode} over {@code base} (the item, input, vars), and {@code base} with its element:
   * what every later expression of a row reads.
   */
  Scope explode(Scope base) {
    ExplodeSpec each = spec.explode();
    if (each == null) {
      return base;
    }
    if (spec.list() == null) {
      problems.add(each.pos(), "explode needs a 'list': it makes rows from a list a row holds");
    }
    CompiledExpression in = expressions.expression(each.in(), base);
    String as = each.as();
    if (as != null && (Name.RESERVED.contains(as) || spec.enrich().containsKey(as))) {
      problems.add(
          each.pos(),
          "explode 'as: "
              + as
              + "' is "
              + (Name.RESERVED.contains(as) ? "a reserved name" : "an enrich name")
              + "; choose another name for the element");
      as = null;
    }
    explode = new RowSteps.Explode(in, as, each.onMissing());
    return as == null ? base : base.with(as, Scope.UNKNOWN);
  }

  /** Every {@code let}, in order, over the row's names (all enrich results known). */
  void lets(Scope rowBase) {
    Scope scope = rowBase;
    for (String step : steps) {
      scope = scope.with(step, Scope.UNKNOWN);
    }
    for (String name : spec.let().keySet()) {
      scope =
          scope.without(name, "let '" + name + "' is defined later; lets are computed in order");
    }
    for (Map.Entry<String, Expr> entry : spec.let().entrySet()) {
      String name = entry.getKey();
      String clash = clash(name);
      if (clash != null) {
        problems.add(
            entry.getValue().pos(), "let '" + name + "' is " + clash + "; choose another name");
      }
      CompiledExpression expression = expressions.expression(entry.getValue(), scope);
      scope = scope.with(name, Scope.UNKNOWN);
      if (clash == null && expression != null) {
        lets.put(name, new RowSteps.Let(name, expression, needs(expression)));
      } else if (clash == null) {
        failed.add(name);
      }
    }
  }

  private String clash(String name) {
    if (Name.RESERVED.contains(name)) {
      return "a reserved name";
    }
    if (spec.enrich().containsKey(name)) {
      return "an enrich name";
    }
    if (spec.explode() != null && name.equals(spec.explode().as())) {
      return "explode's element";
    }
    for (EnrichSpec step : spec.enrich().values()) {
      if (step.forEach() != null && name.equals(step.forEach().as())) {
        return "the element of enrich." + step.name() + "'s forEach";
      }
    }
    return null;
  }

  /**
   * Adds to {@code caller} (the names whose values the caller chooses) explode's element and the
   * lets computed after {@code steps} enrich steps that read one: a URL's host never comes from
   * them, as it never comes from {@code input}.
   */
  void chosenByCaller(int steps, java.util.Set<String> caller) {
    if (steps == 0
        && explode != null
        && explode.as() != null
        && explode.in() != null
        && UrlCompiler.firstRead(explode.in(), caller) != null) {
      caller.add(explode.as());
    }
    for (RowSteps.Let let : lets.values()) {
      if (let.needs() == steps && UrlCompiler.firstRead(let.expression(), caller) != null) {
        caller.add(let.name());
      }
    }
  }

  /** How many enrich steps must have run before {@code expression} reads all it reads. */
  int needs(CompiledExpression expression) {
    int needs = 0;
    for (int i = 0; i < steps.size(); i++) {
      if (expression.inspection().reads(steps.get(i))) {
        needs = i + 1;
      }
    }
    for (RowSteps.Let let : lets.values()) {
      if (expression.inspection().reads(let.name())) {
        needs = Math.max(needs, let.needs());
      }
    }
    return needs;
  }

  /** {@code scope} (a row's before enrich step {@code step}) with the lets that exist there. */
  Scope letsBefore(int step, Scope scope) {
    for (String name : failed) {
      scope = scope.with(name, Scope.UNKNOWN);
    }
    for (RowSteps.Let let : lets.values()) {
      scope =
          let.needs() <= step
              ? scope.with(let.name(), Scope.UNKNOWN)
              : scope.without(
                  let.name(),
                  "let '"
                      + let.name()
                      + "' reads enrich."
                      + steps.get(let.needs() - 1)
                      + ", so it exists only after that step");
    }
    return scope;
  }

  /**
   * {@code label} over the row before enrich: the item, explode's element, the lets that read no
   * enrich result. It names the row at every stage, so it reads nothing enrich makes.
   */
  CompiledExpression label(Scope rowBase) {
    Scope scope = rowBase;
    for (String step : steps) {
      scope =
          scope.without(
              step,
              "label names the row from before enrich, so it cannot read enrich result '"
                  + step
                  + "'");
    }
    return expressions.expression(spec.label(), letsBefore(0, scope));
  }

  RowSteps steps(CompiledExpression label) {
    return new RowSteps(explode, List.copyOf(lets.values()), label);
  }

  /** The lets by name, for the filter's parts (what each needs). */
  Map<String, RowSteps.Let> compiledLets() {
    return lets;
  }
}
