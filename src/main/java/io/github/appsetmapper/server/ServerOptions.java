package io.github.appsetmapper.server;

import java.time.Duration;

/**
 * How the server listens. {@code tokens} null means {@code --insecure-no-auth}.
 *
 * @param workerThreads Undertow worker threads, where getparams calls run (never on IO threads)
 * @param webhookSecret what webhook senders may present to {@code cache/invalidate} besides the
 *     bearer token (null: the bearer token only)
 * @param idleTimeout how long a connection may wait for its next request; above the 90 s that Go's
 *     HTTP client (Argo CD) keeps an idle connection, so the server never closes one the client is
 *     about to reuse
 * @param readTimeout how long the request line, headers and body of one request may take to arrive
 * @param webhookMaxBodyBytes the largest body read to check a GitHub {@code X-Hub-Signature-256}
 *     (read before the caller is known, so it is kept small)
 */
public record ServerOptions(
    String host,
    int port,
    Tokens tokens,
    long maxBodyBytes,
    int ioThreads,
    int workerThreads,
    WebhookSecret webhookSecret,
    Duration idleTimeout,
    Duration readTimeout,
    long webhookMaxBodyBytes) {

  public static final int DEFAULT_PORT = 4355;
  public static final long DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
  public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(120);
  public static final Duration DEFAULT_READ_TIMEOUT = Duration.ofSeconds(10);
  public static final long DEFAULT_WEBHOOK_MAX_BODY_BYTES = 256 * 1024;

  public ServerOptions {
    if (idleTimeout.isNegative() || idleTimeout.isZero()) {
      throw new IllegalArgumentException("the idle timeout must be positive");
    }
    if (readTimeout.isNegative() || readTimeout.isZero()) {
      throw new IllegalArgumentException("the read timeout must be positive");
    }
  }

  public ServerOptions(
      String host,
      int port,
      Tokens tokens,
      long maxBodyBytes,
      int ioThreads,
      int workerThreads,
      WebhookSecret webhookSecret) {
    this(
        host,
        port,
        tokens,
        maxBodyBytes,
        ioThreads,
        workerThreads,
        webhookSecret,
        DEFAULT_IDLE_TIMEOUT,
        DEFAULT_READ_TIMEOUT,
        DEFAULT_WEBHOOK_MAX_BODY_BYTES);
  }

  public ServerOptions(
      String host, int port, Tokens tokens, long maxBodyBytes, int ioThreads, int workerThreads) {
    this(host, port, tokens, maxBodyBytes, ioThreads, workerThreads, null);
  }

  /** With the connection timeouts. */
  public ServerOptions withTimeouts(Duration idle, Duration read) {
    return new ServerOptions(
        host,
        port,
        tokens,
        maxBodyBytes,
        ioThreads,
        workerThreads,
        webhookSecret,
        idle,
        read,
        webhookMaxBodyBytes);
  }

  /** With the largest webhook body read for a signature check. */
  public ServerOptions withWebhookMaxBodyBytes(long bytes) {
    return new ServerOptions(
        host,
        port,
        tokens,
        maxBodyBytes,
        ioThreads,
        workerThreads,
        webhookSecret,
        idleTimeout,
        readTimeout,
        bytes);
  }
}
