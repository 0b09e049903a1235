package io.github.appsetmapper.server;

import io.undertow.io.Receiver;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import java.io.ByteArrayOutputStream;
import java.util.function.Predicate;
import org.xnio.IoUtils;

/**
 * Reads the request body without a worker thread (Undertow's non-blocking receiver on the IO
 * thread), refusing one over the limit by its {@code Content-Length} before keeping anything (its
 * bytes are discarded, then the 413 goes), then hands the exchange to a worker with the body
 * attached. A body that stops arriving holds no worker; {@link ReadDeadline} closes its connection.
 */
final class BodyReader implements HttpHandler {
  private final long limit;
  private final Refusals refusals;
  private final HttpHandler next;
  private final Predicate<HttpServerExchange> inline;

  /**
   * @param next runs on a worker thread, the body in {@link Exchanges#BODY}
   */
  BodyReader(long limit, Refusals refusals, HttpHandler next) {
    this(limit, refusals, next, exchange -> false);
  }

  /**
   * @param inline whether {@code next} may run on the IO thread that read the body (it never
   *     blocks: a mapping without upstream calls), saving the hand-off to a worker and back
   */
  BodyReader(
      long limit, Refusals refusals, HttpHandler next, Predicate<HttpServerExchange> inline) {
    this.limit = limit;
    this.refusals = refusals;
    this.next = next;
    this.inline = inline;
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
          if (!inline.test(done)) {
            done.dispatch(next);
            return;
          }
          try {
            next.handleRequest(done);
          } catch (Exception e) {
            refusals.answer(done, new HttpError(500, "internal error; see the server log"));
          }
        });
  }

  /**
   * Receives the whole body (at most {@code limit} bytes), then calls {@code then}. A body over the
   * limit is refused with a 413 once it has been read and discarded (see {@link BodyDrain}), so the
   * caller gets the answer rather than a reset connection.
   */
  static void receive(
      HttpServerExchange exchange, long limit, Refusals refusals, Receiver.FullBytesCallback then) {
    long declared = exchange.getRequestContentLength();
    if (declared > limit) {
      // Refusals drains what it can of the unread body before answering.
      refusals.refuse(exchange, tooLarge(limit), null);
      return;
    }
    exchange.putAttachment(BodyDrain.STARTED, Boolean.TRUE);
    if (declared < 0 && !exchange.isRequestComplete()) {
      chunked(exchange, limit, refusals, then);
      return;
    }
    Receiver receiver = exchange.getRequestReceiver();
    receiver.setMaxBufferSize((int) Math.min(limit, Integer.MAX_VALUE - 8));
    receiver.receiveFullBytes(
        then,
        (failed, error) -> {
          // The caller went away, or the read deadline closed the connection: nobody to answer.
          IoUtils.safeClose(failed.getConnection());
        });
  }

  /**
   * A body of unknown length: kept up to the limit, then discarded up to the drain cap, and refused
   * once it has all arrived (or, past the cap, at once, closing the connection).
   */
  private static void chunked(
      HttpServerExchange exchange, long limit, Refusals refusals, Receiver.FullBytesCallback then) {
    long cap = refusals.drain().cap();
    // Undertow's own bound (MAX_ENTITY_SIZE) is the drain cap too (see AppServer).
    ByteArrayOutputStream kept = new ByteArrayOutputStream();
    long[] total = {0};
    boolean[] answered = {false};
    exchange
        .getRequestReceiver()
        .receivePartialBytes(
            (done, bytes, last) -> {
              if (answered[0]) {
                return;
              }
              total[0] += bytes.length;
              if (total[0] <= limit) {
                kept.writeBytes(bytes);
              }
              if (total[0] > cap) {
                answered[0] = true;
                done.setPersistent(false);
                refusals.refuse(done, tooLarge(limit), null);
              } else if (last) {
                answered[0] = true;
                if (total[0] > limit) {
                  refusals.refuse(done, tooLarge(limit), null);
                } else {
                  then.handle(done, kept.toByteArray());
                }
              }
            },
            (failed, error) -> IoUtils.safeClose(failed.getConnection()));
  }

  private static HttpError tooLarge(long limit) {
    return new HttpError(
        413, "the request body is larger than " + limit + " bytes", "body_too_large");
  }
}
