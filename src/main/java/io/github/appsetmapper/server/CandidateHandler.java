package io.github.appsetmapper.server;

import io.github.appsetmapper.engine.Answer;
import io.github.appsetmapper.engine.Invocation;
import io.github.appsetmapper.logging.LogText;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code POST /mappings/<name>/shadow/api/v1/getparams.execute}: the candidate of that name answers
 * as the live mapping would, so that {@code argocd appset generate} with a plugin ConfigMap
 * pointing here previews the Applications it would make. The same token, readiness and body checks
 * as getparams ran before; the body is parsed the same way.
 */
final class CandidateHandler implements HttpHandler {
  private static final Logger LOG = LoggerFactory.getLogger("appset_mapper.shadow");

  private final Shadowing shadowing;
  private final ErrorAnswers errors;

  CandidateHandler(Shadowing shadowing, ErrorAnswers errors) {
    this.shadowing = shadowing;
    this.errors = errors;
  }

  @Override
  public void handleRequest(HttpServerExchange exchange) {
    String name = Exchanges.mappingName(exchange);
    try {
      Invocation invocation = GetParamsParser.parse(Exchanges.body(exchange));
      Answer answer = shadowing.candidate(name, invocation);
      if (answer == null) {
        throw new HttpError(404, "no candidate mapping '" + name + "' under --shadow");
      }
      LOG.info("candidate={} status=200 rows={}", LogText.value(name), answer.parameters().size());
      Exchanges.send(exchange, 200, "application/json", answer.body());
    } catch (Exception | StackOverflowError failure) {
      ErrorAnswer answer = errors.map(failure);
      LOG.info(
          "candidate={} status={} error={}",
          errors.field(name),
          answer.status(),
          LogText.quoted(answer.message()));
      Exchanges.send(exchange, answer.status(), Json.error(answer.message()));
    }
  }
}
