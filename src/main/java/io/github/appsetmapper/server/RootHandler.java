package io.github.appsetmapper.server;

import io.github.appsetmapper.compile.CompiledMapping;
import io.github.appsetmapper.engine.Answer;
import io.github.appsetmapper.engine.Engine;
import io.github.appsetmapper.engine.Invocation;
import io.github.appsetmapper.metrics.Metrics;
import io.github.appsetmapper.metrics.MetricsTrace;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.HeaderValues;
import io.undertow.util.Headers;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Routes and answers: health on the IO thread, everything else dispatched to a worker thread
 * because getparams blocks on upstream calls. Order of checks for getparams: method (405), token
 * (403, before anything else runs or is revealed), mapping (404), body (413, 400), then the engine.
 */
final class RootHandler implements HttpHandler {
  private static final Logger LOG = LoggerFactory.getLogger("appset_mapper.getparams");
  private static final Pattern MAPPING_ROUTE =
      Pattern.compile("/mappings/([^/]+)/api/v1/getparams\\.execute");
  private static final String DEFAULT_ROUTE = "/api/v1/getparams.execute";

  /** Set on an answer built (in part) from stale cache entries because an upstream failed. */
  static final io.undertow.util.HttpString STALE_HEADER =
      new io.undertow.util.HttpString("X-Appset-Mapper-Stale");

  private static final Pattern EXPLAIN_ROUTE =
      Pattern.compile("/mappings/([^/]+)/api/v1/getparams\\.explain");

  private final ServerOptions options;
  private final AtomicReference<MappingRegistry> registry;
  private final Engine engine;
  private final ErrorAnswers errors;
  private final Metrics metrics;
  private final ExplainHandler explain;
  private final AdminHandler admin;
  private volatile boolean ready;
  private volatile boolean accepting = true;
  private final java.util.concurrent.atomic.AtomicInteger inFlight =
      new java.util.concurrent.atomic.AtomicInteger();

  RootHandler(
      ServerOptions options,
      AtomicReference<MappingRegistry> registry,
      Engine engine,
      Metrics metrics) {
    this.options = options;
    this.registry = registry;
    this.engine = engine;
    this.errors = new ErrorAnswers(engine.redactor());
    this.metrics = metrics;
    this.explain = new ExplainHandler(this, registry, engine, errors);
    this.admin = new AdminHandler(this, options, registry, engine);
  }

  void ready(boolean value) {
    ready = value;
  }

  /** From now on getparams answers 503 (readiness is separate: it fails first, while draining). */
  void stopAccepting() {
    accepting = false;
  }

  /** Waits until no request is being handled, or the time is up; true when idle. */
  boolean awaitIdle(java.time.Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (inFlight.get() > 0) {
      if (System.nanoTime() > deadline) {
        return false;
      }
      Thread.sleep(20);
    }
    return true;
  }

  /** Whether getparams (and explain) calls are still taken: false once draining is over. */
  boolean ready() {
    return accepting;
  }

