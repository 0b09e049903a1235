package io.github.appsetmapper.secret;

/**
 * A failure as a log line may show it: the original class's name and message, redacted, with its
 * stack trace, causes and suppressed failures copied the same way. Logging the original could print
 * a secret held in any message of the chain.
 */
public final class Redacted extends RuntimeException {
  /** Causes nested deeper are cut: a log line needs the first few. */
  private static final int MAX_DEPTH = 16;

  private Redacted(String message) {
    super(message);
  }

  static Throwable of(Throwable failure, Redactor redactor) {
    return copy(failure, redactor, 0);
  }

  private static Redacted copy(Throwable failure, Redactor redactor, int depth) {
    String message = failure.getMessage();
    Redacted copy =
        new Redacted(
            failure.getClass().getName()
                + (message == null ? "" : ": " + redactor.redact(message)));
    copy.setStackTrace(failure.getStackTrace());
    if (depth < MAX_DEPTH) {
      Throwable cause = failure.getCause();
      if (cause != null && cause != failure) {
        copy.initCause(copy(cause, redactor, depth + 1));
      }
      for (Throwable suppressed : failure.getSuppressed()) {
        copy.addSuppressed(copy(suppressed, redactor, depth + 1));
      }
    }
    return copy;
  }
}
