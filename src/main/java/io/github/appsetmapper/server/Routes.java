package io.github.appsetmapper.server;

import io.github.appsetmapper.engine.Engine;
import io.github.appsetmapper.metrics.Metrics;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.server.RoutingHandler;
import io.undertow.server.handlers.GracefulShutdownHandler;
import io.undertow.server.handlers.PathHandler;
import io.undertow.util.AttachmentKey;
import io.undertow.util.Headers;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Every route and the checks in front of it, as Undertow handlers: a {@link PathHandler} for
 * health, readiness and metrics (no token), a {@link RoutingHandler} for the rest. Every other
 * route checks its credentials from the headers first (on the IO thread, before any body is read or
 * any mapping looked up), then readiness where it applies, then reads the body without a worker,
 * and only then takes a worker for the work itself. The work is counted by a {@link
 * GracefulShutdownHandler}, which a shutdown waits on.
 *
 * <p>Each route takes its methods exactly (RFC 9110: a method is case-sensitive; Undertow's router
 * and {@code HttpString} compare them regardless of case), any other gets the 405 with {@code
 * Allow}.
 *
 * <pre>
 * GET  /healthz, /readyz, /metrics (and HEAD)
 * GET  /mappings (and HEAD)                          bearer                       catalog
 * POST /mappings/{name}/api/v1/getparams.execute     bearer, accepting, body      getparams
 * POST /api/v1/getparams.execute                     bearer, accepting, body      getparams
 * POST /mappings/{name}/api/v1/getparams.explain     bearer, accepting, body      explain
 * POST /mappings/{name}/guard/reset                  bearer, body                 guard reset
 * POST /mappings/{name}/cache/invalidate             webhook credentials, body    invalidate
 * POST /mappings/{name}/shadow/api/v1/getparams.execute  bearer, accepting, body  candidate
 * GET  /mappings/{name}/shadow (and HEAD)            bearer                       differences
 * </pre>
 */
final class Routes implements HttpHandler {
  private static final AttachmentKey<HttpHandler> WORK = AttachmentKey.create(HttpHandler.class);
  private static final String HEALTHY = "{\"status\":\"ok\"}";

  private final ServerState state;
  private final Metrics metrics;
  private final Refusals refusals;
  private final GracefulShutdownHandler work;
  private final HttpHandler routes;

  /** Every path under /mappings/, getparams first: the path handler would pass them on as is. */
  private final HttpHandler byName;

  Routes(
      ServerOptions options,
      ServerState state,
      AtomicReference<MappingRegistry> registry,
      Engine engine,
      Metrics metrics,
      Shadowing shadowing) {
    this.state = state;
    this.metrics = metrics;
    ErrorAnswers errors = new ErrorAnswers(engine.redactor());
    this.refusals =
        new Refusals(
            errors,
            metrics,
            new BodyDrain(Math.max(options.maxBodyBytes(), options.webhookMaxBodyBytes())));
    this.work =
        new GracefulShutdownHandler(
            exchange -> exchange.getAttachment(WORK).handleRequest(exchange));
    HttpHandler getparams =
        named(
            "getparams",
            bearer(
                options,
                gate(
                    new BodyReader(
                        options.maxBodyBytes(),
                        refusals,
                        tracked(new GetParamsHandler(registry, engine, errors, metrics, shadowing)),
                        exchange -> GetParamsHandler.answersInline(registry.get(), exchange)))));
    HttpHandler explain =
        named(
            "explain",
            bearer(options, gate(body(options, new ExplainHandler(registry, engine, refusals)))));
    HttpHandler catalog =
        named(
            "mappings",
            bearer(
                options,
                exchange ->
                    exchange.dispatch(tracked(new CatalogHandler(registry, engine.guard())))));
    HttpHandler guardReset =
        named(
            "guard_reset",
            bearer(
                options,
                body(
                    options,
                    new AdminHandler(
                        AdminHandler.Action.GUARD_RESET, registry, engine, refusals))));
    HttpHandler invalidate =
        named(
            "cache_invalidate",
            new WebhookAuth(
                options,
                refusals,
                body(
                    options,
                    new AdminHandler(
                        AdminHandler.Action.CACHE_INVALIDATE, registry, engine, refusals))));
    HttpHandler candidate =
        named(
            "shadow_getparams",
            bearer(options, gate(body(options, new CandidateHandler(shadowing, errors)))));
    HttpHandler differences =
        named(
            "shadow",
            bearer(
                options,
                exchange ->
                    exchange.dispatch(tracked(new ShadowReportHandler(shadowing, refusals)))));
    // The 405 of a route: the token first, as on every route (without it a caller learns
    // nothing, not even which paths and methods exist).
    HttpHandler wrongMethod = bearer(options, this::wrongMethod);
    // The router compares methods regardless of case ("post" took the POST route): each route
    // checks its own exactly, as RFC 9110 has methods case-sensitive.
    RoutingHandler routing =
        new RoutingHandler(false)
            .get("/mappings", readOnly(catalog, wrongMethod))
            .add("HEAD", "/mappings", readOnly(catalog, wrongMethod))
            .get("/mappings/", readOnly(catalog, wrongMethod))
            .add("HEAD", "/mappings/", readOnly(catalog, wrongMethod))
            .post(GetparamsRoute.TEMPLATE, exactly("POST", getparams, wrongMethod))
            .post("/api/v1/getparams.execute", exactly("POST", getparams, wrongMethod))
            .post(
                "/mappings/{name}/api/v1/getparams.explain", exactly("POST", explain, wrongMethod))
            .post("/mappings/{name}/guard/reset", exactly("POST", guardReset, wrongMethod))
            .post("/mappings/{name}/cache/invalidate", exactly("POST", invalidate, wrongMethod))
            .post(
                "/mappings/{name}/shadow/api/v1/getparams.execute",
                exactly("POST", candidate, wrongMethod))
            .get("/mappings/{name}/shadow", readOnly(differences, wrongMethod))
            .add("HEAD", "/mappings/{name}/shadow", readOnly(differences, wrongMethod))
            // The token first, as on every route: without it a caller learns nothing, not even
            // which paths and methods exist.
            .setFallbackHandler(
                bearer(
                    options,
                    exchange ->
                        refusals.refuse(
                            exchange,
                            new HttpError(
                                404,
                                "unknown path '"
                                    + exchange.getRequestPath()
                                    + "'; getparams is POST /mappings/<name>/api/v1/getparams.execute"),
                            null)))
            .setInvalidMethodHandler(wrongMethod);
    this.byName =
        new ReadDeadline(options.readTimeout(), refusals, new GetparamsRoute(getparams, routing));
    // Health, readiness and metrics take GET and HEAD, no token and no body: probes stay cheap.
    this.routes =
        new PathHandler(byName)
            .addExactPath("/healthz", probe(exchange -> Exchanges.send(exchange, 200, HEALTHY)))
            .addExactPath("/readyz", probe(this::readiness))
            .addExactPath("/metrics", probe(this::metrics));
  }

