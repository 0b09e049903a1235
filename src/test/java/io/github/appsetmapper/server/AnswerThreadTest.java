package io.github.appsetmapper.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.undertow.Undertow;
import io.undertow.server.HttpHandler;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * An answer computed on a worker is sent, and its exchange ended, on the IO thread: an exchange
 * ended on a worker hands the connection back to the IO thread through Undertow's spin, which on
 * one CPU costs about a millisecond of CPU and latency per call (docs/performance.md, section 2).
 */
class AnswerThreadTest {
  private Undertow server;

  @AfterEach
  void stop() {
    if (server != null) {
      server.stop();
    }
  }

  private URI start(HttpHandler handler) {
    server = Undertow.builder().addHttpListener(0, "127.0.0.1").setHandler(handler).build();
    server.start();
    int port = ((InetSocketAddress) server.getListenerInfo().get(0).getAddress()).getPort();
    return URI.create("http://127.0.0.1:" + port + "/");
  }

  @Test
  void anAnswerSentFromAWorkerEndsItsExchangeOnTheIoThread() throws Exception {
    BlockingQueue<Boolean> endedOnIoThread = new ArrayBlockingQueue<>(4);
    BlockingQueue<Boolean> handledOnWorker = new ArrayBlockingQueue<>(4);
    URI uri =
        start(
            exchange ->
                exchange.dispatch(
                    (HttpHandler)
                        worker -> {
                          handledOnWorker.add(!worker.isInIoThread());
                          worker.addExchangeCompleteListener(
                              (done, next) -> {
                                endedOnIoThread.add(done.isInIoThread());
                                next.proceed();
                              });
                          Exchanges.send(worker, 200, "{\"output\":{\"parameters\":[]}}");
                        }));
    HttpClient client = HttpClient.newHttpClient();
    for (int i = 0; i < 2; i++) { // the second on the kept-alive connection
      HttpResponse<String> answer =
          client.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
      assertEquals(200, answer.statusCode());
      assertEquals("{\"output\":{\"parameters\":[]}}", answer.body());
      assertEquals("application/json", answer.headers().firstValue("Content-Type").orElse(null));
      assertEquals(Boolean.TRUE, handledOnWorker.poll(30, TimeUnit.SECONDS));
      assertEquals(Boolean.TRUE, endedOnIoThread.poll(30, TimeUnit.SECONDS), "ended on a worker");
    }
  }

  @Test
  void anErrorAnswerFromAWorkerKeepsItsStatus() throws Exception {
    URI uri =
        start(
            exchange ->
                exchange.dispatch(
                    (HttpHandler) worker -> Exchanges.send(worker, 503, Json.error("not ready"))));
    HttpResponse<String> answer =
        HttpClient.newHttpClient()
            .send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(503, answer.statusCode());
    assertTrue(answer.body().contains("not ready"), answer.body());
  }
}
