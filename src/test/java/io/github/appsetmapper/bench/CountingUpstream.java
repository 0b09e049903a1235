package io.github.appsetmapper.bench;

import io.undertow.Undertow;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An upstream that counts its calls, for the cache benchmark: {@code /info/x} answers after INFO_MS
 * without holding a thread, {@code GET /calls} tells how many {@code /info} calls came. Usage:
 * CountingUpstream PORT INFO_MS
 */
public final class CountingUpstream {
  private CountingUpstream() {}

  public static void main(String[] args) {
    int infoMillis = Integer.parseInt(args[1]);
    ScheduledExecutorService timer = Executors.newScheduledThreadPool(2);
    AtomicLong calls = new AtomicLong();
    Undertow.builder()
        .addHttpListener(Integer.parseInt(args[0]), "127.0.0.1")
        .setIoThreads(2)
        .setHandler(
            exchange -> {
              if (exchange.getRequestPath().equals("/calls")) {
                send(exchange, Long.toString(calls.get()));
                return;
              }
              calls.incrementAndGet();
              // Dispatched on the same thread: the exchange stays open without a worker thread.
              exchange.dispatch(
                  io.undertow.util.SameThreadExecutor.INSTANCE,
                  () ->
                      timer.schedule(
                          () ->
                              exchange
                                  .getIoThread()
                                  .execute(() -> send(exchange, "{\"value\":\"val2\"}")),
                          infoMillis,
                          TimeUnit.MILLISECONDS));
            })
        .build()
        .start();
  }

  private static void send(HttpServerExchange exchange, String body) {
    exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "application/json");
    exchange.getResponseSender().send(body);
  }
}
