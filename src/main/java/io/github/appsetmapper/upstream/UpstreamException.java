package io.github.appsetmapper.upstream;

/**
 * An upstream call failed: a 502 for Argo CD, a 504 when it timed out or the mapping's deadline ran
 * out, a 500 when the failure is local (a TLS file or a key that cannot be read). The message names
 * the call and the cause and must hold no secret (callers pass it through the redactor as well).
 */
public final class UpstreamException extends Exception {
  /** What kind of failure: it decides the status and whether a retry may help. */
  public enum Kind {
    /** Anything else: a bad answer, a refused host, a closed connection. */
    FAILED,
    /** The connection could not be made (refused, no route): worth a retry. */
    CONNECT,
    /** The request's own timeout ran out. */
    TIMEOUT,
    /** The mapping's deadline ran out. */
    DEADLINE,
    /** Our side is misconfigured: a TLS file, a private key. */
    LOCAL,
    /** The memory budget for upstream answers is used up: a 503, try again later. */
    OVERLOAD
  }

  private final Kind kind;

  public UpstreamException(String message, Kind kind) {
    super(message);
    this.kind = kind;
  }

  public UpstreamException(String message, boolean timeout) {
    this(message, timeout ? Kind.TIMEOUT : Kind.FAILED);
  }

  public UpstreamException(String message) {
    this(message, Kind.FAILED);
  }

  public Kind kind() {
    return kind;
  }

  /** A timeout or the deadline: a 504. */
  public boolean isTimeout() {
    return kind == Kind.TIMEOUT || kind == Kind.DEADLINE;
  }

  /** The same failure with another message (a prefix naming the step). */
  public UpstreamException withMessage(String message) {
    return new UpstreamException(message, kind);
  }
}
