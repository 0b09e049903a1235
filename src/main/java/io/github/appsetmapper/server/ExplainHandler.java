package io.github.appsetmapper.server;

import io.github.appsetmapper.compile.CompiledMapping;
import io.github.appsetmapper.engine.Engine;
import io.github.appsetmapper.engine.GetparamsTracing;
import io.github.appsetmapper.engine.Invocation;
import io.github.appsetmapper.explain.ExplainFormat;
import io.github.appsetmapper.explain.ExplainReport;
import io.github.appsetmapper.explain.Explainer;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import java.util.Deque;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code POST /mappings/<name>/api/v1/getparams.explain}: the getparams body in, the explain report
 * out (JSON; {@code ?format=text} for a terminal). The same checks as getparams come first (method,
 * token, readiness and body in the route's wrappers, then the mapping); once the call reaches the
 * engine the answer is 200 with the report, also when getparams would fail: the report's {@code
 * answer.status} says what getparams would have answered. Argo CD never calls this route (its
 * client always appends {@code api/v1/getparams.execute}), and the report has no {@code output}
 * key.
 */
final class ExplainHandler implements HttpHandler {
  private static final Logger LOG = LoggerFactory.getLogger("appset_mapper.explain");

  private final AtomicReference<MappingRegistry> registry;
  private final Engine engine;
  private final Refusals refusals;

  ExplainHandler(AtomicReference<MappingRegistry> registry, Engine engine, Refusals refusals) {
    this.registry = registry;
    this.engine = engine;
    this.refusals = refusals;
  }

  @Override
  public void handleRequest(HttpServerExchange exchange) {
    String name = Exchanges.mappingName(exchange);
    GetparamsTracing.Traced traced = traced(exchange);
    String traceId = traced.traceId();
    if (traceId != null) {
      exchange.getResponseHeaders().put(GetParamsHandler.TRACE_HEADER, traceId);
    }
    try {
      ExplainFormat format = format(exchange);
      CompiledMapping mapping = registry.get().requireRunnable(name);
      Invocation invocation = GetParamsParser.parse(Exchanges.body(exchange));
      // Rendered within the getparams' deadline: its text grows with the answer.
      Explainer.Rendered rendered =
          Explainer.rendered(
              engine,
              mapping,
              invocation,
              failure -> {
                ErrorAnswer answer = refusals.errors().map(failure);
                // The line getparams would answer, its trace id included.
                return ExplainReport.Answer.error(
                    answer.status(), answer.message() + traced.errorSuffix());
              },
              recorder -> traced.around(recorder, mapping),
              format,
              traceId);
      ExplainReport report = rendered.report();
      end(traced, mapping.name(), invocation, report.answer().status());
      LOG.info(
          "explain mapping={} appset={} calls={} wouldAnswer={}",
          name,
          refusals.errors().appSet(invocation.applicationSetName()),
          report.calls().size(),
          report.answer().status());
      Exchanges.send(exchange, 200, format.contentType(), rendered.body());
    } catch (Exception failure) {
      ErrorAnswer answer = refusals.errors().map(failure);
      end(traced, null, null, answer.status());
      if (failure instanceof HttpError refusal) {
        refusals.count(exchange, refusal);
      }
      Exchanges.send(exchange, answer.status(), Json.error(answer.message()));
    }
  }

  /** Explain is traced as getparams is, so that its report names a trace to open. */
  private GetparamsTracing.Traced traced(HttpServerExchange exchange) {
    try {
      return engine
          .tracing()
          .start(
              "/mappings/{mapping}/api/v1/getparams.explain",
              header -> exchange.getRequestHeaders().getFirst(header));
    } catch (RuntimeException e) {
      LOG.error("starting a trace failed", e);
      return GetparamsTracing.Traced.OFF;
    }
  }

  private static void end(
      GetparamsTracing.Traced traced, String mapping, Invocation invocation, int status) {
    try {
      traced.end(
          new GetparamsTracing.Ended(
              mapping,
              invocation == null ? null : invocation.applicationSetName(),
              status,
              -1,
              null,
              false,
              false));
    } catch (RuntimeException e) {
      LOG.error("ending a trace failed", e);
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
