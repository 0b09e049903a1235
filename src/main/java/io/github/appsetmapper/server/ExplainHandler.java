package io.github.appsetmapper.server;

import io.github.appsetmapper.compile.CompiledMapping;
import io.github.appsetmapper.engine.Engine;
import io.github.appsetmapper.engine.Invocation;
import io.github.appsetmapper.explain.ExplainFormat;
import io.github.appsetmapper.explain.ExplainReport;
import io.github.appsetmapper.explain.Explainer;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import java.nio.charset.StandardCharsets;
import java.util.Deque;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code POST /mappings/<name>/api/v1/getparams.explain}: the getparams body in, the explain report
 * out (JSON; {@code ?format=text} for a terminal). The same checks as getparams come first (method,
 * token, readiness, mapping, body); once the call reaches the engine the answer is 200 with the
 * report, also when getparams would fail: the report's {@code answer.status} says what getparams
 * would have answered. Argo CD never calls this route (its client always appends {@code
 * api/v1/getparams.execute}), and the report has no {@code output} key.
 */
final class ExplainHandler {
  private static final Logger LOG = LoggerFactory.getLogger("appset_mapper.explain");

  private final RootHandler root;
  private final AtomicReference<MappingRegistry> registry;
  private final Engine engine;
  private final ErrorAnswers errors;

  ExplainHandler(
      RootHandler root,
      AtomicReference<MappingRegistry> registry,
      Engine engine,
      ErrorAnswers errors) {
    this.root = root;
    this.registry = registry;
    this.engine = engine;
    this.errors = errors;
  }

  void handle(HttpServerExchange exchange, String name) {
    try {
      RootHandler.requireMethod(exchange, "POST");
      root.authorize(exchange);
      if (!root.ready()) {
        throw new HttpError(503, "the server is shutting down; retry");
      }
      ExplainFormat format = format(exchange);
      MappingRegistry mappings = registry.get();
      CompiledMapping mapping = RootHandler.mapping(mappings, name);
      Invocation invocation = GetParamsParser.parse(root.readBody(exchange));
      ExplainReport report =
          Explainer.explain(
              engine,
              mapping,
              invocation,
              failure -> {
                ErrorAnswer answer = errors.map(failure);
                return ExplainReport.Answer.error(answer.status(), answer.message());
              });
      LOG.info(
          "explain mapping={} appset={} calls={} wouldAnswer={}",
          name,
          invocation.applicationSetName(),
          report.calls().size(),
          report.answer().status());
      if (!exchange.isResponseStarted()) {
        exchange.setStatusCode(200);
        exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, format.contentType());
        exchange.getResponseSender().send(format.render(report), StandardCharsets.UTF_8);
      }
    } catch (Exception failure) {
      ErrorAnswer answer = errors.map(failure);
      if (answer.status() == 405) {
        exchange.getResponseHeaders().put(Headers.ALLOW, "POST");
      }
      RootHandler.send(exchange, answer.status(), Json.error(answer.message()));
    }
  }

  private static ExplainFormat format(HttpServerExchange exchange) throws HttpError {
    Deque<String> values = exchange.getQueryParameters().get("format");
    if (values == null || values.isEmpty()) {
      return ExplainFormat.JSON;
    }
    return switch (values.getFirst()) {
      case "json" -> ExplainFormat.JSON;
      case "text" -> ExplainFormat.TEXT;
      default -> throw new HttpError(400, "format must be json or text");
    };
  }
}
