package io.github.appsetmapper.server;

/**
 * A protocol-level refusal (400, 403, 404, 405, 408, 413, 503) with its one-line message, and the
 * reason it is counted under in {@code appset_mapper_requests_refused_total} (null: not counted
 * there, like a 404).
 */
final class HttpError extends Exception {
  private final int status;
  private final String reason;

  HttpError(int status, String message) {
    this(status, message, null);
  }

  HttpError(int status, String message, String reason) {
    super(message, null, false, false);
    this.status = status;
    this.reason = reason;
  }

  int status() {
    return status;
  }

  String reason() {
    return reason;
  }
}
