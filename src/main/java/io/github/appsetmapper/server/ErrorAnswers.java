package io.github.appsetmapper.server;

import io.github.appsetmapper.logging.LogText;
import io.github.appsetmapper.secret.Redactor;
import io.github.appsetmapper.text.Printable;
import io.github.appsetmapper.upstream.call.RequestFailure;

/**
 * The one place where failures become HTTP statuses. Anything unexpected is a 500 with a generic
 * message (the detail goes to the log), so no stack trace or internal text reaches Argo CD.
 */
public final class ErrorAnswers {
  private final Redactor redactor;

  public ErrorAnswers(Redactor redactor) {
    this.redactor = redactor;
  }

  /** {@code text} with every secret this process holds masked: for what a log line quotes. */
  String redact(String text) {
    return text == null ? null : redactor.redact(text);
  }

  /**
   * A value a caller chose (a method, a path, a name from the path) as one field of a log line:
   * redacted (a caller may send a secret it holds, the server's token among them), then as {@link
   * LogText#value} writes a field.
   */
  public String field(Object callerText) {
    return LogText.value(callerText == null ? null : redact(callerText.toString()));
  }

  /**
   * The ApplicationSet's name a request sent, as a log field: {@code -} when none, else as {@link
   * #field} writes a caller's text. The name rule does not keep a secret out: a token of lowercase
   * hex is a valid Kubernetes name.
   */
  public String appSet(String applicationSetName) {
    return applicationSetName == null || applicationSetName.isEmpty()
        ? "-"
        : field(applicationSetName);
  }

  public ErrorAnswer map(Throwable failure) {
    int status;
    String message;
    if (failure instanceof HttpError http) {
      status = http.status();
      message = http.getMessage();
    } else if (failure instanceof RequestFailure known) {
      status = status(known.kind());
      message = known.getMessage();
    } else {
      status = 500;
      message = "internal error (" + failure.getClass().getSimpleName() + "); see the server log";
    }
    return new ErrorAnswer(status, oneLine(redactor.redact(message)));
  }

  /**
   * The status of each kind of request-time failure: a new kind does not compile until it has one.
   */
  static int status(RequestFailure.Kind kind) {
    return switch (kind) {
      case INPUT -> 400;
      case FAILED, CONNECT, GUARD -> 502;
      case TIMEOUT, DEADLINE -> 504;
      case OVERLOAD, GUARD_UNKNOWN -> 503;
      case LOCAL, EXPRESSION, SECRET -> 500;
    };
  }

  /**
   * Whether the log needs the whole failure, cause and stack: what is neither the caller's nor the
   * upstream's nor the mapping's fault, but ours (a TLS file, a bug).
   */
  public static boolean unexpected(Throwable failure) {
    return !(failure instanceof RequestFailure known)
        ? !(failure instanceof HttpError)
        : known.kind() == RequestFailure.Kind.LOCAL;
  }

  /**
   * Control characters (line breaks, C0, C1, Unicode line separators) become one space each run;
   * invisible and bidirectional ones ({@link Printable#unsafe}) their escape.
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
    // An invisible or reordering character (a right-to-left override in a path) would change
    // what the ApplicationSet's status shows: written as its escape, as a log line writes it.
    String text = Printable.escape(out.toString().strip());
    return Printable.cut(text, 1000);
  }
}
