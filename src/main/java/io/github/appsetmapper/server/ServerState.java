package io.github.appsetmapper.server;

/**
 * Where the server is in its life: ready (what {@code /readyz} says) and accepting (whether
 * getparams and explain calls are still taken). On SIGTERM readiness fails first, while calls are
 * still taken for the drain delay; then calls are refused with a 503 that says to retry.
 */
final class ServerState {
  private volatile boolean ready;
  private volatile boolean accepting = true;
  private volatile java.util.function.BooleanSupplier settled = () -> true;

  boolean ready() {
    return ready && settled.getAsBoolean();
  }

  void settledWhen(java.util.function.BooleanSupplier condition) {
    settled = condition;
  }

  void ready(boolean value) {
    ready = value;
  }

  boolean accepting() {
    return accepting;
  }

  void stopAccepting() {
    ready = false;
    accepting = false;
  }
}
