package io.github.appsetmapper.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.PluginServer.Answer;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An answer cut short is named by where it was cut (issue 21, item 13): a head cut in its status
 * line or its headers is not "closed without an answer", nor the HTTP client's bare words.
 */
class CutAnswerWordsTest {
  @TempDir Path dir;

  /** An upstream that reads each request's head, writes {@code sent} and closes. */
  private static Thread upstream(ServerSocket server, String sent) {
    Thread thread =
        new Thread(
            () -> {
              while (!server.isClosed()) {
                try (Socket socket = server.accept()) {
                  InputStream in = socket.getInputStream();
                  int matched = 0;
                  byte[] end = "\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
                  for (int b; matched < 4 && (b = in.read()) >= 0; ) {
                    matched = b == end[matched] ? matched + 1 : (b == '\r' ? 1 : 0);
                  }
                  OutputStream out = socket.getOutputStream();
                  out.write(sent.getBytes(StandardCharsets.US_ASCII));
                  out.flush();
                } catch (Exception e) {
                  // closed
                }
              }
            });
    thread.setDaemon(true);
    thread.start();
    return thread;
  }

  private String answer(String sent) throws Exception {
    try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      upstream(server, sent);
      String yaml =
          """
          name: cut
          vars: {up: {default: "http://unset.invalid"}}
          list:
            request: {url: "#{vars.up}/rows", retries: 0}
            items: "$[*]"
          parameters: {id: item}
          """;
      try (PluginServer plugin =
          PluginServer.withYaml(
              dir, Map.of("up", "http://127.0.0.1:" + server.getLocalPort()), Map.of(), yaml)) {
        Answer answer = plugin.getparams("cut", "{}");
        return answer.status() + " " + answer.body();
      }
    }
  }

  @Test
  void aCutHeadIsNotCalledNoAnswer() throws Exception {
    // Part of the status line arrived: not "closed without an answer".
    assertThat(answer("HTTP/1.1 20"))
        .endsWith(
            "/rows: the connection closed before the answer's head (status line and headers)"
                + " arrived\"}");
    // The status line and part of a header: the client's own words, said to be about the head.
    assertThat(answer("HTTP/1.1 200 OK\r\nContent-Length: 10\r\nX-A"))
        .startsWith("502 ")
        .contains("/rows: the answer's head is cut short or malformed (");
    // The whole head, part of the body.
    assertThat(answer("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n[1"))
        .endsWith("/rows: connection closed before the whole answer arrived\"}");
  }
}
