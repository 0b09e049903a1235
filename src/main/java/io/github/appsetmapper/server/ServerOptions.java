package io.github.appsetmapper.server;

/**
 * How the server listens. {@code tokens} null means {@code --insecure-no-auth}.
 *
 * @param workerThreads Undertow worker threads, where getparams calls run (never on IO threads)
 * @param webhookSecret what webhook senders may present to {@code cache/invalidate} besides the
 *     bearer token (null: the bearer token only)
 */
public record ServerOptions(
    String host,
    int port,
    Tokens tokens,
    long maxBodyBytes,
    int ioThreads,
    int workerThreads,
    WebhookSecret webhookSecret) {

  public ServerOptions(
      String host, int port, Tokens tokens, long maxBodyBytes, int ioThreads, int workerThreads) {
    this(host, port, tokens, maxBodyBytes, ioThreads, workerThreads, null);
  }

  public static final int DEFAULT_PORT = 4355;
  public static final long DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
}
