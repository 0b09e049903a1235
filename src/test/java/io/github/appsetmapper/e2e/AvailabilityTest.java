package io.github.appsetmapper.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.server.ServerOptions;
import io.github.appsetmapper.server.WebhookSecret;
import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.PluginServer.Answer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Silent and slow callers cannot take the server down: credentials are checked from the headers
 * before any body is read, bodies are read without a worker, and a body that does not arrive within
 * the read timeout has its connection closed. Bounds are generous: nothing here asserts how long
 * something took, only that it happens.
 */
class AvailabilityTest {
  private static final String HELLO =
      """
      name: hello
      input:
        who: {default: world}
      parameters:
        greeting: "'hello ' + input.who"
      """;
  private static final String BODY = "{\"input\":{\"parameters\":{\"who\":\"argo\"}}}";
  private static final String ANSWER =
      "{\"output\":{\"parameters\":[{\"greeting\":\"hello argo\"}]}}";
  private static final String SECRET = "webhook-secret-0c1d";

  /** The head of a request whose body of {@code length} bytes is never sent. */
  private static String head(String path, int length, String... headers) {
    StringBuilder out =
        new StringBuilder("POST " + path + " HTTP/1.1\r\nHost: localhost\r\n")
            .append("Content-Type: application/json\r\nContent-Length: ")
            .append(length)
            .append("\r\n");
    for (String header : headers) {
      out.append(header).append("\r\n");
    }
    return out.append("\r\n").toString();
  }

  private static Socket open(PluginServer plugin, String request) throws IOException {
    Socket socket = new Socket();
    socket.connect(new InetSocketAddress("127.0.0.1", plugin.server().port()), 10_000);
    OutputStream out = socket.getOutputStream();
    out.write(request.getBytes(StandardCharsets.US_ASCII));
    out.flush();
    return socket;
  }

  @Test
  void fiveHundredSilentBodiesLeaveGetparamsAnswering(@TempDir Path dir) throws Exception {
    String[] requests = {
      // Unauthenticated: refused from the headers, the body never read.
      head("/mappings/hello/cache/invalidate", 100),
      head("/mappings/hello/api/v1/getparams.execute", 100),
      head("/mappings/hello/guard/reset", 100, "Authorization: Bearer nope"),
      head("/mappings/hello/api/v1/getparams.explain", 100),
      // A signature needs the body: read without a worker, few at once.
      head("/mappings/hello/cache/invalidate", 100, "X-Hub-Signature-256: sha256=00"),
      // Even the right token does not let a silent body hold a worker.
      head(
          "/mappings/hello/api/v1/getparams.execute",
          100,
          "Authorization: Bearer " + PluginServer.TOKEN),
    };
    List<Socket> silent = new ArrayList<>();
    try (PluginServer plugin =
        PluginServer.withServerOptions(
            dir, Map.of(), WebhookSecret.fixed(SECRET), options -> options, HELLO)) {
      try {
        for (int i = 0; i < 500; i++) {
          silent.add(open(plugin, requests[i % requests.length]));
        }
        // The server has 16 workers; each silent connection used to pin one until it closed.
        Answer answer = plugin.getparams("hello", BODY);
        assertThat(answer.status()).as(answer.body()).isEqualTo(200);
        assertThat(answer.body()).isEqualTo(ANSWER);
        Answer explain =
            plugin.send(
                "POST",
                "/mappings/hello/api/v1/getparams.explain",
                BODY,
                "Bearer " + PluginServer.TOKEN,
                "application/json");
        assertThat(explain.status()).isEqualTo(200);
      } finally {
        for (Socket socket : silent) {
          socket.close();
        }
      }
    }
  }

  @Test
  void aBodyThatDoesNotArriveInTimeHasItsConnectionClosed(@TempDir Path dir) throws Exception {
    try (PluginServer plugin =
        PluginServer.withServerOptions(
            dir,
            Map.of(),
            WebhookSecret.fixed(SECRET),
            options -> options.withTimeouts(Duration.ofSeconds(120), Duration.ofMillis(500)),
            HELLO)) {
      String[] requests = {
        head(
            "/mappings/hello/api/v1/getparams.execute",
            100,
            "Authorization: Bearer " + PluginServer.TOKEN),
        head("/mappings/hello/cache/invalidate", 100, "X-Hub-Signature-256: sha256=00"),
        // Refused at once; its unread body is drained, and bounded the same way.
        head("/mappings/hello/cache/invalidate", 100),
      };
      for (String request : requests) {
        try (Socket socket = open(plugin, request + "{\"in")) {
          socket.setSoTimeout(60_000);
          String seen = readUntilClosed(socket.getInputStream());
          assertThat(seen).doesNotContain(" 200 ");
        }
      }
      String metrics = plugin.send("GET", "/metrics", null, null, null).body();
      assertThat(metrics)
          .contains(
              "appset_mapper_requests_refused_total{reason=\"body_timeout\",route=\"getparams\"} 1.0")
          .contains(
              "appset_mapper_requests_refused_total{reason=\"body_timeout\",route=\"cache_invalidate\"} 2.0")
          .contains(
              "appset_mapper_requests_refused_total{reason=\"forbidden\",route=\"cache_invalidate\"} 1.0");
    }
  }

