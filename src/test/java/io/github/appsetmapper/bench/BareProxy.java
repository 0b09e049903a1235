package io.github.appsetmapper.bench;

import io.undertow.Undertow;
import io.undertow.util.Headers;
import java.nio.charset.StandardCharsets;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.http.io.entity.EntityUtils;

/**
 * The floor for the upstream-bound benchmark (bench/latency): the same stack as appset-mapper
 * (Undertow, a worker thread, HttpClient 5's classic pooled client) making the same one call per
 * getparams, without a token check, a mapping, JSON parsing or a log line. What this adds over the
 * upstream is what the stack costs on the server's one CPU; appset-mapper's figure beside it is
 * what the product adds. Usage: BareProxy PORT UPSTREAM_BASE_URL (GET UPSTREAM/info/{key1}).
 */
public final class BareProxy {
  private BareProxy() {}

  public static void main(String[] args) {
    String upstream = args[1];
    CloseableHttpClient client =
        HttpClients.custom()
            .setConnectionManager(
                PoolingHttpClientConnectionManagerBuilder.create()
                    .setMaxConnTotal(256)
                    .setMaxConnPerRoute(256)
                    .build())
            .disableRedirectHandling()
            .disableAutomaticRetries()
            .disableCookieManagement()
            .build();
    Undertow.builder()
        .addHttpListener(Integer.parseInt(args[0]), "127.0.0.1")
        .setWorkerThreads(128)
        .setHandler(
            exchange ->
                exchange
                    .getRequestReceiver()
                    .receiveFullBytes(
                        (ex, body) ->
                            ex.dispatch(
                                () -> {
                                  // The request's key: the text after "key1":" (the bench's own
                                  // bodies), not a JSON parse, which is appset-mapper's cost.
                                  String text = new String(body, StandardCharsets.UTF_8);
                                  int start = text.indexOf("\"key1\":\"") + 8;
                                  String key = text.substring(start, text.indexOf('"', start));
                                  String value;
                                  try {
                                    value =
                                        client.execute(
                                            new HttpGet(upstream + "/info/" + key),
                                            response -> EntityUtils.toString(response.getEntity()));
                                  } catch (Exception e) {
                                    ex.setStatusCode(502);
                                    ex.getResponseSender().send(e.toString());
                                    return;
                                  }
                                  ex.getResponseHeaders()
                                      .put(Headers.CONTENT_TYPE, "application/json");
                                  ex.getResponseSender()
                                      .send(
                                          "{\"output\":{\"parameters\":[{\"key1\":\""
                                              + key
                                              + "\",\"upstream\":"
                                              + value
                                              + "}]}}");
                                })))
        .build()
        .start();
  }
}
