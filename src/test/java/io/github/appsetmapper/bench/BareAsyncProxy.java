package io.github.appsetmapper.bench;

import io.undertow.Undertow;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import io.undertow.util.SameThreadExecutor;
import java.nio.charset.StandardCharsets;
import org.apache.hc.client5.http.async.methods.SimpleHttpRequest;
import org.apache.hc.client5.http.async.methods.SimpleHttpResponse;
import org.apache.hc.client5.http.async.methods.SimpleRequestBuilder;
import org.apache.hc.client5.http.impl.async.CloseableHttpAsyncClient;
import org.apache.hc.client5.http.impl.async.HttpAsyncClients;
import org.apache.hc.client5.http.impl.nio.PoolingAsyncClientConnectionManagerBuilder;
import org.apache.hc.core5.concurrent.FutureCallback;
import org.apache.hc.core5.reactor.IOReactorConfig;

/**
 * The floor of another design, for bench/latency: the same call made without a worker thread
 * (Undertow's IO thread hands the request to HttpClient 5's async client, whose reactor answers
 * when the upstream does). Beside {@link BareProxy} it shows what the thread hand-offs and the
 * blocked worker of the classic design cost on one CPU. Usage: BareAsyncProxy PORT UPSTREAM_URL.
 */
public final class BareAsyncProxy {
  private BareAsyncProxy() {}

  public static void main(String[] args) {
    String upstream = args[1];
    CloseableHttpAsyncClient client =
        HttpAsyncClients.custom()
            .setConnectionManager(
                PoolingAsyncClientConnectionManagerBuilder.create()
                    .setMaxConnTotal(256)
                    .setMaxConnPerRoute(256)
                    .build())
            .setIOReactorConfig(IOReactorConfig.custom().setIoThreadCount(1).build())
            .disableRedirectHandling()
            .disableAutomaticRetries()
            .disableCookieManagement()
            .build();
    client.start();
    Undertow.builder()
        .addHttpListener(Integer.parseInt(args[0]), "127.0.0.1")
        .setHandler(
            exchange ->
                exchange
                    .getRequestReceiver()
                    .receiveFullBytes(
                        (ex, body) -> {
                          String text = new String(body, StandardCharsets.UTF_8);
                          int start = text.indexOf("\"key1\":\"") + 8;
                          String key = text.substring(start, text.indexOf('"', start));
                          SimpleHttpRequest request =
                              SimpleRequestBuilder.get(upstream + "/info/" + key).build();
                          // Dispatched on the IO thread itself: the exchange stays open until the
                          // client's callback answers it, and no worker thread takes part.
                          ex.dispatch(
                              SameThreadExecutor.INSTANCE,
                              () ->
                                  client.execute(
                                      request,
                                      new FutureCallback<SimpleHttpResponse>() {
                                        @Override
                                        public void completed(SimpleHttpResponse response) {
                                          answer(ex, key, response.getBodyText());
                                        }

                                        @Override
                                        public void failed(Exception e) {
                                          ex.setStatusCode(502);
                                          ex.getResponseSender().send(e.toString());
                                        }

                                        @Override
                                        public void cancelled() {
                                          ex.setStatusCode(502);
                                          ex.getResponseSender().send("cancelled");
                                        }
                                      }));
                        }))
        .build()
        .start();
  }

  private static void answer(HttpServerExchange exchange, String key, String value) {
    exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "application/json");
    exchange
        .getResponseSender()
        .send(
            "{\"output\":{\"parameters\":[{\"key1\":\""
                + key
                + "\",\"upstream\":"
                + value
                + "}]}}");
  }
}
