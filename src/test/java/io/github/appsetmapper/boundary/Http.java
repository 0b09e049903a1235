package io.github.appsetmapper.boundary;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;

/** Raw requests for the boundary suite: any bytes as the body, the answer's headers as text. */
final class Http {
  /** Status, body and every header, one "name: value" a line. */
  record Answer(int status, String body, String headers) {
    String all() {
      return headers + "\n" + body;
    }
  }

  private static final HttpClient CLIENT =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

  private Http() {}

  static Answer send(String method, String url, byte[] body, Map<String, String> headers) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(url))
            .timeout(Duration.ofMinutes(2))
            .header("User-Agent", "argocd-applicationset");
    headers.forEach(request::header);
    request.method(
        method,
        body == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofByteArray(body));
    try {
      HttpResponse<byte[]> response =
          CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
      StringBuilder head = new StringBuilder();
      response
          .headers()
          .map()
          .forEach((k, v) -> v.forEach(x -> head.append(k).append(": ").append(x).append('\n')));
      return new Answer(
          response.statusCode(),
          new String(response.body(), StandardCharsets.UTF_8),
          head.toString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
