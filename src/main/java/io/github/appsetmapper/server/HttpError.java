package io.github.appsetmapper.server;

/** A protocol-level refusal (400, 403, 404, 405, 413, 503) with its one-line message. */
final class HttpError extends Exception {
  private final int status;

  HttpError(int status, String message) {
    super(message, null, false, false);
    this.status = status;
  }

  int status() {
    return status;
  }
}
