package io.github.appsetmapper.server;

import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;

/** Once the server stops accepting, getparams and explain calls get a 503 that says to retry. */
final class AcceptingGate implements HttpHandler {
  private final ServerState state;
  private final Refusals refusals;
  private final HttpHandler next;

  AcceptingGate(ServerState state, Refusals refusals, HttpHandler next) {
    this.state = state;
    this.refusals = refusals;
    this.next = next;
  }

  @Override
  public void handleRequest(HttpServerExchange exchange) throws Exception {
    if (!state.accepting()) {
      refusals.refuse(
          exchange,
          new HttpError(503, "the server is shutting down; retry", "shutting_down"),
          null);
      return;
    }
    next.handleRequest(exchange);
  }
}
