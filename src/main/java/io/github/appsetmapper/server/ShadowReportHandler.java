package io.github.appsetmapper.server;

import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;

/**
 * {@code GET /mappings/<name>/shadow}: what the candidate of that name would change, the last
 * differences with their inputs, redacted; 404 for a name without a candidate.
 */
final class ShadowReportHandler implements HttpHandler {
  private final Shadowing shadowing;
  private final Refusals refusals;

  ShadowReportHandler(Shadowing shadowing, Refusals refusals) {
    this.shadowing = shadowing;
    this.refusals = refusals;
  }

  @Override
  public void handleRequest(HttpServerExchange exchange) {
    String name = Exchanges.mappingName(exchange);
    String report = shadowing.report(name);
    if (report == null) {
      refusals.refuse(
          exchange, new HttpError(404, "no candidate mapping '" + name + "' under --shadow"), null);
      return;
    }
    Exchanges.send(exchange, 200, report);
  }
}
