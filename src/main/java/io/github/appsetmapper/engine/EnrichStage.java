package io.github.appsetmapper.engine;

import com.jayway.jsonpath.PathNotFoundException;
import io.github.appsetmapper.compile.CompiledEnrich;
import io.github.appsetmapper.compile.CompiledMapping;
import io.github.appsetmapper.compile.JsonPaths;
import io.github.appsetmapper.config.EnrichSpec.OnMissing;
import io.github.appsetmapper.expr.EvaluationBudget;
import io.github.appsetmapper.expr.Scope;
import io.github.appsetmapper.upstream.call.Deadline;
import io.github.appsetmapper.upstream.call.RequestFailure;
import io.github.appsetmapper.upstream.call.UpstreamRequest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One enrich step over all rows: at most {@code concurrency} requests at once (a row's, or one
 * element's of a {@code forEach}), results kept in row order, the first failure (in row order)
 * failing the whole answer.
 */
final class EnrichStage {
  private final Execution run;
  private final CompiledMapping mapping;
  private final Trace trace;

  private final Scope base;

  EnrichStage(Execution run, Scope base) {
    this.run = run;
    this.base = base;
    this.mapping = run.mapping();
    this.trace = run.trace();
  }

  /** What one row became: itself with the value, several rows (explode), or nothing (drop). */
  private record Outcome(List<Row> rows) {}

  /**
   * What one request gave: a value, or {@code missing} (404/410, a JSON null body, a definite
   * select that found nothing or null, a null value: docs/mapping-reference.md "What missing
   * means") and why; {@code request} the first page's; {@code notJson}: the value is the text of an
   * answer that is not JSON (a whole-body enrich of a request stating no {@code format}), and the
   * failure that answer is to an expression that reads it as JSON.
   */
  private record Fetched(
      Object value, RequestFailure missing, UpstreamRequest request, RequestFailure notJson) {
    Fetched(Object value, RequestFailure missing, UpstreamRequest request) {
      this(value, missing, request, null);
    }
  }

  /** One unit of work for the pool: a row's request, or one element's of a forEach. */
  private interface Task<T> {
    T run() throws RequestFailure;
  }

  /** At most this many elements in one row's forEach list: each is a call. */
  static final int MAX_ELEMENTS = 1000;

  List<Row> run(CompiledEnrich enrich, List<Row> rows, Scope base) throws RequestFailure {
    List<Outcome> outcomes =
        enrich.forEach() == null ? perRow(enrich, rows, base) : perElement(enrich, rows, base);
    List<Row> out = new ArrayList<>();
    for (Outcome outcome : outcomes) {
      out.addAll(outcome.rows());
    }
    return out;
  }

  private List<Outcome> perRow(CompiledEnrich enrich, List<Row> rows, Scope base)
      throws RequestFailure {
    List<Task<Outcome>> tasks = new ArrayList<>(rows.size());
    for (Row row : rows) {
      tasks.add(() -> one(enrich, row, Scopes.row(base, row)));
    }
    return all(enrich, tasks);
  }

  /**
   * forEach: every row's elements first (a row whose {@code in} is not a list fails before any
   * call), then one task per element, all within the mapping's bound; each row gets its results in
   * its elements' order (a map by key when there is one). A missing result is the row's: {@code
   * error} fails the answer, {@code drop} drops the row, {@code "null"} makes that result null. The
   * list is never shorter than the elements.
   */
  private List<Outcome> perElement(CompiledEnrich enrich, List<Row> rows, Scope base)
      throws RequestFailure {
    CompiledEnrich.ForEach each = enrich.forEach();
    String step = "enrich." + enrich.name();
    List<List<Object>> elements = new ArrayList<>(rows.size());
    List<List<String>> keys = new ArrayList<>(rows.size());
    List<Task<Fetched>> tasks = new ArrayList<>();
    for (Row row : rows) {
      Scope scope = Scopes.row(base, row);
      List<Object> list = elements(each, scope, row, step);
      run.books().holdRows(step, null, list.size());
      elements.add(list);
      keys.add(each.key() == null ? null : keys(each, scope, row, list, step));
      for (Object element : list) {
        Scope withElement = scope.with(each.as(), element);
        tasks.add(() -> fetch(enrich, row, withElement));
      }
    }
    List<Fetched> fetched = all(enrich, tasks);
    List<Outcome> outcomes = new ArrayList<>(rows.size());
    int next = 0;
    for (int r = 0; r < rows.size(); r++) {
      Row row = rows.get(r);
      List<Object> results = new ArrayList<>(elements.get(r).size());
      RequestFailure drop = null;
      RequestFailure notJson = null;
      for (int e = 0; e < elements.get(r).size(); e++) {
        Fetched one = fetched.get(next++);
        if (one.missing() == null) {
          results.add(one.value());
          notJson = notJson == null ? one.notJson() : notJson;
        } else if (enrich.onMissing() == OnMissing.NULL) {
          results.add(null);
        } else if (enrich.onMissing() == OnMissing.DROP) {
          drop = drop == null ? one.missing() : drop;
        } else {
          throw one.missing();
        }
      }
      if (drop != null) {
        trace.dropped(step, row.index(), label(row), "onMissing: drop (" + drop.getMessage() + ")");
        outcomes.add(new Outcome(List.of()));
      } else if (keys.get(r) == null) {
        // Not List.copyOf: a "null" result stays in its place.
        outcomes.add(
            new Outcome(
                List.of(
                    row.withText(enrich.name(), Collections.unmodifiableList(results), notJson))));
      } else {
        Map<String, Object> byKey = new LinkedHashMap<>();
        for (int e = 0; e < results.size(); e++) {
          byKey.put(keys.get(r).get(e), results.get(e));
        }
        outcomes.add(
            new Outcome(
                List.of(row.withText(enrich.name(), Collections.unmodifiableMap(byKey), notJson))));
      }
    }
    return outcomes;
  }

  private static List<Object> elements(
      CompiledEnrich.ForEach each, Scope scope, Row row, String step) throws RequestFailure {
    Object list = Expressions.onRow(each.in(), scope, row);
    if (!(list instanceof List<?> elements)) {
      throw forEachFailure(
          step,
          "forEach '"
              + each.in().source().text()
              + "' needs a list, got "
              + kind(list)
              + " on row "
              + row.named());
    }
    if (elements.size() > MAX_ELEMENTS) {
      throw forEachFailure(
          step,
          "forEach '"
              + each.in().source().text()
              + "' gave "
              + elements.size()
              + " elements on row "
              + row.named()
              + ", more than "
              + MAX_ELEMENTS);
    }
    return new ArrayList<>(elements);
  }

  /** Each element's key: a string or a number, none twice in a row. */
  private static List<String> keys(
      CompiledEnrich.ForEach each, Scope scope, Row row, List<Object> elements, String step)
      throws RequestFailure {
    List<String> keys = new ArrayList<>(elements.size());
    Map<String, Integer> seen = new HashMap<>();
    for (int e = 0; e < elements.size(); e++) {
      Object key = Expressions.onRow(each.key(), scope.with(each.as(), elements.get(e)), row);
      String where = " for element " + e + " on row " + row.named();
      if (!(key instanceof String) && !(key instanceof Number)) {
        throw forEachFailure(
            step, "forEach key '" + each.key().source().text() + "' gave " + kind(key) + where);
      }
      // One key per value, as == sees it: 1 and 1.0 are the key "1" (twice, an error).
      String text = io.github.appsetmapper.expr.Values.canonicalKey(key);
      Integer earlier = seen.putIfAbsent(text, e);
      if (earlier != null) {
        throw forEachFailure(
            step,
            "forEach key '"
                + each.key().source().text()
                + "' gave '"
                + text
                + "' twice, for elements "
                + earlier
                + " and "
                + e
                + " on row "
                + row.named());
      }
      keys.add(text);
    }
    return keys;
  }

  private static RequestFailure forEachFailure(String step, String detail) {
    return RequestFailure.at(step, "forEach", RequestFailure.Kind.FAILED, detail);
  }

  /** The tasks, in order: on this thread when there is one or the bound is 1, else on the pool. */
  private <T> List<T> all(CompiledEnrich enrich, List<Task<T>> tasks) throws RequestFailure {
    if (tasks.size() <= 1 || mapping.concurrency() == 1) {
      List<T> out = new ArrayList<>(tasks.size());
      for (Task<T> task : tasks) {
        out.add(task.run());
      }
      return out;
    }
    return parallel(enrich, tasks);
  }

  /**
   * The tasks on the pool, at most {@code concurrency} at once. Every wait (for a slot, for a
   * task's outcome) ends with the mapping's deadline, and each task evaluates under it too, so a
   * stuck row never holds the answer, or its thread, past the deadline.
   */
  private <T> List<T> parallel(CompiledEnrich enrich, List<Task<T>> tasks) throws RequestFailure {
    Semaphore slots = new Semaphore(mapping.concurrency());
    AtomicBoolean failed = new AtomicBoolean();
    List<Future<T>> futures = new ArrayList<>(tasks.size());
    Deadline deadline = run.books().deadline();
    java.time.Instant requestTime = EvaluationBudget.requestTime();
    try {
      for (Task<T> task : tasks) {
        if (failed.get()) {
          break;
        }
        if (!slots.tryAcquire(Waits.nanos(deadline), TimeUnit.NANOSECONDS)) {
          throw deadlineRanOut(enrich);
        }
        futures.add(
            run.pool()
                .submit(
                    () -> {
                      try (EvaluationBudget.Scope evaluations =
                          EvaluationBudget.until(deadline.endNanos(), requestTime)) {
                        return failed.get() ? null : task.run();
                      } catch (Exception e) {
                        failed.set(true);
                        throw e;
                      } finally {
                        slots.release();
                      }
                    }));
      }
      List<T> outcomes = new ArrayList<>(tasks.size());
      for (Future<T> future : futures) {
        outcomes.add(future.get(Waits.nanos(deadline), TimeUnit.NANOSECONDS));
      }
      return outcomes;
    } catch (TimeoutException e) {
      futures.forEach(f -> f.cancel(true));
      throw deadlineRanOut(enrich);
    } catch (InterruptedException e) {
      futures.forEach(f -> f.cancel(true));
      Thread.currentThread().interrupt();
      throw RequestFailure.at(
          "enrich." + enrich.name(), null, RequestFailure.Kind.FAILED, "interrupted");
    } catch (RequestFailure e) {
      futures.forEach(f -> f.cancel(true));
      throw e;
    } catch (ExecutionException e) {
      futures.forEach(f -> f.cancel(true));
      throw RequestFailure.unwrap(e);
    }
  }

  private static RequestFailure deadlineRanOut(CompiledEnrich enrich) {
    return RequestFailure.at(
        "enrich." + enrich.name(), null, RequestFailure.Kind.DEADLINE, "the deadline ran out");
  }

  private Outcome one(CompiledEnrich enrich, Row row, Scope scope) throws RequestFailure {
    String step = "enrich." + enrich.name();
    Fetched fetched = fetch(enrich, row, scope);
    if (fetched.missing() != null) {
      return missing(enrich, row, fetched.missing());
    }
    Object value = fetched.value();
    if (enrich.explode()) {
      if (!(value instanceof List<?> elements)) {
        if (fetched.notJson() != null) {
          throw fetched.notJson().adding(" (explode needs a list)");
        }
        throw RequestFailure.of(fetched.request(), "explode needs a list, got " + kind(value))
            .inStep(step);
      }
      if (elements.isEmpty()) {
        trace.dropped(step, row.index(), label(row), "explode: the list is empty");
      }
      run.books().holdRows(step, fetched.request(), elements.size());
      List<Row> exploded = new ArrayList<>(elements.size());
      for (Object element : elements) {
        exploded.add(row.with(enrich.name(), element));
      }
      return new Outcome(exploded);
    }
    return new Outcome(List.of(row.withText(enrich.name(), value, fetched.notJson())));
  }

  /** One request of the step in {@code scope}: the row's, with the element for a forEach. */
  private Fetched fetch(CompiledEnrich enrich, Row row, Scope scope) throws RequestFailure {
    Scope requestScope = Scopes.request(scope, mapping, run.books().deadline());
    String step = "enrich." + enrich.name();
    ResponseChecks checks =
        ResponseChecks.of(enrich.request(), enrich.readsNoBody(), scope, run.redactor());
    List<Page> pages =
        run.fetcher()
            .listing(
                step,
                enrich.request().format(),
                () ->
                    Paginator.of(
                        enrich.paginate(),
                        (number, cursor) ->
                            run.renderer()
                                .render(
                                    enrich.request(), Scopes.page(requestScope, number, cursor)),
                        scope,
                        enrich.rows() != null
                            ? Paginator.ElementCount.of(enrich.rows(), "select")
                            : Paginator.ElementCount.read(enrich.select(), enrich.readsNoBody())),
                checks);
    Page first = pages.get(0);
    if (!checks.complete(first.status())) {
      if (first.status() == 404 || first.status() == 410) {
        return new Fetched(
            null,
            checks.statusMessage(first.request(), first.response()).inStep(step),
            first.request());
      }
      if (first.response().isSuccess()) {
        first.refusedBy("incomplete-status");
      }
      throw checks.incomplete(first.request(), first.response()).inStep(step);
    }
    Object value = null;
    String missing = null;
    RequestFailure notJson = null;
    try {
      // A body that is JSON null has nothing to select or read: missing, as a 404 is, never a
      // blank value nor an internal error.
      boolean nullBody = first.response().body().length > 0 && first.lenient() == null;
      if (enrich.rows() != null) {
        List<Object> joined = new ArrayList<>();
        for (Page page : pages) {
          joined.addAll(page.rows(enrich.rows(), "select"));
        }
        value = joined;
      } else if (enrich.select() != null) {
        if (nullBody) {
          missing = "the answer is JSON null";
        } else {
          value = read(enrich.select(), first.json());
          if (value == NOTHING) {
            value = null;
            missing = "select '" + enrich.select().getPath() + "' found nothing";
          } else if (value == null) {
            // An upstream that says null has not said "none": missing, as a null value is.
            missing = "select '" + enrich.select().getPath() + "' is null";
          }
        }
      } else if (enrich.value() != null) {
        try {
          value = Expressions.onRow(enrich.value(), Scopes.response(scope, first), row);
        } catch (RequestFailure e) {
          if (e.kind() == RequestFailure.Kind.EXPRESSION
              && first.textForNotJson()
              && Expressions.onTheData(e.getCause())) {
            // A sign-in or error page answered 200: named as such, never SpEL's words on text.
            first.refusedBy("not-json");
            throw first.notJson();
          }
          if (!nullBody) {
            throw e;
          }
          missing =
              "the answer is JSON null ('" + enrich.value().source().text() + "' failed on it)";
        }
        if (value instanceof List<?> read && enrich.paginate() == null) {
          // A list the value read out of the body (an envelope's items): a page that says more
          // follow is the 502 an indefinite select gets, over what the value read.
          SinglePage.checkRead(first, read);
        }
        if (value == null && missing == null) {
          // An absent header, an empty one (read as absent), a null field.
          missing = "value '" + enrich.value().source().text() + "' is null";
        }
        if (missing == null) {
          // Outside the try above: a refusal by the budget is no missing value.
          run.books()
              .holdBuilt(
                  "value '" + enrich.value().source().text() + "' on row " + row.named(), value);
        }
      } else {
        value = first.lenient();
        if (nullBody) {
          missing = "the answer is JSON null";
        } else if (first.textForNotJson()) {
          notJson = first.notJson().inStep(step);
        }
      }
    } catch (RequestFailure e) {
      throw e.inStep(step);
    }
    if (missing != null) {
      return new Fetched(
          null, RequestFailure.of(first.request(), missing).inStep(step), first.request());
    }
    return new Fetched(value, null, first.request(), notJson);
  }

  /** What a definite {@code select} gives when its path is not there. */
  private static final Object NOTHING = new Object();

  private static Object read(com.jayway.jsonpath.JsonPath select, Object document) {
    try {
      return select.read(document, JsonPaths.CONFIGURATION);
    } catch (PathNotFoundException e) {
      return NOTHING;
    }
  }

  private Outcome missing(CompiledEnrich enrich, Row row, RequestFailure why)
      throws RequestFailure {
    OnMissing onMissing = enrich.onMissing();
    return switch (onMissing) {
      case DROP -> {
        trace.dropped(
            "enrich." + enrich.name(),
            row.index(),
            label(row),
            "onMissing: drop (" + why.getMessage() + ")");
        yield new Outcome(List.of());
      }
      case NULL -> new Outcome(List.of(row.with(enrich.name(), null)));
      default -> throw why;
    };
  }

  private String label(Row row) {
    return RowLabels.ofDropped(trace, mapping, row, base, run.redactor());
  }

  private static String kind(Object value) {
    if (value == null) {
      return "null";
    }
    if (value instanceof Map) {
      return "an object";
    }
    if (value instanceof String) {
      return "a string";
    }
    return value.getClass().getSimpleName().toLowerCase();
  }
}