  @Override
  public void handleRequest(HttpServerExchange exchange) {
    String path = exchange.getRequestPath();
    if (path.equals("/healthz")) {
      send(exchange, 200, "{\"status\":\"ok\"}");
      return;
    }
    if (path.equals("/readyz")) {
      send(exchange, ready ? 200 : 503, ready ? "{\"status\":\"ready\"}" : Json.error("not ready"));
      return;
    }
    if (exchange.isInIoThread()) {
      exchange.dispatch(this);
      return;
    }
    if (path.equals("/metrics")) {
      exchange.setStatusCode(200);
      exchange
          .getResponseHeaders()
          .put(Headers.CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8");
      exchange.getResponseSender().send(metrics.scrape(), StandardCharsets.UTF_8);
      return;
    }
    inFlight.incrementAndGet();
    try {
      handle(exchange, path);
    } finally {
      inFlight.decrementAndGet();
    }
  }

  private void handle(HttpServerExchange exchange, String path) {
    Matcher explainRoute = EXPLAIN_ROUTE.matcher(path);
    if (explainRoute.matches()) {
      explain.handle(exchange, explainRoute.group(1));
      return;
    }
    long started = System.nanoTime();
    String mappingName = null;
    Invocation invocation = null;
    MetricsTrace trace = null;
    try {
      Matcher matcher = MAPPING_ROUTE.matcher(path);
      boolean isDefault = path.equals(DEFAULT_ROUTE);
      if (path.equals("/mappings") || path.equals("/mappings/")) {
        requireMethod(exchange, "GET");
        authorize(exchange);
        send(exchange, 200, Json.write(MappingCatalog.describe(registry.get(), engine.guard())));
        return;
      }
      Matcher adminRoute = AdminHandler.ROUTE.matcher(path);
      if (adminRoute.matches()) {
        admin.handle(exchange, adminRoute.group(1), adminRoute.group(2));
        return;
      }
      if (!matcher.matches() && !isDefault) {
        throw new HttpError(
            404,
            "unknown path '"
                + path
                + "'; getparams is POST /mappings/<name>/api/v1/getparams.execute");
      }
      requireMethod(exchange, "POST");
      authorize(exchange);
      if (!accepting) {
        throw new HttpError(503, "the server is shutting down; retry");
      }
      MappingRegistry mappings = registry.get();
      mappingName = isDefault ? mappings.defaultName() : matcher.group(1);
      if (mappingName == null) {
        throw new HttpError(
            404,
            "no default mapping: call /mappings/<name>/api/v1/getparams.execute or start with"
                + " --default-mapping; known: "
                + known(mappings));
      }
      String name = mappingName;
      CompiledMapping mapping = mapping(mappings, name);
      invocation = GetParamsParser.parse(readBody(exchange));
      trace = new MetricsTrace(metrics, mapping.name());
      Answer answer = engine.answer(mapping, invocation, trace);
      List<Map<String, Object>> parameters = answer.parameters();
      String body = Json.answer(parameters);
      if (answer.coalesced()) {
        bookkeep(() -> metrics.coalescedGetparams(mapping.name()));
      }
      if (answer.isStale()) {
        exchange.getResponseHeaders().put(STALE_HEADER, "true");
        bookkeep(() -> metrics.staleAnswer(mapping.name()));
        LOG.warn(
            "mapping={} appset={} answered from the last good upstream answers (staleIfError): {}",
            mapping.name(),
            invocation.applicationSetName().isEmpty() ? "-" : invocation.applicationSetName(),
            String.join("; ", answer.stale()));
      }
      // Logged before the answer leaves, so the line exists once a caller has its answer.
      finish(mappingName, invocation, 200, parameters.size(), started, trace, null);
      send(exchange, 200, body);
    } catch (Exception | StackOverflowError failure) {
      ErrorAnswer answer = errors.map(failure);
      if (answer.status() == 405) {
        exchange.getResponseHeaders().put(Headers.ALLOW, path.equals("/mappings") ? "GET" : "POST");
      }
      if (answer.status() == 500
          && !(failure instanceof io.github.appsetmapper.engine.EvaluationException)) {
        // Any message in the chain may hold a secret (a URL, an upstream's words): redacted.
        LOG.error("unexpected failure on {}", path, engine.redactor().scrub(failure));
      }
      finish(mappingName, invocation, answer.status(), -1, started, trace, answer.message());
      send(exchange, answer.status(), Json.error(answer.message()));
    }
  }

  /** Bookkeeping must never change an answer. */
  private static void bookkeep(Runnable bookkeeping) {
    try {
      bookkeeping.run();
    } catch (RuntimeException e) {
      LOG.error("recording metrics failed", e);
    }
  }

  /** The mapping by name, or a 404 that lists the loaded ones. */
  static CompiledMapping mapping(MappingRegistry mappings, String name) throws HttpError {
    return mappings
        .find(name)
        .orElseThrow(
            () -> new HttpError(404, "unknown mapping '" + name + "'; known: " + known(mappings)));
  }

  static String known(MappingRegistry mappings) {
    return mappings.names().isEmpty() ? "(none loaded)" : String.join(", ", mappings.names());
  }

  static void requireMethod(HttpServerExchange exchange, String method) throws HttpError {
    if (!exchange.getRequestMethod().equalToString(method)) {
      throw new HttpError(
          405, "method " + exchange.getRequestMethod() + " not allowed; use " + method);
    }
  }

  void authorize(HttpServerExchange exchange) throws HttpError {
    if (options.tokens() == null) {
      return;
    }
    HeaderValues values = exchange.getRequestHeaders().get(Headers.AUTHORIZATION);
    String presented = null;
    if (values != null && values.size() == 1) {
      String header = values.getFirst();
      if (header.regionMatches(true, 0, "Bearer ", 0, 7)) {
        presented = header.substring(7).strip();
      }
    }
    if (!options.tokens().accepts(presented)) {
      LOG.warn(
          "refused {} {} from {}: {}",
          exchange.getRequestMethod(),
          exchange.getRequestPath(),
          exchange.getSourceAddress() == null
              ? "?"
              : exchange.getSourceAddress().getAddress().getHostAddress(),
          presented == null ? "no bearer token" : "the bearer token did not match");
      throw new HttpError(403, "forbidden");
    }
  }

  byte[] readBody(HttpServerExchange exchange) throws HttpError {
    long limit = options.maxBodyBytes();
    long declared = exchange.getRequestContentLength();
    if (declared > limit) {
      throw new HttpError(413, "the request body is larger than " + limit + " bytes");
    }
    exchange.startBlocking();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] buffer = new byte[8192];
    try (InputStream in = exchange.getInputStream()) {
      long total = 0;
      for (int n; (n = in.read(buffer)) >= 0; ) {
        total += n;
        if (total > limit) {
          throw new HttpError(413, "the request body is larger than " + limit + " bytes");
        }
        out.write(buffer, 0, n);
      }
    } catch (IOException e) {
      throw new HttpError(400, "the request body could not be read");
    }
    return out.toByteArray();
  }

