package io.github.appsetmapper.engine;

import io.github.appsetmapper.compile.RowSteps;
import io.github.appsetmapper.expr.Scope;
import io.github.appsetmapper.upstream.call.RequestFailure;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code let} values of each row, computed once, in order, as soon as all they read exists:
 * those that read no enrich result right after the list (and explode), before the early filter; the
 * others after the enrich step whose result they read. A let that fails fails the answer as a
 * parameter would, naming {@code let.<name>} and the row.
 */
final class LetStage {
  private LetStage() {}

  /** The lets computed once {@code steps} enrich steps have run, on every row. */
  static List<Row> after(int steps, Execution run, List<Row> rows, Scope base)
      throws RequestFailure {
    List<RowSteps.Let> lets = run.mapping().rowSteps().computedAfter(steps);
    if (lets.isEmpty()) {
      return rows;
    }
    List<Row> out = new ArrayList<>(rows.size());
    for (Row row : rows) {
      Row withLets = row;
      for (RowSteps.Let let : lets) {
        Object value = Expressions.onRow(let.expression(), Scopes.row(base, withLets), withLets);
        run.books().holdBuilt("let." + let.name() + " on row " + withLets.named(), value);
        withLets = withLets.with(let.name(), value);
      }
      out.add(withLets);
    }
    return out;
  }
}
