package io.github.appsetmapper.server;

import io.github.appsetmapper.engine.DropGuard;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import java.util.concurrent.atomic.AtomicReference;

/** {@code GET /mappings}: what is loaded and how it stands (behind the bearer token). */
final class CatalogHandler implements HttpHandler {
  private final AtomicReference<MappingRegistry> registry;
  private final DropGuard guard;

  CatalogHandler(AtomicReference<MappingRegistry> registry, DropGuard guard) {
    this.registry = registry;
    this.guard = guard;
  }

  @Override
  public void handleRequest(HttpServerExchange exchange) {
    Exchanges.send(exchange, 200, Json.write(MappingCatalog.describe(registry.get(), guard)));
  }
}
