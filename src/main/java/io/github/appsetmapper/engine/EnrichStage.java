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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One enrich step over all rows: at most {@code concurrency} rows' requests at once, results kept
 * in row order, the first failure (in row order) failing the whole answer.
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

  List<Row> run(CompiledEnrich enrich, List<Row> rows, Scope base) throws RequestFailure {
    List<Outcome> outcomes = new ArrayList<>(rows.size());
    if (rows.size() <= 1 || mapping.concurrency() == 1) {
      for (Row row : rows) {
        outcomes.add(one(enrich, row, base));
      }
    } else {
      outcomes = parallel(enrich, rows, base);
    }
    List<Row> out = new ArrayList<>();
    for (Outcome outcome : outcomes) {
      out.addAll(outcome.rows());
    }
    return out;
  }

  /**
   * The rows' requests on the pool, at most {@code concurrency} at once. Every wait (for a slot,
   * for a row's outcome) ends with the mapping's deadline, and each task evaluates under it too, so
   * a stuck row never holds the answer, or its thread, past the deadline.
   */
  private List<Outcome> parallel(CompiledEnrich enrich, List<Row> rows, Scope base)
      throws RequestFailure {
    Semaphore slots = new Semaphore(mapping.concurrency());
    AtomicBoolean failed = new AtomicBoolean();
    List<Future<Outcome>> futures = new ArrayList<>(rows.size());
    Deadline deadline = run.books().deadline();
    try {
      for (Row row : rows) {
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
                          EvaluationBudget.until(deadline.endNanos())) {
                        return failed.get() ? null : one(enrich, row, base);
                      } catch (Exception e) {
                        failed.set(true);
                        throw e;
                      } finally {
                        slots.release();
                      }
                    }));
      }
      List<Outcome> outcomes = new ArrayList<>(rows.size());
      for (Future<Outcome> future : futures) {
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

  private Outcome one(CompiledEnrich enrich, Row row, Scope base) throws RequestFailure {
    Scope scope = Scopes.row(base, row);
    Scope requestScope = Scopes.request(scope, mapping);
    String step = "enrich." + enrich.name();
    ResponseChecks checks =
        ResponseChecks.of(enrich.request(), enrich.readsNoBody(), scope, run.redactor());
    List<Page> pages =
        run.fetcher()
            .listing(
                step,
                () ->
                    Paginator.of(
                        enrich.paginate(),
                        (number, cursor) ->
                            run.renderer()
                                .render(
                                    enrich.request(), Scopes.page(requestScope, number, cursor)),
                        scope,
                        page -> page.rows(enrich.rows(), "select").size()),
                checks);
    Page first = pages.get(0);
    if (!checks.complete(first.status())) {
      if (first.status() == 404 || first.status() == 410) {
        return missing(
            enrich, row, checks.statusMessage(first.request(), first.response()).inStep(step));
      }
      if (first.response().isSuccess()) {
        first.refusedBy("incomplete-status");
      }
      throw checks.incomplete(first.request(), first.response()).inStep(step);
    }
    Object value;
    String missing = null;
    try {
      if (enrich.rows() != null) {
        List<Object> joined = new ArrayList<>();
        for (Page page : pages) {
          joined.addAll(page.rows(enrich.rows(), "select"));
        }
        value = joined;
      } else if (enrich.select() != null) {
        value = read(enrich.select(), first.json());
        if (value == NOTHING) {
          missing = "select '" + enrich.select().getPath() + "' found nothing";
        }
      } else if (enrich.value() != null) {
        value = Expressions.onRow(enrich.value(), Scopes.response(scope, first), row);
        if (value == null) {
          missing = "value '" + enrich.value().source().text() + "' is null";
        }
      } else {
        value = first.lenient();
      }
    } catch (RequestFailure e) {
      throw e.inStep(step);
    }
    if (missing != null) {
      return missing(enrich, row, RequestFailure.of(first.request(), missing).inStep(step));
    }
    if (enrich.explode()) {
      if (!(value instanceof List<?> elements)) {
        throw RequestFailure.of(first.request(), "explode needs a list, got " + kind(value))
            .inStep(step);
      }
      if (elements.isEmpty()) {
        trace.dropped(
            "enrich." + enrich.name(), row.index(), label(row), "explode: the list is empty");
      }
      run.books().holdRows(step, first.request(), elements.size());
      List<Row> exploded = new ArrayList<>(elements.size());
      for (Object element : elements) {
        exploded.add(row.with(enrich.name(), element));
      }
      return new Outcome(exploded);
    }
    return new Outcome(List.of(row.with(enrich.name(), value)));
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
    return trace.explaining() ? RowLabels.of(mapping, row, base) : null;
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
