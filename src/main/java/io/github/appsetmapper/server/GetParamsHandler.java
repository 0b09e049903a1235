package io.github.appsetmapper.server;

import io.github.appsetmapper.compile.CompiledMapping;
import io.github.appsetmapper.engine.Answer;
import io.github.appsetmapper.engine.Engine;
import io.github.appsetmapper.engine.GetparamsTracing;
import io.github.appsetmapper.engine.Invocation;
import io.github.appsetmapper.engine.Trace;
import io.github.appsetmapper.expr.EvaluationBudget;
import io.github.appsetmapper.logging.LogText;
import io.github.appsetmapper.metrics.Metrics;
import io.github.appsetmapper.metrics.MetricsTrace;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.HttpString;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code POST /mappings/<name>/api/v1/getparams.execute} (and the default route), on a worker
 * thread once the token, readiness and body checks passed: mapping (404), body shape (400), then
 * the engine. One log line and the metrics per call.
 */
final class GetParamsHandler implements HttpHandler {
  private static final Logger LOG = LoggerFactory.getLogger("appset_mapper.getparams");

  /** Set on an answer built (in part) from stale cache entries because an upstream failed. */
  static final HttpString STALE_HEADER = new HttpString("X-Appset-Mapper-Stale");

  /** The getparams' trace id when tracing is on, on every answer (and in an error's line). */
  static final HttpString TRACE_HEADER = new HttpString("X-Trace-Id");

  private final AtomicReference<MappingRegistry> registry;
  private final Engine engine;
  private final ErrorAnswers errors;
  private final Metrics metrics;
  private final Shadowing shadowing;

  GetParamsHandler(
      AtomicReference<MappingRegistry> registry,
      Engine engine,
      ErrorAnswers errors,
      Metrics metrics,
      Shadowing shadowing) {
    this.registry = registry;
    this.engine = engine;
    this.errors = errors;
    this.metrics = metrics;
    this.shadowing = shadowing;
  }

  /**
   * The largest body answered on the IO thread: what an answer costs grows with its input (the
   * expressions over it, the secret check over every text it answers), and an input of a megabyte
   * echoed held the IO thread, and /healthz behind it, for most of a second.
   */
  static final int INLINE_BODY_BYTES = 16 * 1024;

  /**
   * Whether the answer may be computed on the IO thread: the mapping makes no upstream call and has
   * no {@code maxDrop} (whose baselines may live in Redis), so nothing blocks (its expressions are
   * bounded by the evaluation budget and the deadline), and the body is small ({@link
   * #INLINE_BODY_BYTES}).
   */
  static boolean answersInline(MappingRegistry mappings, HttpServerExchange exchange) {
    byte[] body = exchange.getAttachment(Exchanges.BODY);
    if (body != null && body.length > INLINE_BODY_BYTES) {
      return false;
    }
    String name = Exchanges.mappingName(exchange);
    if (name == null) {
      name = mappings.defaultName();
    }
    CompiledMapping mapping = name == null ? null : mappings.find(name).orElse(null);
    return mapping != null && !Engine.makesCalls(mapping) && mapping.maxDrop() == null;
  }

  /**
   * The evaluation steps a getparams answered on the IO thread may take ({@link
   * EvaluationBudget#slice}): past them, or at its first costly step, it is abandoned and run again
   * from the start on a worker, so that a heavy expression over a small input holds neither the IO
   * thread nor /healthz and the other connections behind it. The bench's static answer, or one with
   * a few functions over a short list, takes about a hundred (InlineSliceTest).
   */
  static final int INLINE_STEPS = 16 * 1024;

  @Override
  public void handleRequest(HttpServerExchange exchange) {
    long started = System.nanoTime();
    GetparamsTracing.Traced traced = traced(exchange);
    String traceId = traced.traceId();
    if (traceId != null) {
      exchange.getResponseHeaders().put(TRACE_HEADER, traceId);
    }
    answer(exchange, started, traced, exchange.isInIoThread());
  }

