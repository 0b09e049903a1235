package io.github.appsetmapper.server;

/**
 * How the server listens. {@code tokens} null means {@code --insecure-no-auth}.
 *
 * @param workerThreads Undertow worker threads, where getparams calls run (never on IO threads)
 */
public record ServerOptions(
    String host, int port, Tokens tokens, long maxBodyBytes, int ioThreads, int workerThreads) {

  public static final int DEFAULT_PORT = 4355;
  public static final long DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
}
