package io.github.appsetmapper.bench;

import io.undertow.Undertow;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * An upstream with a fixed latency that holds no thread while it waits: {@code /info/x} answers
 * after INFO_MS, {@code /rows} lists 100 rows at once, {@code /slow/n} answers after SLOW_MS.
 * Usage: DelayedUpstream PORT INFO_MS SLOW_MS
 */
public final class DelayedUpstream {
  private DelayedUpstream() {}

  public static void main(String[] args) {
    int infoMillis = Integer.parseInt(args[1]);
    int slowMillis = Integer.parseInt(args[2]);
    ScheduledExecutorService timer = Executors.newScheduledThreadPool(2);
    StringBuilder rows = new StringBuilder("[");
    for (int i = 1; i <= 100; i++) {
      rows.append(i > 1 ? "," : "").append("{\"id\":").append(i).append('}');
    }
    String rowsBody = rows.append(']').toString();
    Undertow.builder()
        .addHttpListener(Integer.parseInt(args[0]), "127.0.0.1")
        .setIoThreads(2)
        .setHandler(
            exchange -> {
              String path = exchange.getRequestPath();
              if (path.equals("/rows")) {
                send(exchange, rowsBody);
              } else if (path.startsWith("/slow/")) {
                later(timer, exchange, slowMillis, "{\"value\":\"v" + path.substring(6) + "\"}");
              } else {
                later(timer, exchange, infoMillis, "{\"value\":\"val2\"}");
              }
            })
        .build()
        .start();
  }

  private static void later(
      ScheduledExecutorService timer, HttpServerExchange exchange, int millis, String body) {
    // Dispatched on the same thread: the exchange stays open without holding a worker thread.
    exchange.dispatch(
        io.undertow.util.SameThreadExecutor.INSTANCE,
        () ->
            timer.schedule(
                () -> exchange.getIoThread().execute(() -> send(exchange, body)),
                millis,
                TimeUnit.MILLISECONDS));
  }

  private static void send(HttpServerExchange exchange, String body) {
    exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "application/json");
    exchange.getResponseSender().send(body);
  }
}