  /**
   * Answers, on the IO thread within {@link #INLINE_STEPS} ({@code inline}) or on a worker. A run
   * moved from the IO thread keeps its arrival ({@code started}: its deadline, its time in the log
   * and metrics) and its trace, and is logged, counted and traced once, by the run that answers.
   */
  private void answer(
      HttpServerExchange exchange, long started, GetparamsTracing.Traced traced, boolean inline) {
    String traceId = traced.traceId();
    String mappingName = null;
    Invocation invocation = null;
    MetricsTrace trace = null;
    CompiledMapping live = null;
    Trace watched = null;
    boolean coalesced = false;
    boolean stale = false;
    try {
      MappingRegistry mappings = registry.get();
      mappingName = Exchanges.mappingName(exchange);
      if (mappingName == null) {
        mappingName = mappings.defaultName();
        if (mappingName == null) {
          mappings.requireRunning();
          throw new HttpError(
              404,
              "no default mapping: call /mappings/<name>/api/v1/getparams.execute or start with"
                  + " --default-mapping; known: "
                  + mappings.known());
        }
      }
      CompiledMapping mapping = mappings.requireRunnable(mappingName);
      live = mapping;
      invocation = GetParamsParser.parse(Exchanges.body(exchange));
      trace = new MetricsTrace(metrics, mapping.name(), mapping.metricHosts());
      watched = shadowing.watch(mapping, traced.around(trace, mapping));
      Answer answer =
          engine.answer(mapping, invocation, watched, started, inline ? INLINE_STEPS : 0);
      if (answer == null) {
        // Outgrew the slice: nothing was answered, logged or counted; the worker starts over.
        bookkeep(() -> metrics.movedToWorker(mapping.name()));
        exchange.dispatch(moved -> answer(moved, started, traced, false));
        return;
      }
      List<Map<String, Object>> parameters = answer.parameters();
      // Written by the engine within the deadline (an answer of many large numbers takes seconds).
      byte[] body = answer.body();
      coalesced = answer.coalesced();
      stale = answer.isStale();
      if (answer.coalesced()) {
        bookkeep(() -> metrics.coalescedGetparams(mapping.name()));
      }
      if (answer.isStale()) {
        exchange.getResponseHeaders().put(STALE_HEADER, "true");
        bookkeep(() -> metrics.staleAnswer(mapping.name()));
        LOG.warn(
            "mapping={} appset={} answered from the last good upstream answers (staleIfError): {}",
            mapping.name(),
            appSet(invocation),
            String.join("; ", answer.stale()));
      }
      // Logged before the answer leaves, so the line exists once a caller has its answer.
      finish(mappingName, invocation, 200, parameters.size(), started, trace, null, traceId);
      endTrace(
          traced, loaded(mappingName), invocation, 200, parameters.size(), null, coalesced, stale);
      Exchanges.send(exchange, 200, "application/json", body);
      if (!answer.coalesced()) {
        // A coalesced answer's leader hands the same input to the shadow already.
        shadow(live, invocation, watched, parameters, null);
      }
    } catch (Exception | StackOverflowError failure) {
      ErrorAnswer answer = errors.map(failure);
      if (ErrorAnswers.unexpected(failure)) {
        // Any message in the chain may hold a secret (a URL, an upstream's words): redacted.
        LOG.error(
            "unexpected failure on {}",
            errors.field(exchange.getRequestPath()),
            engine.redactor().scrub(failure));
      }
      if (failure instanceof HttpError refusal && refusal.reason() != null) {
        bookkeep(() -> metrics.refused("getparams", refusal.reason()));
      }
      finish(
          mappingName, invocation, answer.status(), -1, started, trace, answer.message(), traceId);
      endTrace(
          traced,
          loaded(mappingName),
          invocation,
          answer.status(),
          -1,
          answer.message(),
          false,
          false);
      // The trace id in the line itself: Argo CD shows the line in the ApplicationSet's status.
      String line = answer.message() + traced.errorSuffix();
      Exchanges.send(exchange, answer.status(), Json.error(line));
      if (live != null && invocation != null && watched != null) {
        shadow(live, invocation, watched, null, answer);
      }
    }
  }