  /** {@code next} for a request whose method is exactly {@code method}, else {@code refuse}. */
  private static HttpHandler exactly(String method, HttpHandler next, HttpHandler refuse) {
    return exchange -> (Refusals.is(exchange, method) ? next : refuse).handleRequest(exchange);
  }

  /**
   * A route that reads: GET or HEAD exactly (RFC 9110 has HEAD wherever GET is; the answer's body
   * is not sent), else {@code refuse}.
   */
  private static HttpHandler readOnly(HttpHandler next, HttpHandler refuse) {
    return exchange ->
        (Refusals.is(exchange, "GET") || Refusals.is(exchange, "HEAD") ? next : refuse)
            .handleRequest(exchange);
  }

  /** A probe's route: GET or HEAD, exactly, else the 405 (no token: the paths are public). */
  private HttpHandler probe(HttpHandler next) {
    return exchange -> {
      if (Refusals.is(exchange, "GET") || Refusals.is(exchange, "HEAD")) {
        next.handleRequest(exchange);
      } else {
        wrongMethod(exchange);
      }
    };
  }

  /** The 405, naming the methods the route takes, also in {@code Allow}. */
  private void wrongMethod(HttpServerExchange exchange) {
    refusals.refuse(
        exchange,
        new HttpError(
            405,
            "method "
                + exchange.getRequestMethod()
                + " not allowed; use "
                + Refusals.allowed(exchange)),
        null);
  }

  private final java.util.concurrent.ExecutorService scraper =
      java.util.concurrent.Executors.newSingleThreadExecutor(
          r -> {
            Thread thread = new Thread(r, "metrics-scrape");
            thread.setDaemon(true);
            return thread;
          });

  /** Stops the scrape thread, once the listener is closed. */
  void closeScraper() {
    scraper.shutdownNow();
  }

  /** Requests being worked on, for a graceful shutdown to wait on. */
  GracefulShutdownHandler work() {
    return work;
  }

  @Override
  public void handleRequest(HttpServerExchange exchange) throws Exception {
    (GetparamsRoute.mayBe(exchange.getRelativePath()) ? byName : routes).handleRequest(exchange);
  }

  private void readiness(HttpServerExchange exchange) {
    boolean ready = state.ready();
    Exchanges.send(
        exchange, ready ? 200 : 503, ready ? "{\"status\":\"ready\"}" : Json.error("not ready"));
  }

  private void metrics(HttpServerExchange exchange) {
    // A scrape runs on a thread of its own, not a worker: when every worker waits on a slow
    // upstream, that is when the metrics are needed.
    exchange.dispatch(
        scraper,
        done -> {
          done.setStatusCode(200);
          done.getResponseHeaders()
              .put(Headers.CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8");
          done.getResponseSender().send(metrics.scrape(), StandardCharsets.UTF_8);
        });
  }

  private static HttpHandler named(String route, HttpHandler next) {
    return exchange -> {
      exchange.putAttachment(Exchanges.ROUTE, route);
      next.handleRequest(exchange);
    };
  }

  private HttpHandler bearer(ServerOptions options, HttpHandler next) {
    return new BearerAuth(options.tokens(), refusals, next);
  }

  private HttpHandler gate(HttpHandler next) {
    return new AcceptingGate(state, refusals, next);
  }

  /** Reads the body, then runs {@code handler} on a worker, counted for shutdown. */
  private HttpHandler body(ServerOptions options, HttpHandler handler) {
    return new BodyReader(options.maxBodyBytes(), refusals, tracked(handler));
  }

  private HttpHandler tracked(HttpHandler handler) {
    return exchange -> {
      exchange.putAttachment(WORK, handler);
      work.handleRequest(exchange);
    };
  }
}
