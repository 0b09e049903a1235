package io.github.appsetmapper.server;

import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;

/**
 * The bearer token, checked on the IO thread from the headers alone, before anything else of the
 * request is read or looked up: a caller without it costs no worker and learns nothing.
 */
final class BearerAuth implements HttpHandler {
  private final Tokens tokens;
  private final Refusals refusals;
  private final HttpHandler next;

  BearerAuth(Tokens tokens, Refusals refusals, HttpHandler next) {
    this.tokens = tokens;
    this.refusals = refusals;
    this.next = next;
  }

  @Override
  public void handleRequest(HttpServerExchange exchange) throws Exception {
    if (tokens == null) {
      next.handleRequest(exchange);
      return;
    }
    String presented = Exchanges.bearer(exchange);
    if (!tokens.accepts(presented)) {
      refusals.refuse(
          exchange,
          new HttpError(403, "forbidden", "forbidden"),
          presented == null ? "no bearer token" : "the bearer token did not match");
      return;
    }
    next.handleRequest(exchange);
  }
}
