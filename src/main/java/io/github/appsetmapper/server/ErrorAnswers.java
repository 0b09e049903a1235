package io.github.appsetmapper.server;

import io.github.appsetmapper.engine.EvaluationException;
import io.github.appsetmapper.engine.GuardException;
import io.github.appsetmapper.engine.InputException;
import io.github.appsetmapper.secret.Redactor;
import io.github.appsetmapper.upstream.UpstreamException;

/**
 * The one place where failures become HTTP statuses. Anything unexpected is a 500 with a generic
 * message (the detail goes to the log), so no stack trace or internal text reaches Argo CD.
 */
public final class ErrorAnswers {
  private final Redactor redactor;

  public ErrorAnswers(Redactor redactor) {
    this.redactor = redactor;
  }

  public ErrorAnswer map(Throwable failure) {
    int status;
    String message;
    if (failure instanceof HttpError http) {
      status = http.status();
      message = http.getMessage();
    } else if (failure instanceof InputException) {
      status = 400;
      message = failure.getMessage();
    } else if (failure instanceof UpstreamException upstream) {
      status =
          switch (upstream.kind()) {
            case TIMEOUT, DEADLINE -> 504;
            case LOCAL -> 500;
            case OVERLOAD -> 503;
            default -> 502;
          };
      message = failure.getMessage();
    } else if (failure instanceof GuardException) {
      status = 502;
      message = failure.getMessage();
    } else if (failure instanceof EvaluationException) {
      status = 500;
      message = failure.getMessage();
    } else {
      status = 500;
      message = "internal error (" + failure.getClass().getSimpleName() + "); see the server log";
    }
    return new ErrorAnswer(status, oneLine(redactor.redact(message)));
  }

  private static String oneLine(String message) {
    String text = message == null ? "error" : message.replaceAll("[\\r\\n\\t]+", " ").strip();
    return text.length() > 1000 ? text.substring(0, 1000) + "..." : text;
  }
}
