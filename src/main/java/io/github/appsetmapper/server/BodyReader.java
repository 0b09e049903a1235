package io.github.appsetmapper.server;

import io.undertow.io.Receiver;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.server.RequestTooBigException;
import org.xnio.IoUtils;

/**
 * Reads the request body without a worker thread (Undertow's non-blocking receiver on the IO
 * thread), refusing one over the limit by its {@code Content-Length} before reading anything, then
 * hands the exchange to a worker with the body attached. A body that stops arriving holds no
 * worker; {@link ReadDeadline} closes its connection.
 */
final class BodyReader implements HttpHandler {
  private final long limit;
  private final Refusals refusals;
  private final HttpHandler next;

  /**
   * @param next runs on a worker thread, the body in {@link Exchanges#BODY}
   */
  BodyReader(long limit, Refusals refusals, HttpHandler next) {
    this.limit = limit;
    this.refusals = refusals;
    this.next = next;
  }

  @Override
  public void handleRequest(HttpServerExchange exchange) {
    if (exchange.getAttachment(Exchanges.BODY) != null) {
      exchange.dispatch(next);
      return;
    }
    receive(
        exchange,
        limit,
        refusals,
        (done, body) -> {
          done.putAttachment(Exchanges.BODY, body);
          done.dispatch(next);
        });
  }

  /** Receives the whole body (at most {@code limit} bytes), then calls {@code then}. */
  static void receive(
      HttpServerExchange exchange, long limit, Refusals refusals, Receiver.FullBytesCallback then) {
    if (exchange.getRequestContentLength() > limit) {
      refusals.refuse(exchange, tooLarge(limit), null);
      return;
    }
    Receiver receiver = exchange.getRequestReceiver();
    receiver.setMaxBufferSize((int) Math.min(limit, Integer.MAX_VALUE - 8));
    receiver.receiveFullBytes(
        then,
        (failed, error) -> {
          if (error instanceof RequestTooBigException) {
            refusals.refuse(failed, tooLarge(limit), null);
          } else {
            // The caller went away, or the read deadline closed the connection: nobody to answer.
            IoUtils.safeClose(failed.getConnection());
          }
        });
  }

  private static HttpError tooLarge(long limit) {
    return new HttpError(
        413, "the request body is larger than " + limit + " bytes", "body_too_large");
  }
}
