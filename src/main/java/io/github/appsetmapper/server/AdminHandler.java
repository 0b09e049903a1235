package io.github.appsetmapper.server;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.appsetmapper.compile.CompiledMapping;
import io.github.appsetmapper.engine.Engine;
import io.github.appsetmapper.engine.Invocation;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code POST /mappings/{name}/guard/reset} forgets the {@code maxDrop} baselines so that a wanted
 * mass change is accepted; {@code POST /mappings/{name}/cache/invalidate} makes the next calls ask
 * the upstream again. Both take an optional getparams-shaped body ({@code
 * {"applicationSetName":..., "input":{"parameters":{...}}}}) to act on one input only. Who may call
 * is decided before the body is read, by the route's wrapper ({@link BearerAuth}, {@link
 * WebhookAuth}); this runs on a worker with the body read.
 */
final class AdminHandler implements HttpHandler {
  private static final Logger LOG = LoggerFactory.getLogger("appset_mapper.admin");

  /** What the route does. */
  enum Action {
    GUARD_RESET,
    CACHE_INVALIDATE
  }

  private final Action action;
  private final AtomicReference<MappingRegistry> registry;
  private final Engine engine;
  private final Refusals refusals;

  AdminHandler(
      Action action, AtomicReference<MappingRegistry> registry, Engine engine, Refusals refusals) {
    this.action = action;
    this.registry = registry;
    this.engine = engine;
    this.refusals = refusals;
  }

  @Override
  public void handleRequest(HttpServerExchange exchange) {
    String name = Exchanges.mappingName(exchange);
    try {
      CompiledMapping mapping = registry.get().require(name);
      boolean invalidate = action == Action.CACHE_INVALIDATE;
      Target target = target(Exchanges.body(exchange), !invalidate);
      Map<String, Object> answer = new LinkedHashMap<>();
      answer.put("mapping", name);
      if (invalidate) {
        var done = engine.invalidate(mapping, target == null ? null : target.parameters());
        answer.put("invalidated", done.count());
        if (engine.shared()) {
          answer.put("everyReplica", done.everyReplica());
        }
        LOG.info(
            "mapping={} cache invalidated: {} entries ({}, {})",
            name,
            done.count(),
            target == null ? "all inputs" : "one input",
            done.everyReplica() ? "every replica" : "this replica only");
      } else {
        var done =
            engine.resetGuard(
                mapping,
                target == null ? null : target.parameters(),
                target == null ? null : target.applicationSetName());
        answer.put("reset", done.count());
        if (engine.shared()) {
          answer.put("everyReplica", done.everyReplica());
        }
        LOG.info(
            "mapping={} maxDrop guard reset: {} baselines forgotten ({}, {})",
            name,
            done.count(),
            target == null ? "all inputs" : "one input",
            done.everyReplica() ? "every replica" : "this replica only");
      }
      Exchanges.send(exchange, 200, Json.write(answer));
    } catch (Exception failure) {
      ErrorAnswer answer = refusals.errors().map(failure);
      if (answer.status() == 500) {
        // Any message in the chain may hold a secret (a URL, an upstream's words): redacted.
        LOG.error(
            "unexpected failure on {}",
            refusals.errors().field(exchange.getRequestPath()),
            engine.redactor().scrub(failure));
      }
      if (failure instanceof HttpError refusal) {
        refusals.count(exchange, refusal);
      }
      Exchanges.send(exchange, answer.status(), Json.error(answer.message()));
    }
  }

  /**
   * The input to act on, or null for all. A body that is not a getparams request (a registry's or
   * GitHub's own event payload) means all, for invalidation; for a guard reset it is an error.
   */
  private static Target target(byte[] body, boolean strict) throws HttpError {
    if (body.length == 0) {
      return null;
    }
    JsonNode root;
    try {
      root = io.github.appsetmapper.json.JsonCodec.tree(body);
    } catch (io.github.appsetmapper.json.JsonRefusal e) {
      if (strict) {
        throw new HttpError(400, "the request body " + e.located());
      }
      return null;
    }
    if (root == null || !root.isObject()) {
      if (strict) {
        throw new HttpError(400, "the request body must be a JSON object");
      }
      return null;
    }
    if (!root.has("input") && !(strict && root.has("applicationSetName"))) {
      return null;
    }
    Invocation parsed = GetParamsParser.parse(body);
    return new Target(parsed.applicationSetName(), root.has("input") ? parsed.parameters() : null);
  }

  /** One ApplicationSet (empty: any) and one input (null: any). */
  private record Target(String applicationSetName, Map<String, Object> parameters) {}
}
