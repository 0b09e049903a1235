package io.github.appsetmapper.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.testing.PluginServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every route takes its methods exactly: RFC 9110 has methods case-sensitive, and Undertow compares
 * them regardless of case, so {@code post} reached getparams and {@code POST /healthz} answered
 * 200. Raw requests over a socket: the JDK client sends the method as given, but a test of the wire
 * should not depend on it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ExactMethodsTest {
  private static final String TOKEN = "Bearer " + PluginServer.TOKEN;
  private static final String BODY = "{\"input\":{\"parameters\":{}}}";

  private PluginServer plugin;

  @BeforeAll
  void start(@TempDir Path dir) {
    plugin =
        PluginServer.withYaml(dir, Map.of(), Map.of(), "name: simple\nparameters: {a: \"'b'\"}\n");
  }

  @AfterAll
  void stop() {
    plugin.close();
  }

  private record Raw(int status, Map<String, String> headers, String body) {}

  /** One request written by hand, the answer read to the end (the connection is closed). */
  private Raw raw(String method, String path, String authorization, String body)
      throws IOException {
    int port = Integer.parseInt(plugin.url().substring(plugin.url().lastIndexOf(':') + 1));
    try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
      socket.setSoTimeout(30_000);
      byte[] content = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
      StringBuilder request = new StringBuilder();
      request.append(method).append(' ').append(path).append(" HTTP/1.1\r\n");
      request.append("Host: 127.0.0.1\r\nConnection: close\r\n");
      if (authorization != null) {
        request.append("Authorization: ").append(authorization).append("\r\n");
      }
      request.append("Content-Type: application/json\r\n");
      request.append("Content-Length: ").append(content.length).append("\r\n\r\n");
      OutputStream out = socket.getOutputStream();
      out.write(request.toString().getBytes(StandardCharsets.US_ASCII));
      out.write(content);
      out.flush();
      InputStream in = socket.getInputStream();
      ByteArrayOutputStream answer = new ByteArrayOutputStream();
      in.transferTo(answer);
      String text = answer.toString(StandardCharsets.UTF_8);
      int end = text.indexOf("\r\n\r\n");
      String[] lines = text.substring(0, end).split("\r\n");
      Map<String, String> headers = new java.util.HashMap<>();
      for (int i = 1; i < lines.length; i++) {
        int colon = lines[i].indexOf(':');
        headers.put(
            lines[i].substring(0, colon).toLowerCase(Locale.ROOT),
            lines[i].substring(colon + 1).strip());
      }
      return new Raw(Integer.parseInt(lines[0].split(" ")[1]), headers, text.substring(end + 4));
    }
  }

  /** Each route with its own method, as Argo CD and kubelet send them: answered. */
  @ParameterizedTest
  @CsvSource({
    "POST, /mappings/simple/api/v1/getparams.execute, 200",
    "GET, /mappings, 200",
    "HEAD, /mappings, 200",
    "HEAD, /mappings/, 200",
    "GET, /healthz/, 200",
    "HEAD, /healthz/, 200",
    "GET, /healthz, 200",
    "HEAD, /healthz, 200",
    "GET, /readyz, 200",
    "HEAD, /readyz, 200",
    "GET, /metrics, 200",
    "HEAD, /metrics, 200",
  })
  void theRightMethodIsAnswered(String method, String path, int status) throws IOException {
    Raw answer = raw(method, path, TOKEN, method.equals("POST") ? BODY : null);
    assertThat(answer.status()).as(answer.body()).isEqualTo(status);
    if (method.equals("HEAD")) {
      assertThat(answer.body()).isEmpty();
    }
  }

  /** A method in the wrong case, or the wrong method, on every route: the 405 and its Allow. */
  @ParameterizedTest
  @CsvSource({
    "post, /mappings/simple/api/v1/getparams.execute, POST",
    "Post, /mappings/simple/api/v1/getparams.execute, POST",
    "post, /api/v1/getparams.execute, POST",
    "post, /mappings/simple/api/v1/getparams.explain, POST",
    "post, /mappings/simple/guard/reset, POST",
    "post, /mappings/simple/cache/invalidate, POST",
    "post, /mappings/simple/shadow/api/v1/getparams.execute, POST",
    "get, /mappings/simple/shadow, 'GET, HEAD'",
    "POST, /mappings/simple/shadow, 'GET, HEAD'",
    "get, /mappings, 'GET, HEAD'",
    "head, /mappings, 'GET, HEAD'",
    "get, /mappings/, 'GET, HEAD'",
    "POST, /healthz/, 'GET, HEAD'",
    "POST, /healthz//, 'GET, HEAD'",
    "PUT, /readyz/, 'GET, HEAD'",
    "DELETE, /metrics/, 'GET, HEAD'",
    "get, /healthz, 'GET, HEAD'",
    "head, /healthz, 'GET, HEAD'",
    "POST, /healthz, 'GET, HEAD'",
    "PUT, /healthz, 'GET, HEAD'",
    "DELETE, /readyz, 'GET, HEAD'",
    "get, /readyz, 'GET, HEAD'",
    "POST, /metrics, 'GET, HEAD'",
    "get, /metrics, 'GET, HEAD'",
  })
  void anyOtherMethodGetsThe405(String method, String path, String allow) throws IOException {
    Raw answer = raw(method, path, TOKEN, method.equalsIgnoreCase("POST") ? BODY : null);
    assertThat(answer.status()).as(answer.body()).isEqualTo(405);
    assertThat(answer.headers().get("allow")).isEqualTo(allow);
    if (!method.equalsIgnoreCase("HEAD")) {
      assertThat(answer.body())
          .isEqualTo("{\"error\":\"method " + method + " not allowed; use " + allow + "\"}");
    }
  }

  /** The token is still checked before the method on the routes that take one. */
  @Test
  void withoutTheTokenAWrongCaseIsForbiddenFirst() throws IOException {
    Raw answer = raw("post", "/mappings/simple/api/v1/getparams.execute", null, BODY);
    assertThat(answer.status()).as(answer.body()).isEqualTo(403);
  }
}
