package io.github.appsetmapper.engine;

import io.github.appsetmapper.compile.RowSteps;
import io.github.appsetmapper.expr.Scope;
import io.github.appsetmapper.upstream.call.RequestFailure;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code explode}: each row becomes one row per element of the list {@code in} gives on it, the
 * element bound to {@code as}; the rows keep their list row's index (explain names them by its
 * label and the element's place, {@code [2]}) and count against the memory budget as list rows do.
 * A null {@code in} is missing: {@code onMissing} decides, as an enrich step's; anything else that
 * is no list is a 502 naming the expression and the row.
 */
final class ExplodeStage {
  static final String STAGE = "explode";

  private ExplodeStage() {}

  static List<Row> run(Execution run, List<Row> rows, Scope base) throws RequestFailure {
    RowSteps.Explode explode = run.mapping().rowSteps().explode();
    if (explode == null) {
      return rows;
    }
    List<Row> out = new ArrayList<>();
    for (Row row : rows) {
      Object value = Expressions.onRow(explode.in(), Scopes.row(base, row), row);
      String what = "explode 'in: " + explode.in().source().text() + "'";
      run.books().holdBuilt(what + " on row " + row.named(), value);
      if (value == null) {
        switch (explode.onMissing()) {
          case DROP -> drop(run, row, base, what + " is null (onMissing: drop)");
          case NULL -> out.add(row.with(explode.as(), null));
          default ->
              throw RequestFailure.at(
                  STAGE,
                  "in",
                  RequestFailure.Kind.FAILED,
                  what
                      + " is null or missing on row "
                      + row.named()
                      + "; set explode onMissing: drop (or \"null\") if that is expected");
        }
        continue;
      }
      if (!(value instanceof List<?> elements)) {
        RequestFailure notJson = Expressions.readsNotJson(explode.in(), row);
        if (notJson != null) {
          throw notJson.adding(" (" + what + " needs a list, row " + row.named() + ")");
        }
        throw RequestFailure.at(
            STAGE,
            "in",
            RequestFailure.Kind.FAILED,
            what + " needs a list, got " + kind(value) + " on row " + row.named());
      }
      if (elements.isEmpty()) {
        drop(run, row, base, "explode: the list is empty");
        continue;
      }
      run.books().holdRows(STAGE, null, elements.size());
      for (int i = 0; i < elements.size(); i++) {
        out.add(row.element(i, explode.as(), elements.get(i)));
      }
    }
    run.trace().stage(STAGE, out.size());
    return out;
  }

  private static void drop(Execution run, Row row, Scope base, String reason) {
    Trace trace = run.trace();
    trace.dropped(
        STAGE,
        row.index(),
        RowLabels.ofDropped(trace, run.mapping(), row, base, run.redactor()),
        reason);
  }

  private static String kind(Object value) {
    if (value instanceof java.util.Map<?, ?>) {
      return "an object";
    }
    if (value instanceof String) {
      return "a text";
    }
    if (value instanceof Number) {
      return "a number";
    }
    return value instanceof Boolean ? "a boolean" : "a value of another kind";
  }
}