  static void send(HttpServerExchange exchange, int status, String body) {
    if (exchange.isResponseStarted()) {
      return;
    }
    exchange.setStatusCode(status);
    exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "application/json");
    exchange.getResponseSender().send(body, StandardCharsets.UTF_8);
  }

  /** The log line and the metrics of one getparams. */
  private void finish(
      String mapping,
      Invocation invocation,
      int status,
      int rows,
      long started,
      MetricsTrace trace,
      String error) {
    long nanos = System.nanoTime() - started;
    if (mapping != null) {
      // Only loaded names become label values: a scan of random paths cannot grow the metrics.
      String label = registry.get().find(mapping).isPresent() ? mapping : "unknown";
      try {
        metrics.getparams(label, status, nanos, rows);
      } catch (RuntimeException e) {
        // Bookkeeping must never change an answer.
        LOG.error("recording metrics failed", e);
      }
    }
    String appSet =
        invocation == null || invocation.applicationSetName().isEmpty()
            ? "-"
            : invocation.applicationSetName();
    int calls = trace == null ? 0 : trace.calls();
    long millis = nanos / 1_000_000;
    if (error == null) {
      LOG.info(
          "mapping={} appset={} status={} rows={} upstream_calls={} ms={}",
          mapping == null ? "-" : mapping,
          appSet,
          status,
          rows,
          calls,
          millis);
    } else {
      LOG.info(
          "mapping={} appset={} status={} upstream_calls={} ms={} error=\"{}\"",
          mapping == null ? "-" : mapping,
          appSet,
          status,
          calls,
          millis,
          error);
    }
  }
}
