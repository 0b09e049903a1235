package io.github.appsetmapper.server;

import io.github.appsetmapper.metrics.Metrics;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers a request refused before its handler runs (method, token, body, shutdown): one log line
 * saying why (never a token), the refusal metric, and the {@code {"error":...}} answer.
 */
final class Refusals {
  private static final Logger LOG = LoggerFactory.getLogger("appset_mapper.server");

  private final ErrorAnswers errors;
  private final Metrics metrics;
  private final BodyDrain drain;

  Refusals(ErrorAnswers errors, Metrics metrics, BodyDrain drain) {
    this.errors = errors;
    this.metrics = metrics;
    this.drain = drain;
  }

  BodyDrain drain() {
    return drain;
  }

  ErrorAnswers errors() {
    return errors;
  }

  Metrics metrics() {
    return metrics;
  }

  /** Answers {@code refusal}; {@code why} is for the log only (null: the answer's message). */
  void refuse(HttpServerExchange exchange, HttpError refusal, String why) {
    count(exchange, refusal);
    // Redacted as the answer is: a path or a message may quote a secret a caller sent.
    LOG.warn(
        "refused {} {} from {}: {}",
        errors.field(exchange.getRequestMethod()),
        errors.field(exchange.getRequestPath()),
        Exchanges.client(exchange),
        errors.redact(why == null ? refusal.getMessage() : why));
    answer(exchange, refusal);
  }

  /** Counts a refusal that has a reason. */
  void count(HttpServerExchange exchange, HttpError refusal) {
    if (refusal.reason() == null) {
      return;
    }
    try {
      metrics.refused(Exchanges.route(exchange), refusal.reason());
    } catch (RuntimeException e) {
      // Bookkeeping must never change an answer.
      LOG.error("recording metrics failed", e);
    }
  }

  /**
   * The answer alone, for refusals whose handler logs them itself. A body not read yet is read and
   * discarded first ({@link BodyDrain}): an answer sent while the caller still sends is lost to a
   * reset connection.
   */
  void answer(HttpServerExchange exchange, HttpError refusal) {
    ErrorAnswer answer = errors.map(refusal);
    if (answer.status() == 405) {
      exchange.getResponseHeaders().put(Headers.ALLOW, allowed(exchange));
    }
    drain.thenAnswer(
        exchange, () -> Exchanges.send(exchange, answer.status(), Json.error(answer.message())));
  }

  /**
   * The methods a route takes: GET and HEAD for the probes and metrics, GET for the catalogue and a
   * shadow's differences, POST for the rest.
   */
  static String allowed(HttpServerExchange exchange) {
    String path = exchange.getRequestPath();
    // The path handler takes "/healthz/" as "/healthz": so must the Allow (it said POST).
    while (path.length() > 1 && path.endsWith("/")) {
      path = path.substring(0, path.length() - 1);
    }
    return path.equals("/healthz")
            || path.equals("/readyz")
            || path.equals("/metrics")
            || path.equals("/mappings")
            || path.endsWith("/shadow")
        ? "GET, HEAD"
        : "POST";
  }

  /**
   * Whether the request's method is exactly {@code method}: case-sensitive, as RFC 9110 has it
   * ({@code HttpString.equals} ignores case, so {@code post} was POST). Allocates nothing: a
   * method's text is kept by its {@code HttpString}.
   */
  static boolean is(HttpServerExchange exchange, String method) {
    return exchange.getRequestMethod().toString().equals(method);
  }
}
