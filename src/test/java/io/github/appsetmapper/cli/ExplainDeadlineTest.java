package io.github.appsetmapper.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code run --explain} ends at the mapping's deadline, as the server's explain and {@code run} do:
 * an upstream that accepts and never answers does not keep the command forever. (The timeout below
 * only stops a test that would hang; nothing is asserted about how long it takes.)
 */
class ExplainDeadlineTest {
  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void explainOfAHangingUpstreamEndsAtTheDeadline(@TempDir Path dir) throws Exception {
    try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      List<Socket> held = new ArrayList<>();
      Thread acceptor =
          new Thread(
              () -> {
                try {
                  while (true) {
                    held.add(silent.accept());
                  }
                } catch (IOException closed) {
                  // the test is over
                }
              });
      acceptor.setDaemon(true);
      acceptor.start();
      Path mapping = dir.resolve("m.yaml");
      Files.writeString(
          mapping,
          "name: m\ndeadline: 1s\nlist:\n  request:\n    url: \"http://127.0.0.1:"
              + silent.getLocalPort()
              + "/a\"\n    timeout: 1h\n    retries: 0\n  items: \"$[*]\"\nparameters:\n  x: item\n");
      CliTest.Result result = CliTest.run("run", mapping.toString(), "--explain");
      assertThat(result.out()).contains("getparams would answer 504").contains("deadline 1s");
      assertThat(result.exit()).as(result.err()).isNotZero();
    }
  }
}
