package io.github.appsetmapper.server;

import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.xnio.IoUtils;
import org.xnio.XnioExecutor;

/**
 * A request's body must have arrived {@code timeout} after its headers, or its connection is
 * closed: whether the body is being read, refused unread (a 403 drains it), or never sent. Undertow
 * bounds the headers ({@code REQUEST_PARSE_TIMEOUT}) and idle connections ({@code
 * NO_REQUEST_TIMEOUT}) but not a body that stalls; a timer on the connection's IO thread does, and
 * holds no worker while it waits. The timer is set once the routes have handled the request on the
 * IO thread, and only when its body has not all arrived by then: a small body arrives with its
 * headers and is read in that same call, so the common getparams sets and cancels no timer (that
 * was about 5% of a static getparams' CPU). Nothing else runs on the exchange in between (a
 * dispatch to a worker starts after the IO thread's handler returns).
 */
final class ReadDeadline implements HttpHandler {
  private static final Logger LOG = LoggerFactory.getLogger("appset_mapper.server");

  private final Duration timeout;
  private final Refusals refusals;
  private final HttpHandler next;

  ReadDeadline(Duration timeout, Refusals refusals, HttpHandler next) {
    this.timeout = timeout;
    this.refusals = refusals;
    this.next = next;
  }

  @Override
  public void handleRequest(HttpServerExchange exchange) throws Exception {
    try {
      next.handleRequest(exchange);
    } finally {
      if (!exchange.isRequestComplete()) {
        XnioExecutor.Key timer =
            exchange
                .getIoThread()
                .executeAfter(() -> expire(exchange), timeout.toMillis(), TimeUnit.MILLISECONDS);
        exchange.addExchangeCompleteListener(
            (done, nextListener) -> {
              timer.remove();
              nextListener.proceed();
            });
      }
    }
  }

  private void expire(HttpServerExchange exchange) {
    if (exchange.isRequestComplete()) {
      return;
    }
    // Debug only: a flood of silent connections must not flood the log as well; the metric counts.
    LOG.debug(
        "closed {} {} from {}: the body did not arrive within {}",
        refusals.errors().field(exchange.getRequestMethod()),
        refusals.errors().field(exchange.getRequestPath()),
        Exchanges.client(exchange),
        timeout);
    refusals.count(
        exchange, new HttpError(408, "the request body did not arrive in time", "body_timeout"));
    IoUtils.safeClose(exchange.getConnection());
  }
}
