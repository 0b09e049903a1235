package io.github.appsetmapper.engine;

import io.github.appsetmapper.compile.CompiledExpression;
import io.github.appsetmapper.compile.CompiledFilter;
import io.github.appsetmapper.compile.CompiledFilter.Joiner;
import io.github.appsetmapper.compile.CompiledMapping;
import io.github.appsetmapper.expr.ExpressionLimitException;
import io.github.appsetmapper.expr.Scope;
import io.github.appsetmapper.secret.Redactor;
import io.github.appsetmapper.upstream.call.RequestFailure;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code filter}, run as early as what it reads allows: before an enrich step, the leading
 * parts of an {@code and} (or the whole filter) that read no result of that step or a later one
 * drop rows, so that the step makes no call for them. After the last step the whole filter runs on
 * the rows no earlier stage decided, exactly as it always did: the answer is the same as running
 * the filter after every enrich, with fewer calls.
 *
 * <p>An early part that fails (an error, or a null where {@code and} wants a boolean) decides
 * nothing: the row goes on, and the whole filter after enrich fails or passes it as before, since
 * an enrich step may yet drop the row.
 */
final class FilterStage {
  private final CompiledMapping mapping;
  private final CompiledFilter filter;
  private final Scope base;
  private final Trace trace;
  private final Redactor redactor;

  FilterStage(CompiledMapping mapping, Scope base, Trace trace, Redactor redactor) {
    this.redactor = redactor;
    this.mapping = mapping;
    this.filter = mapping.filter();
    this.base = base;
    this.trace = trace;
  }

  /** The stage's name in explain: where the filter ran. */
  static String beforeEnrich(String step) {
    return "filter (before enrich." + step + ")";
  }

  /** Before enrich step {@code step} (from 0): the parts that can run now and could not earlier. */
  List<Row> beforeEnrich(int step, List<Row> rows) throws RequestFailure {
    if (filter == null) {
      return rows;
    }
    int now = filter.runnableAfter(step);
    int earlier = step == 0 ? 0 : filter.runnableAfter(step - 1);
    if (now == earlier) {
      return rows;
    }
    String stage = beforeEnrich(mapping.enrich().get(step).name());
    List<Row> kept = new ArrayList<>(rows.size());
    for (Row row : rows) {
      if (row.filtered()) {
        kept.add(row);
        continue;
      }
      Scope scope = Scopes.row(base, row);
      if (filter.joiner() == Joiner.AND) {
        Early verdict = leading(now, scope, row);
        if (verdict.falsePart() != null) {
          drop(stage, row, scope, verdict.falsePart());
        } else {
          kept.add(verdict.passed() && now == filter.parts().size() ? row.passedFilter() : row);
        }
        continue;
      }
      Boolean verdict = wholeQuietly(scope, row);
      if (verdict == null) {
        kept.add(row);
      } else if (verdict) {
        kept.add(row.passedFilter());
      } else {
        drop(stage, row, scope, null);
      }
    }
    trace.stage(stage, kept.size());
    return kept;
  }

  /** After every enrich step: the whole filter on the rows no earlier stage decided. */
  List<Row> afterEnrich(List<Row> rows) throws RequestFailure {
    if (filter == null) {
      return rows;
    }
    List<Row> kept = new ArrayList<>(rows.size());
    boolean evaluated = false;
    for (Row row : rows) {
      if (row.filtered()) {
        kept.add(row);
        continue;
      }
      evaluated = true;
      Scope scope = Scopes.row(base, row);
      if (passes(filter.whole(), scope, row)) {
        kept.add(row);
      } else {
        drop("filter", row, scope, falsePart(scope, row));
      }
    }
    int steps = mapping.enrich().size();
    boolean ranBefore = steps > 0 && filter.runnableAfter(steps - 1) == filter.parts().size();
    if (evaluated || !ranBefore) {
      // Not shown when the whole filter ran before enrich and decided every row there.
      trace.stage("filter", kept.size());
    }
    return kept;
  }

  /**
   * The first {@code count} operands of the {@code and}, in order as SpEL runs them: the first
   * false one drops the row; an error or a null stops without deciding.
   */
  private Early leading(int count, Scope scope, Row row) {
    for (int i = 0; i < count; i++) {
      CompiledExpression part = filter.parts().get(i).expression();
      Boolean value;
      try {
        value = Expressions.onRow(part, scope, row, Boolean.class);
      } catch (RequestFailure | ExpressionLimitException e) {
        rethrowDeadline(e);
        return Early.UNDECIDED;
      }
      if (value == null) {
        return Early.UNDECIDED;
      }
      if (!value) {
        return new Early(false, part);
      }
    }
    return Early.PASSED;
  }

  /** What the leading parts said: all true, one false, or nothing decided. */
  private record Early(boolean passed, CompiledExpression falsePart) {
    static final Early PASSED = new Early(true, null);
    static final Early UNDECIDED = new Early(false, null);
  }

  /** The whole filter's verdict, or null when it failed (decided after enrich). */
  private Boolean wholeQuietly(Scope scope, Row row) {
    try {
      return passes(filter.whole(), scope, row);
    } catch (RequestFailure | ExpressionLimitException e) {
      rethrowDeadline(e);
      return null;
    }
  }

  private static void rethrowDeadline(Exception e) {
    if (e instanceof ExpressionLimitException limit && limit.deadline()) {
      throw limit;
    }
  }

  static boolean passes(CompiledExpression filter, Scope scope, Row row) throws RequestFailure {
    Object verdict = Expressions.onRow(filter, scope, row);
    if (verdict == null) {
      return false;
    }
    if (verdict instanceof Boolean b) {
      return b;
    }
    throw RequestFailure.expression(
        "filter '"
            + filter.source().text()
            + "' gave "
            + verdict
            + " on row "
            + row.named()
            + ", not true or false",
        null);
  }

  private void drop(String stage, Row row, Scope scope, CompiledExpression falsePart) {
    String label = RowLabels.ofDropped(trace, mapping, row, base, redactor);
    if (!trace.explaining()) {
      trace.dropped(stage, row.index(), null, "filter");
      return;
    }
    trace.dropped(stage, row.index(), label, reason(scope, falsePart));
  }

  /** Which part was false: the operand of an {@code and}, every operand of an {@code or}. */
  private String reason(Scope scope, CompiledExpression falsePart) {
    String whole = filter.whole().source().text();
    if (falsePart != null) {
      return "'" + falsePart.source().text() + "' is false, in '" + whole + "'";
    }
    if (filter.joiner() == Joiner.OR) {
      List<String> parts = new ArrayList<>();
      filter.parts().forEach(p -> parts.add("'" + p.expression().source().text() + "'"));
      return "none of " + String.join(", ", parts) + " is true, in '" + whole + "'";
    }
    return "'" + whole + "' is not true";
  }

  /** For explain, after enrich: the operand of an {@code and} that was false (null: none found). */
  private CompiledExpression falsePart(Scope scope, Row row) {
    if (!trace.explaining() || filter.joiner() != Joiner.AND) {
      return null;
    }
    Early verdict = leading(filter.parts().size(), scope, row);
    return verdict.falsePart();
  }
}
