package io.github.appsetmapper.engine;

import io.github.appsetmapper.compile.CompiledExpression;
import io.github.appsetmapper.compile.CompiledRequest;
import io.github.appsetmapper.expr.Scope;
import io.github.appsetmapper.secret.Redactor;
import io.github.appsetmapper.upstream.call.RequestFailure;
import io.github.appsetmapper.upstream.call.UpstreamRequest;
import io.github.appsetmapper.upstream.call.UpstreamResponse;
import java.util.Set;

/**
 * What makes one page's answer complete: its status (200 and 203, the 2xx the request's {@code
 * acceptStatus} lists, and 204 for a step that reads no body), and its {@code failWhen}. A 202
 * ("accepted, not done") or a 206 (part of it) is not a whole answer: taking it as one would answer
 * Argo CD with rows missing.
 */
record ResponseChecks(
    Set<Integer> accepted,
    boolean noContent,
    CompiledExpression failWhen,
    Scope scope,
    Redactor redactor) {

  static ResponseChecks of(
      CompiledRequest request, boolean readsNoBody, Scope scope, Redactor redactor) {
    return new ResponseChecks(
        request.acceptStatus(), readsNoBody, request.failWhen(), scope, redactor);
  }

  /** Whether {@code status} is a complete answer. */
  boolean complete(int status) {
    return status == 200
        || status == 203
        || accepted.contains(status)
        || (status == 204 && noContent);
  }

  /**
   * Why a 2xx that is not a complete answer was refused, or the upstream's own status message for
   * anything else.
   */
  RequestFailure incomplete(UpstreamRequest request, UpstreamResponse response) {
    if (!response.isSuccess()) {
      return statusMessage(request, response);
    }
    return RequestFailure.of(
        request,
        response.answered(request)
            + response.status()
            + ", which is not a complete answer (200 and 203 are; list others in acceptStatus)");
  }

  /** "answered 500", with what the upstream said ({@link UpstreamWords}). */
  RequestFailure statusMessage(UpstreamRequest request, UpstreamResponse response) {
    String message = response.answered(request) + response.status() + response.bodyNote();
    if (response.attempts() > 1) {
      message += " after " + response.attempts() + " attempts";
    }
    if (response.note() != null) {
      message += " (not retried: " + response.note() + ")";
    }
    message += UpstreamWords.of(response, redactor);
    return RequestFailure.of(request, message);
  }

  /** Fails the page when {@code failWhen} is true of it. */
  void failWhen(Page page) throws RequestFailure {
    if (failWhen == null) {
      return;
    }
    Object verdict = Expressions.onResponse(failWhen, page, scope);
    if (Boolean.TRUE.equals(verdict)) {
      throw RequestFailure.of(
          page.request(), "failWhen '" + failWhen.source().text() + "' is true");
    }
  }
}
