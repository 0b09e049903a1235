package io.github.appsetmapper.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.github.appsetmapper.testing.LogCapture;
import io.github.appsetmapper.testing.TracedServer;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The collector's credentials ({@code OTEL_EXPORTER_OTLP_HEADERS}) never reach a log line: a
 * collector answering 401 and quoting the headers it was sent makes the SDK log a warning; that
 * line comes through our logging (one line, our format), redacted.
 */
class CollectorCredentialsTest {
  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final String BEARER = "b7Qx2LmZ9pWk4RtE";
  private static final String API_KEY = "k3Vn8YhT1cJs6EdU";
  private static final String TRACES_KEY = "t5Gm0XaP7uNq2WfY";

  @TempDir Path dir;

  @Test
  void theHeadersOfEveryExportAreRedactedFromTheSdksLine() throws Exception {
    exportRefused(
        Map.of(
            "OTEL_EXPORTER_OTLP_HEADERS",
            "Authorization=Bearer " + BEARER + ",x-api-key=" + API_KEY));
  }

  @Test
  void theHeadersOfTraceExportsAreRedactedFromTheSdksLine() throws Exception {
    exportRefused(Map.of("OTEL_EXPORTER_OTLP_TRACES_HEADERS", "x-traces-key=" + TRACES_KEY));
  }

  private void exportRefused(Map<String, String> headers) throws Exception {
    HttpServer collector = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    collector.createContext(
        "/v1/traces",
        exchange -> {
          try (InputStream in = exchange.getRequestBody()) {
            in.readAllBytes();
            String quoted =
                "unauthenticated: authorization="
                    + exchange.getRequestHeaders().getFirst("Authorization")
                    + " x-api-key="
                    + exchange.getRequestHeaders().getFirst("x-api-key")
                    + " x-traces-key="
                    + exchange.getRequestHeaders().getFirst("x-traces-key");
            byte[] body = status(16, quoted);
            exchange.getResponseHeaders().set("Content-Type", "application/x-protobuf");
            exchange.sendResponseHeaders(401, body.length);
            exchange.getResponseBody().write(body);
          } finally {
            exchange.close();
          }
        });
    collector.start();
    try (LogCapture logs = new LogCapture();
        TracedServer server =
            new TracedServer(
                dir,
                Map.of(),
                Map.of(),
                otel(collector, headers),
                "name: m\nparameters: {a: \"'b'\"}\n")) {
      server.getparams("m", "{}", Map.of());
      long end = System.nanoTime() + WAIT.toNanos();
      List<String> rendered = List.of();
      while (System.nanoTime() < end) {
        rendered = logs.rendered().stream().filter(l -> l.contains("status code 401")).toList();
        if (!rendered.isEmpty()) {
          break;
        }
        Thread.sleep(50);
      }
      assertThat(rendered).as("the SDK's warning, through our logging").isNotEmpty();
      for (String line : logs.rendered()) {
        assertThat(line)
            .doesNotContain(BEARER)
            .doesNotContain(API_KEY)
            .doesNotContain(TRACES_KEY)
            .doesNotContain(BEARER.substring(0, 12))
            .doesNotContain(API_KEY.substring(0, 12))
            .doesNotContain(TRACES_KEY.substring(0, 12));
      }
      // One line each, our format.
      assertThat(rendered.get(0).strip()).doesNotContain("\n");
      assertThat(rendered.get(0)).contains("***");
    } finally {
      collector.stop(0);
    }
  }

  private static Map<String, String> otel(HttpServer collector, Map<String, String> headers) {
    Map<String, String> env = new java.util.HashMap<>(headers);
    env.put("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:" + collector.getAddress().getPort());
    env.put("OTEL_BSP_SCHEDULE_DELAY", "20");
    return env;
  }

  /** A google.rpc.Status (code, message) as the OTLP/HTTP specification's error body. */
  private static byte[] status(int code, String message) {
    byte[] text = message.getBytes(StandardCharsets.UTF_8);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(0x08);
    out.write(code);
    out.write(0x12);
    int length = text.length;
    while (length >= 0x80) {
      out.write((length & 0x7f) | 0x80);
      length >>>= 7;
    }
    out.write(length);
    out.writeBytes(text);
    return out.toByteArray();
  }
}
