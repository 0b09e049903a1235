package io.github.appsetmapper.server;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.appsetmapper.compile.CompiledMapping;
import io.github.appsetmapper.engine.Engine;
import io.github.appsetmapper.engine.Invocation;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.HeaderValues;
import io.undertow.util.Headers;
import io.undertow.util.HttpString;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code POST /mappings/{name}/guard/reset} (bearer token) forgets the {@code maxDrop} baselines so
 * that a wanted mass change is accepted; {@code POST /mappings/{name}/cache/invalidate} (bearer
 * token or webhook secret) makes the next calls ask the upstream again. Both take an optional
 * getparams-shaped body ({@code {"applicationSetName":..., "input":{"parameters":{...}}}}) to act
 * on one input only.
 */
final class AdminHandler {
  private static final Logger LOG = LoggerFactory.getLogger("appset_mapper.admin");
  static final Pattern ROUTE = Pattern.compile("/mappings/([^/]+)/(guard/reset|cache/invalidate)");
  private static final HttpString SIGNATURE = new HttpString("X-Hub-Signature-256");
  private static final HttpString GITLAB_TOKEN = new HttpString("X-Gitlab-Token");

  private final RootHandler root;
  private final ServerOptions options;
  private final AtomicReference<MappingRegistry> registry;
  private final Engine engine;

  AdminHandler(
      RootHandler root,
      ServerOptions options,
      AtomicReference<MappingRegistry> registry,
      Engine engine) {
    this.root = root;
    this.options = options;
    this.registry = registry;
    this.engine = engine;
  }

  /** Answers one admin call; failures are thrown for the root handler to answer. */
  void handle(HttpServerExchange exchange, String name, String action) throws Exception {
    RootHandler.requireMethod(exchange, "POST");
    boolean invalidate = action.equals("cache/invalidate");
    if (!invalidate) {
      root.authorize(exchange);
    }
    byte[] body = root.readBody(exchange);
    if (invalidate) {
      authorizeWebhook(exchange, body);
    }
    MappingRegistry mappings = registry.get();
    CompiledMapping mapping = RootHandler.mapping(mappings, name);
    Target target = target(body, !invalidate);
    Map<String, Object> answer = new LinkedHashMap<>();
    answer.put("mapping", name);
    if (invalidate) {
      int count = engine.invalidate(mapping, target == null ? null : target.parameters());
      answer.put("invalidated", count);
      LOG.info(
          "mapping={} cache invalidated: {} entries ({})",
          name,
          count,
          target == null ? "all inputs" : "one input");
    } else {
      int count =
          engine.resetGuard(
              mapping,
              target == null ? null : target.parameters(),
              target == null ? null : target.applicationSetName());
      answer.put("reset", count);
      LOG.info(
          "mapping={} maxDrop guard reset: {} baselines forgotten ({})",
          name,
          count,
          target == null ? "all inputs" : "one input");
    }
    RootHandler.send(exchange, 200, Json.write(answer));
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

  /** The bearer token, or the webhook secret as a bearer token, a GitLab token or a signature. */
  private void authorizeWebhook(HttpServerExchange exchange, byte[] body) throws HttpError {
    if (options.tokens() == null) {
      return;
    }
    WebhookSecret secret = options.webhookSecret();
    String signature = exchange.getRequestHeaders().getFirst(SIGNATURE);
    if (signature != null) {
      if (secret != null && secret.acceptsSignature(signature, body)) {
        return;
      }
      refuse(exchange, "the X-Hub-Signature-256 signature did not match");
    }
    String bearer = bearer(exchange);
    if (options.tokens().accepts(bearer) || (secret != null && secret.accepts(bearer))) {
      return;
    }
    String gitlab = exchange.getRequestHeaders().getFirst(GITLAB_TOKEN);
    if (secret != null && gitlab != null && secret.accepts(gitlab)) {
      return;
    }
    refuse(exchange, bearer == null ? "no token, secret or signature" : "the token did not match");
  }

  private static String bearer(HttpServerExchange exchange) {
    HeaderValues values = exchange.getRequestHeaders().get(Headers.AUTHORIZATION);
    if (values != null && values.size() == 1) {
      String header = values.getFirst();
      if (header.regionMatches(true, 0, "Bearer ", 0, 7)) {
        return header.substring(7).strip();
      }
    }
    return null;
  }

  private static void refuse(HttpServerExchange exchange, String why) throws HttpError {
    LOG.warn(
        "refused {} {} from {}: {}",
        exchange.getRequestMethod(),
        exchange.getRequestPath(),
        exchange.getSourceAddress() == null
            ? "?"
            : exchange.getSourceAddress().getAddress().getHostAddress(),
        why);
    throw new HttpError(403, "forbidden");
  }
}
