package io.github.appsetmapper.server;

import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.HttpString;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Who may call {@code cache/invalidate}: the bearer token, or the webhook secret as a bearer token
 * or GitLab's {@code X-Gitlab-Token}, all checked from the headers before any body is read.
 * GitHub's {@code X-Hub-Signature-256} is an HMAC of the body, so only that case reads a body
 * before the caller is known: the header must be there, the body is capped at {@code maxBodyBytes},
 * read without a worker under the read deadline, and at most {@link #MAX_PENDING} such bodies are
 * read at once (a 503 beyond), so silent or slow callers hold neither workers nor much memory.
 */
final class WebhookAuth implements HttpHandler {
  static final int MAX_PENDING = 16;
  private static final HttpString SIGNATURE = new HttpString("X-Hub-Signature-256");
  private static final HttpString GITLAB_TOKEN = new HttpString("X-Gitlab-Token");

  private final ServerOptions options;
  private final Refusals refusals;
  private final HttpHandler next;
  private final Semaphore pending = new Semaphore(MAX_PENDING);

  WebhookAuth(ServerOptions options, Refusals refusals, HttpHandler next) {
    this.options = options;
    this.refusals = refusals;
    this.next = next;
  }

  @Override
  public void handleRequest(HttpServerExchange exchange) throws Exception {
    if (options.tokens() == null) {
      next.handleRequest(exchange);
      return;
    }
    WebhookSecret secret = options.webhookSecret();
    String signature = exchange.getRequestHeaders().getFirst(SIGNATURE);
    if (signature != null) {
      if (secret == null) {
        forbidden(exchange, "an X-Hub-Signature-256 but no --webhook-secret-file");
      } else {
        checkSignature(exchange, secret, signature);
      }
      return;
    }
    String bearer = Exchanges.bearer(exchange);
    if (options.tokens().accepts(bearer) || (secret != null && secret.accepts(bearer))) {
      next.handleRequest(exchange);
      return;
    }
    String gitlab = exchange.getRequestHeaders().getFirst(GITLAB_TOKEN);
    if (secret != null && gitlab != null && secret.accepts(gitlab)) {
      next.handleRequest(exchange);
      return;
    }
    forbidden(
        exchange, bearer == null ? "no token, secret or signature" : "the token did not match");
  }

  private void checkSignature(HttpServerExchange exchange, WebhookSecret secret, String signature) {
    if (!pending.tryAcquire()) {
      refusals.refuse(
          exchange,
          new HttpError(
              503, "too many webhook bodies are being read at once; retry", "webhook_busy"),
          null);
      return;
    }
    // Given back once, whichever comes first: the body, a failure, or the connection closing.
    AtomicBoolean held = new AtomicBoolean(true);
    Runnable release =
        () -> {
          if (held.getAndSet(false)) {
            pending.release();
          }
        };
    exchange.getConnection().addCloseListener(connection -> release.run());
    exchange.addExchangeCompleteListener(
        (done, nextListener) -> {
          release.run();
          nextListener.proceed();
        });
    BodyReader.receive(
        exchange,
        options.webhookMaxBodyBytes(),
        refusals,
        (done, body) -> {
          release.run();
          if (!secret.acceptsSignature(signature, body)) {
            forbidden(done, "the X-Hub-Signature-256 signature did not match");
            return;
          }
          done.putAttachment(Exchanges.BODY, body);
          try {
            next.handleRequest(done);
          } catch (Exception e) {
            refusals.answer(done, new HttpError(500, "internal error; see the server log"));
          }
        });
  }

  private void forbidden(HttpServerExchange exchange, String why) {
    refusals.refuse(exchange, new HttpError(403, "forbidden", "forbidden"), why);
  }
}