  @Test
  void anIdleKeepAliveConnectionOutlivesTheReadTimeout(@TempDir Path dir) throws Exception {
    assertThat(ServerOptions.DEFAULT_IDLE_TIMEOUT)
        .as("above Go's 90 s idle keep-alive, which Argo CD's client uses")
        .isGreaterThan(Duration.ofSeconds(90));
    try (PluginServer plugin =
        PluginServer.withServerOptions(
            dir,
            Map.of(),
            null,
            options -> options.withTimeouts(Duration.ofSeconds(120), Duration.ofMillis(300)),
            HELLO)) {
      String request =
          head(
                  "/mappings/hello/api/v1/getparams.execute",
                  BODY.length(),
                  "Authorization: Bearer " + PluginServer.TOKEN)
              + BODY;
      try (Socket socket = open(plugin, request)) {
        socket.setSoTimeout(60_000);
        assertThat(readResponse(socket.getInputStream())).endsWith(ANSWER);
        // Idle for longer than the read timeout, as between two Argo CD reconciles.
        Thread.sleep(1500);
        socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
        socket.getOutputStream().flush();
        assertThat(readResponse(socket.getInputStream())).endsWith(ANSWER);
      }
    }
  }

  @Test
  void aSignedWebhookBodyIsCappedSmall(@TempDir Path dir) {
    try (PluginServer plugin =
        PluginServer.withServerOptions(
            dir,
            Map.of(),
            WebhookSecret.fixed(SECRET),
            options -> options.withWebhookMaxBodyBytes(1024),
            HELLO)) {
      String big = "{\"commits\":\"" + "x".repeat(2000) + "\"}";
      Answer refused =
          plugin.send(
              "POST",
              "/mappings/hello/cache/invalidate",
              big,
              null,
              "application/json",
              Map.of(
                  "X-Hub-Signature-256",
                  WebhookSecret.signature(SECRET, big.getBytes(StandardCharsets.UTF_8))));
      assertThat(refused.status()).isEqualTo(413);
      assertThat(refused.body())
          .isEqualTo("{\"error\":\"the request body is larger than 1024 bytes\"}");
      String small = "{\"ref\":\"refs/heads/main\"}";
      Answer accepted =
          plugin.send(
              "POST",
              "/mappings/hello/cache/invalidate",
              small,
              null,
              "application/json",
              Map.of(
                  "X-Hub-Signature-256",
                  WebhookSecret.signature(SECRET, small.getBytes(StandardCharsets.UTF_8))));
      assertThat(accepted.status()).isEqualTo(200);
      assertThat(accepted.body()).isEqualTo("{\"mapping\":\"hello\",\"invalidated\":0}");
    }
  }

  /** Everything the server sends until it closes the connection. */
  private static String readUntilClosed(InputStream in) throws IOException {
    ByteArrayOutputStream seen = new ByteArrayOutputStream();
    byte[] buffer = new byte[4096];
    try {
      for (int n; (n = in.read(buffer)) >= 0; ) {
        seen.write(buffer, 0, n);
      }
    } catch (SocketTimeoutException e) {
      throw new AssertionError("the connection was not closed; got: " + seen, e);
    } catch (IOException e) {
      // A reset is a close too.
    }
    return seen.toString(StandardCharsets.UTF_8);
  }

  /** One response with a Content-Length body. */
  private static String readResponse(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    while (!head.toString(StandardCharsets.US_ASCII).endsWith("\r\n\r\n")) {
      int b = in.read();
      if (b < 0) {
        throw new IOException("closed after: " + head);
      }
      head.write(b);
    }
    String headers = head.toString(StandardCharsets.US_ASCII);
    int length = 0;
    for (String line : headers.split("\r\n")) {
      if (line.toLowerCase().startsWith("content-length:")) {
        length = Integer.parseInt(line.substring(15).trim());
      }
    }
    byte[] body = in.readNBytes(length);
    return headers + new String(body, StandardCharsets.UTF_8);
  }
}
