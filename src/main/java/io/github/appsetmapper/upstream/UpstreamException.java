package io.github.appsetmapper.upstream;

/**
 * An upstream call failed: a 502 for Argo CD, or a 504 when it timed out. The message names the
 * call and the cause and must hold no secret (callers pass it through the redactor as well).
 */
public final class UpstreamException extends Exception {
  private final boolean timeout;

  public UpstreamException(String message, boolean timeout) {
    super(message);
    this.timeout = timeout;
  }

  public UpstreamException(String message) {
    this(message, false);
  }

  public boolean isTimeout() {
    return timeout;
  }
}
