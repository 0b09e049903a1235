package io.github.appsetmapper.server;

import io.undertow.server.HttpServerExchange;
import io.undertow.util.AttachmentKey;

/**
 * An answer sent before the request body was read (a refusal by token, path, method, shutdown or
 * size) races with a client still sending it: closing a connection with unread data makes TCP reset
 * it, and the client loses the answer. So what is left of the body is read and discarded first, on
 * the IO thread, then the answer goes: at most {@link #cap} bytes, within the read deadline ({@link
 * ReadDeadline} closes a body that stops arriving). A body declared or found to be larger than the
 * cap is not read: the answer goes at once and the connection closes (that caller may see a reset;
 * it sent more than any route takes several times over).
 */
final class BodyDrain {
  /** Set once the body's reading has started (by the body reader or a drain). */
  static final AttachmentKey<Boolean> STARTED = AttachmentKey.create(Boolean.class);

  private final long cap;

  /**
   * @param largestBody the largest body any route takes: the cap is a few times that
   */
  BodyDrain(long largestBody) {
    this.cap = capFor(largestBody);
  }

  /**
   * What a drain reads at most: a few times the largest body any route takes. It is also Undertow's
   * {@code MAX_ENTITY_SIZE}, the bound of its own channel (the routes bound their bodies
   * themselves: {@link BodyReader}).
   */
  static long capFor(long largestBody) {
    return Math.max(8L * 1024 * 1024, 4 * largestBody);
  }

  long cap() {
    return cap;
  }

  /** Whether the body's reading has not started and there is something left to read. */
  static boolean unread(HttpServerExchange exchange) {
    return !exchange.isRequestComplete()
        && exchange.getAttachment(STARTED) == null
        && exchange.isRequestChannelAvailable();
  }

  /** Discards the unread body (at most the cap), then runs {@code answer} on the IO thread. */
  void thenAnswer(HttpServerExchange exchange, Runnable answer) {
    if (!unread(exchange) || exchange.getRequestContentLength() > cap) {
      if (!exchange.isRequestComplete()) {
        exchange.setPersistent(false);
      }
      answer.run();
      return;
    }
    exchange.putAttachment(STARTED, Boolean.TRUE);
    exchange
        .getRequestReceiver()
        .receivePartialBytes(
            (done, bytes, last) -> {
              if (last) {
                answer.run();
              }
            },
            (failed, error) -> {
              // Past the cap (the channel refuses more), or the connection went.
              failed.setPersistent(false);
              if (failed.getConnection().isOpen()) {
                answer.run();
              }
            });
  }
}