  /** After the live answer left: the candidate of the same name, if any, is handed the input. */
  private void shadow(
      CompiledMapping mapping,
      Invocation invocation,
      Trace watched,
      List<Map<String, Object>> rows,
      ErrorAnswer failure) {
    try {
      shadowing.after(mapping, invocation, watched, rows, failure);
    } catch (RuntimeException | StackOverflowError e) {
      LOG.error("shadow hand-off failed", e);
    }
  }

  /** A loaded mapping's name, else "unknown": a path a caller made up is no span attribute. */
  private String loaded(String mapping) {
    return mapping == null ? null : registry.get().find(mapping).isPresent() ? mapping : "unknown";
  }

  /** The getparams' trace (off when tracing is): opened with the caller's trace context. */
  private GetparamsTracing.Traced traced(HttpServerExchange exchange) {
    try {
      String route =
          Exchanges.mappingName(exchange) == null
              ? "/api/v1/getparams.execute"
              : "/mappings/{mapping}/api/v1/getparams.execute";
      return engine.tracing().start(route, name -> exchange.getRequestHeaders().getFirst(name));
    } catch (RuntimeException e) {
      LOG.error("starting a trace failed", e);
      return GetparamsTracing.Traced.OFF;
    }
  }

  private static void endTrace(
      GetparamsTracing.Traced traced,
      String mapping,
      Invocation invocation,
      int status,
      int rows,
      String error,
      boolean coalesced,
      boolean stale) {
    bookkeep(
        () ->
            traced.end(
                new GetparamsTracing.Ended(
                    mapping,
                    invocation == null ? null : invocation.applicationSetName(),
                    status,
                    rows,
                    error,
                    coalesced,
                    stale)));
  }

  private String appSet(Invocation invocation) {
    return errors.appSet(invocation == null ? null : invocation.applicationSetName());
  }

  /** Bookkeeping must never change an answer. */
  private static void bookkeep(Runnable bookkeeping) {
    try {
      bookkeeping.run();
    } catch (RuntimeException e) {
      LOG.error("recording metrics failed", e);
    }
  }

  /** The log line and the metrics of one getparams. */
  private void finish(
      String mapping,
      Invocation invocation,
      int status,
      int rows,
      long started,
      MetricsTrace trace,
      String error,
      String traceId) {
    long nanos = System.nanoTime() - started;
    boolean loaded = mapping != null && registry.get().find(mapping).isPresent();
    if (mapping != null) {
      // Only loaded names become label values: a scan of random paths cannot grow the metrics.
      String label = loaded ? mapping : "unknown";
      bookkeep(() -> metrics.getparams(label, status, nanos, rows));
    }
    int calls = trace == null ? 0 : trace.calls();
    long millis = nanos / 1_000_000;
    // The line built here rather than by the logger's {} arguments: the same text, without the
    // formatter's parse of the pattern and its arguments' array on every getparams.
    StringBuilder line = new StringBuilder(128);
    // A name no mapping has came from the caller's path: redacted, as the error quoting it is.
    line.append("mapping=").append(loaded ? LogText.value(mapping) : errors.field(mapping));
    line.append(" appset=").append(appSet(invocation));
    line.append(" status=").append(status);
    if (error == null) {
      line.append(" rows=").append(rows);
    }
    line.append(" upstream_calls=").append(calls).append(" ms=").append(millis);
    if (traceId != null) {
      line.append(" trace_id=").append(traceId);
    }
    if (error != null) {
      line.append(" error=").append(LogText.quoted(error));
    }
    LOG.info(line.toString());
  }
}
