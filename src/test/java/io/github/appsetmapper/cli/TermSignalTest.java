package io.github.appsetmapper.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.testing.ServerProcess;
import io.github.appsetmapper.testing.StubUpstream;
import io.github.appsetmapper.testing.StubUpstream.Reply;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * SIGTERM on the real {@code serve} process, as Kubernetes sends it: readiness fails at once, the
 * request in flight finishes, the last log line is written, and the process exits with 0 (the JVM's
 * own TERM handling exits with 143, which Kubernetes reports as an error).
 */
@EnabledOnOs({OS.LINUX, OS.MAC})
class TermSignalTest {
  private static final Duration BOUND = Duration.ofSeconds(30);
  private static final String SLOW =
      """
      name: slow
      vars: {up: {default: "http://unset.invalid"}}
      list:
        request: {url: "#{vars.up}/slow"}
        items: "$[*]"
      parameters: {id: item.id}
      """;

  @ParameterizedTest
  @EnumSource(LogFormat.class)
  void sigtermDrainsFinishesInFlightAndExitsZero(LogFormat format, @TempDir Path dir)
      throws Exception {
    Path mapping = dir.resolve("slow.yaml");
    Files.writeString(mapping, SLOW);
    CountDownLatch arrived = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    try (StubUpstream stub = new StubUpstream()) {
      // The upstream holds the call until the test lets it go: "in flight" for as long as needed.
      stub.on(
          "GET /slow",
          request -> {
            arrived.countDown();
            await(release);
            return Reply.json(200, "[{\"id\":1}]");
          });
      Server server =
          Server.start(
              "serve",
              "--mappings",
              mapping.toString(),
              "--var",
              "up=" + stub.url(),
              "--port",
              "0",
              "--host",
              "127.0.0.1",
              "--insecure-no-auth",
              "--log-format",
              format.toString(),
              "--drain-delay",
              "200ms",
              "--grace-period",
              "30s");
      try {
        HttpClient client = HttpClient.newHttpClient();
        assertThat(server.get(client, "/readyz").statusCode()).isEqualTo(200);
        CompletableFuture<HttpResponse<String>> inFlight =
            client.sendAsync(
                HttpRequest.newBuilder(server.uri("/mappings/slow/api/v1/getparams.execute"))
                    .POST(HttpRequest.BodyPublishers.ofString("{}"))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(arrived.await(BOUND.toSeconds(), TimeUnit.SECONDS)).isTrue();

        server.signal("TERM");

        // Not ready from now on, while the call in flight is still held by the upstream.
        waitFor(() -> server.readyzStatus(client) == 503, "readiness turns 503", server);
        assertThat(inFlight).isNotDone();
        assertThat(server.process.isAlive()).isTrue();
        release.countDown();
        HttpResponse<String> answer = inFlight.get(BOUND.toSeconds(), TimeUnit.SECONDS);
        assertThat(answer.statusCode()).isEqualTo(200);
        assertThat(answer.body()).isEqualTo("{\"output\":{\"parameters\":[{\"id\":\"1\"}]}}");
        assertThat(server.process.waitFor(BOUND.toSeconds(), TimeUnit.SECONDS))
            .as(server.log())
            .isTrue();
        assertThat(server.process.exitValue()).as(server.log()).isZero();
        server.owner.awaitOutputEnd();
        // Logs flushed: the stop sequence's last line is the process's last line.
        List<String> lines = server.lines();
        assertThat(lines).isNotEmpty();
        assertThat(lines.get(lines.size() - 1)).contains("stopped");
        assertThat(lines).anyMatch(l -> l.contains("stopping: not ready from now"));
      } finally {
        release.countDown();
        server.process.destroyForcibly();
      }
    }
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await(BOUND.toSeconds(), TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void waitFor(BooleanSupplier condition, String what, Server server)
      throws InterruptedException {
    long deadline = System.nanoTime() + BOUND.toNanos();
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as(what + "\n" + server.log()).isLessThan(deadline);
      Thread.sleep(20);
    }
  }

  /** {@code java -cp <test classpath> ...Main serve ...}, its output read as it comes. */
  private record Server(Process process, ServerProcess owner, int port) {
    static Server start(String... args) throws Exception {
      ServerProcess owner = ServerProcess.start(List.of(), List.of(args));
      return new Server(owner.process(), owner, owner.port());
    }

    URI uri(String path) {
      return URI.create("http://127.0.0.1:" + port + path);
    }

    HttpResponse<String> get(HttpClient client, String path)
        throws IOException, InterruptedException {
      return client.send(
          HttpRequest.newBuilder(uri(path)).build(), HttpResponse.BodyHandlers.ofString());
    }

    int readyzStatus(HttpClient client) {
      try {
        return get(client, "/readyz").statusCode();
      } catch (IOException e) {
        return -1;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return -1;
      }
    }

    /** A signal as Kubernetes sends it; Process.destroy() would also close our end of the pipe. */
    void signal(String name) throws Exception {
      owner.signal(name);
    }

    List<String> lines() {
      return owner.lines();
    }

    String log() {
      return owner.text();
    }
  }
}
