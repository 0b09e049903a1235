package io.github.appsetmapper.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.PluginServer.Answer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * An answer whose end is the connection closing (no Content-Length, no chunks: HTTP/1.0, or {@code
 * Connection: close} alone) cannot show that it was cut. Block YAML or lines cut at a line end
 * still read, as fewer rows: an outside tester got a 200 with 2,542 of 5,000 rows. Such a YAML or
 * text answer is refused; JSON cut short does not parse, so a whole one is read. An upstream of raw
 * sockets, since HTTP servers add a length themselves.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EndedByCloseTest {
  private static final String ROWS = "items:\n- name: a\n- name: b\n";

  private ServerSocket upstream;
  private Thread accepting;
  private PluginServer plugin;

  @BeforeAll
  void start(@TempDir Path dir) throws IOException {
    upstream = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    accepting = new Thread(this::serve, "ended-by-close-upstream");
    accepting.setDaemon(true);
    accepting.start();
    String url = "http://127.0.0.1:" + upstream.getLocalPort();
    plugin =
        PluginServer.withYaml(
            dir,
            Map.of("up", url),
            Map.of(),
            mapping("y", "yaml", "$.items[*]", "item.name"),
            mapping("t", "text", "$", "item.split('\\n').length"),
            mapping("j", "json", "$.items[*]", "item.name"),
            "name: n\nvars: {up: {default: \"http://unset.invalid\"}}\n"
                + "input: {how: {required: true}}\n"
                + "list:\n  request: {url: \"#{vars.up}/json/length\"}\n  items: \"$.items[0:1]\"\n"
                + "enrich:\n  num:\n    request: {url: \"#{vars.up}/number/#{input.how}\","
                + " retries: 0}\n    value: \"response.body\"\n"
                + "parameters: {v: num}\n");
  }

  @AfterAll
  void stop() throws IOException {
    plugin.close();
    upstream.close();
  }

  @Test
  void aYamlAnswerEndedByTheConnectionClosingIsRefused() {
    Answer answer = call("y", "close");
    assertThat(answer.status()).as(answer.body()).isEqualTo(502);
    assertThat(answer.body())
        .contains("its end was the connection closing, so a cut YAML answer would read as a whole");
  }

  @Test
  void aTextAnswerEndedByTheConnectionClosingIsRefused() {
    Answer answer = call("t", "close");
    assertThat(answer.status()).as(answer.body()).isEqualTo(502);
    assertThat(answer.body()).contains("a cut text answer would read as a whole one");
  }

  @Test
  void withALengthOrChunksTheSameAnswersAreRead() {
    assertThat(call("y", "length").body())
        .isEqualTo("{\"output\":{\"parameters\":[{\"v\":\"a\"},{\"v\":\"b\"}]}}");
    assertThat(call("y", "chunked").body())
        .isEqualTo("{\"output\":{\"parameters\":[{\"v\":\"a\"},{\"v\":\"b\"}]}}");
  }

  @Test
  void jsonEndedByTheConnectionClosingIsReadSinceACutOneDoesNotParse() {
    assertThat(call("j", "close").body())
        .isEqualTo("{\"output\":{\"parameters\":[{\"v\":\"a\"},{\"v\":\"b\"}]}}");
    Answer cut = call("j", "cut");
    assertThat(cut.status()).as(cut.body()).isEqualTo(502);
  }

  /**
   * A top-level JSON number, or a body read as text where JSON was not found (no format), cut short
   * is still a value: `12345` read as `12` on a 200 (an outside tester's find).
   */
  @Test
  void aNumberOrTextWithoutAFormatEndedByTheConnectionClosingIsRefused() {
    Answer answer = call("n", "close");
    assertThat(answer.status()).as(answer.body()).isEqualTo(502);
    assertThat(answer.body()).contains("its end was the connection closing");
    assertThat(call("n", "length").body())
        .isEqualTo("{\"output\":{\"parameters\":[{\"v\":\"12345\"}]}}");
  }

  private Answer call(String mapping, String how) {
    return plugin.getparams(mapping, "{\"input\":{\"parameters\":{\"how\":\"" + how + "\"}}}");
  }

  private static String mapping(String name, String format, String items, String value) {
    return "name: "
        + name
        + "\nvars: {up: {default: \"http://unset.invalid\"}}\n"
        + "input: {how: {required: true}}\n"
        + "list:\n  request: {url: \"#{vars.up}/"
        + format
        + "/#{input.how}\", format: "
        + format
        + ", retries: 0}\n  items: \""
        + items
        + "\"\nparameters: {v: \""
        + value
        + "\"}\n";
  }

  /** One answer per connection, then the connection is closed; the path says how to frame it. */
  private void serve() {
    while (!upstream.isClosed()) {
      try (Socket socket = upstream.accept()) {
        String path = requestPath(socket.getInputStream());
        String format = path.split("/")[1];
        String how = path.split("/")[2];
        String body =
            format.equals("json")
                ? (how.equals("cut")
                    ? "{\"items\":[{\"name\":\"a\"},{\"name\":\"b\"}"
                    : "{\"items\":[{\"name\":\"a\"},{\"name\":\"b\"}]}")
                : format.equals("text") ? "a\nb\nc\n" : format.equals("number") ? "12345" : ROWS;
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        String head = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nConnection: close\r\n";
        OutputStream out = socket.getOutputStream();
        switch (how) {
          case "length" ->
              out.write((head + "Content-Length: " + bytes.length + "\r\n\r\n" + body).getBytes());
          case "chunked" ->
              out.write(
                  (head
                          + "Transfer-Encoding: chunked\r\n\r\n"
                          + Integer.toHexString(bytes.length)
                          + "\r\n"
                          + body
                          + "\r\n0\r\n\r\n")
                      .getBytes(StandardCharsets.UTF_8));
          default -> out.write((head + "\r\n" + body).getBytes(StandardCharsets.UTF_8));
        }
        out.flush();
      } catch (IOException | RuntimeException e) {
        // A closed listener ends the loop; a broken exchange fails its own test.
      }
    }
  }

  private static String requestPath(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    for (int b; (b = in.read()) >= 0; ) {
      head.write(b);
      if (head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
        break;
      }
    }
    return head.toString(StandardCharsets.ISO_8859_1).split(" ")[1];
  }
}
