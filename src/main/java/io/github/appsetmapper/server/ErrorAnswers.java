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

  /**
   * Control characters (line breaks, C0, C1, Unicode line separators) become one space each run.
   */
  private static String oneLine(String message) {
    if (message == null) {
      return "error";
    }
    StringBuilder out = new StringBuilder(Math.min(message.length(), 1004));
    boolean gap = false;
    for (int i = 0; i < message.length() && out.length() <= 1000; i++) {
      char c = message.charAt(i);
      if (Character.isISOControl(c) || c == '\u2028' || c == '\u2029') {
        gap = true;
        continue;
      }
      if (gap && out.length() > 0) {
        out.append(' ');
      }
      gap = false;
      out.append(c);
    }
    String text = out.toString().strip();
    return text.length() > 1000 ? text.substring(0, 1000) + "..." : text;
  }
}
