package io.github.appsetmapper.engine;

import io.github.appsetmapper.compile.CompiledList;
import io.github.appsetmapper.expr.Scope;
import io.github.appsetmapper.upstream.call.RequestFailure;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The {@code list} step: one listing (every page), its first page a complete answer, the rows its
 * {@code items} path selects on each page, counted against the memory budget. Without a {@code
 * list}, one empty row.
 */
final class ListStage {
  private static final String STEP = "list";

  private ListStage() {}

  static List<Row> rows(Execution run, Scope base) throws RequestFailure {
    CompiledList list = run.mapping().list();
    if (list == null) {
      return List.of(new Row(0, Map.of(), Map.of()));
    }
    Scope scope = Scopes.request(base, run.mapping(), run.books().deadline());
    ResponseChecks checks = ResponseChecks.of(list.request(), false, scope, run.redactor());
    List<Page> pages =
        run.fetcher()
            .listing(
                STEP,
                list.request().format(),
                () ->
                    Paginator.of(
                        list.paginate(),
                        (number, cursor) ->
                            run.renderer()
                                .render(list.request(), Scopes.page(scope, number, cursor)),
                        scope,
                        list.entries() == null
                            ? Paginator.ElementCount.of(list.items(), "items")
                            : Paginator.ElementCount.entries(list.items(), list.entries())),
                checks);
    Page first = pages.get(0);
    if (!checks.complete(first.status())) {
      if (first.response().isSuccess()) {
        first.refusedBy("incomplete-status");
      }
      throw checks.incomplete(first.request(), first.response()).inStep(STEP);
    }
    List<Row> rows = new ArrayList<>();
    for (Page page : pages) {
      List<Object> items;
      try {
        items =
            list.entries() == null
                ? page.rows(list.items(), "items")
                : page.entryRows(list.items(), list.entries());
      } catch (RequestFailure e) {
        throw e.inStep(STEP);
      }
      run.books().holdRows(STEP, page.request(), items.size());
      for (Object item : items) {
        rows.add(new Row(rows.size(), item, Map.of()));
      }
    }
    return rows;
  }
}
