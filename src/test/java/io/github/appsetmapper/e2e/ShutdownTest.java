package io.github.appsetmapper.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.PluginServer.Answer;
import io.github.appsetmapper.testing.ServerProcess;
import io.github.appsetmapper.testing.StubUpstream;
import io.github.appsetmapper.testing.StubUpstream.Reply;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Graceful shutdown: readiness fails first while requests are still served (the drain delay), then
 * new requests get 503 while those in flight finish, then the process exits, and it exits even when
 * a worker is stuck. Upstreams that hold a call until the test lets go make "in flight" certain;
 * every wait is on a condition, with generous bounds.
 */
class ShutdownTest {
  private static final String HELD =
      """
      name: held
      vars: {up: {default: "http://unset.invalid"}}
      list:
        request: {url: "#{vars.up}/held"}
        items: "$[*]"
      parameters: {id: item.id}
      """;

  /** Waits until {@code condition} holds; false when it still does not after 30 s. */
  private static boolean eventually(Callable<Boolean> condition) throws Exception {
    long until = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (!condition.call()) {
      if (System.nanoTime() > until) {
        return false;
      }
      Thread.sleep(20);
    }
    return true;
  }

  /** An upstream answer that waits for {@code release}. */
  private static Reply heldUntil(CountDownLatch release, String json) {
    return Reply.custom(
        exchange -> {
          release.await();
          exchange.setStatusCode(200);
          exchange
              .getResponseHeaders()
              .put(io.undertow.util.Headers.CONTENT_TYPE, "application/json");
          exchange.getOutputStream().write(json.getBytes(StandardCharsets.UTF_8));
        });
  }

  @Test
  void drainThenFinishInFlightThenStop(@TempDir Path dir) throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    try (StubUpstream stub = new StubUpstream();
        PluginServer plugin =
            PluginServer.withYaml(
                dir, Map.of("up", stub.url()), Map.of(), HELD, HELD.replace("held", "quick"))) {
      stub.on("GET /held", heldUntil(release, "[{\"id\":1}]"));
      stub.on("GET /quick", Reply.json(200, "[{\"id\":2}]"));
      try {
        CompletableFuture<Answer> inFlight =
            CompletableFuture.supplyAsync(() -> plugin.getparams("held", "{}"));
        assertThat(eventually(() -> stub.calls() == 1)).as("the call is in flight").isTrue();
        CompletableFuture<Boolean> stopped =
            CompletableFuture.supplyAsync(
                () -> {
                  try {
                    // A drain long enough to look at; the grace longer than any busy machine.
                    return plugin.server().shutdown(Duration.ofSeconds(5), Duration.ofSeconds(60));
                  } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                  }
                });
        // Draining: not ready at once, but still serving what the Service sends before it notices.
        assertThat(
                eventually(() -> plugin.send("GET", "/readyz", null, null, null).status() == 503))
            .isTrue();
        assertThat(plugin.getparams("quick", "{}").body())
            .isEqualTo("{\"output\":{\"parameters\":[{\"id\":\"2\"}]}}");
        // Past the drain: new calls are refused with a retryable 503, the one in flight goes on.
        assertThat(eventually(() -> plugin.getparams("quick", "{}").status() == 503)).isTrue();
        assertThat(plugin.getparams("quick", "{}").body())
            .isEqualTo("{\"error\":\"the server is shutting down; retry\"}");
        assertThat(inFlight).isNotDone();
        release.countDown();
        assertThat(inFlight.get(60, TimeUnit.SECONDS).body())
            .isEqualTo("{\"output\":{\"parameters\":[{\"id\":\"1\"}]}}");
        assertThat(stopped.get(60, TimeUnit.SECONDS)).as("all in flight finished").isTrue();
      } finally {
        release.countDown();
      }
    }
  }

  private static final String STUCK =
      """
      name: stuck
      deadline: 10m
      vars: {up: {default: "http://unset.invalid"}}
      defaults: {timeout: 10m}
      list:
        request: {url: "#{vars.up}/never"}
        items: "$[*]"
      parameters: {id: item.id}
      """;

  @Test
  void aStuckWorkerDoesNotHoldTheShutdownPastTheGracePeriod(@TempDir Path dir) throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    try (StubUpstream stub = new StubUpstream()) {
      // The upstream never answers: the worker waits on it, as on anything else that hangs.
      stub.on("GET /never", heldUntil(release, "[]"));
      try (PluginServer plugin =
          PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of(), STUCK)) {
        CompletableFuture<Answer> inFlight =
            CompletableFuture.supplyAsync(
                () -> {
                  try {
                    return plugin.getparams("stuck", "{}");
                  } catch (RuntimeException e) {
                    return new Answer(-1, e.toString(), Map.of());
                  }
                });
        assertThat(eventually(() -> stub.calls() == 1)).as("the call is in flight").isTrue();
        CompletableFuture<Boolean> stopped =
            CompletableFuture.supplyAsync(
                () -> {
                  try {
                    return plugin.server().shutdown(Duration.ZERO, Duration.ofMillis(300));
                  } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                  }
                });
        // Generous: a hang is what fails, not slowness (it used to wait for the worker forever).
        assertThat(stopped.get(60, TimeUnit.SECONDS)).as("the request was cut off").isFalse();
        assertThat(inFlight.get(60, TimeUnit.SECONDS).status()).isNotEqualTo(200);
      } finally {
        release.countDown();
      }
    }
  }

  /**
   * The server as a process, {@code serve} with {@code mapping}; its output gathered as it comes.
   */
  private record Served(ServerProcess owner) {
    Process process() {
      return owner.process();
    }

    /** Every line written so far. */
    List<String> output() {
      return owner.lines();
    }

    int port() {
      return owner.port();
    }
  }

  private static Served serve(Path mapping, String upstream, String... options) throws Exception {
    List<String> arguments =
        new ArrayList<>(
            List.of(
                "serve",
                "--mappings",
                mapping.toString(),
                "--var",
                "up=" + upstream,
                "--port",
                "0",
                "--host",
                "127.0.0.1",
                "--insecure-no-auth"));
    arguments.addAll(List.of(options));
    return new Served(ServerProcess.start(List.of(), arguments));
  }

  /** SIGTERM as Kubernetes sends it; Process.destroy() would also close our end of its output. */
  private static void sigterm(Process process) throws Exception {
    new ProcessBuilder("kill", "-TERM", Long.toString(process.pid())).start().waitFor();
  }

  private static CompletableFuture<HttpResponse<String>> getparams(int port, String mapping) {
    return HttpClient.newHttpClient()
        .sendAsync(
            HttpRequest.newBuilder(
                    URI.create(
                        "http://127.0.0.1:"
                            + port
                            + "/mappings/"
                            + mapping
                            + "/api/v1/getparams.execute"))
                .POST(HttpRequest.BodyPublishers.ofString("{}"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void sigtermStopsTheProcessGracefully(@TempDir Path dir) throws Exception {
    Path mapping = dir.resolve("held.yaml");
    Files.writeString(mapping, HELD);
    CountDownLatch release = new CountDownLatch(1);
    try (StubUpstream stub = new StubUpstream()) {
      stub.on("GET /held", heldUntil(release, "[{\"id\":1}]"));
      Served served = serve(mapping, stub.url(), "--drain-delay", "300ms", "--grace-period", "60s");
      try {
        CompletableFuture<HttpResponse<String>> inFlight = getparams(served.port(), "held");
        assertThat(eventually(() -> stub.calls() == 1)).as("the call is in flight").isTrue();
        sigterm(served.process());
        assertThat(
                eventually(
                    () ->
                        served.output().stream().anyMatch(l -> l.contains("stopping: not ready"))))
            .isTrue();
        release.countDown();
        HttpResponse<String> answer = inFlight.get(60, TimeUnit.SECONDS);
        assertThat(answer.statusCode()).isEqualTo(200);
        assertThat(answer.body()).isEqualTo("{\"output\":{\"parameters\":[{\"id\":\"1\"}]}}");
        assertThat(served.process().waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(eventually(() -> served.output().stream().anyMatch(l -> l.endsWith("stopped"))))
            .as(String.join("\n", served.output()))
            .isTrue();
        assertThat(served.output())
            .anyMatch(
                l ->
                    l.contains(
                        "stopping: not ready from now, serving 300ms more, then up to 60s for"
                            + " requests in flight"));
      } finally {
        release.countDown();
        served.process().destroyForcibly();
      }
    }
  }

  @Test
  void sigtermEndsTheProcessEvenWithAStuckWorker(@TempDir Path dir) throws Exception {
    Path mapping = dir.resolve("stuck.yaml");
    Files.writeString(mapping, STUCK);
    CountDownLatch release = new CountDownLatch(1);
    try (StubUpstream stub = new StubUpstream()) {
      stub.on("GET /never", heldUntil(release, "[]"));
      Served served = serve(mapping, stub.url(), "--drain-delay", "10ms", "--grace-period", "1s");
      try {
        CompletableFuture<HttpResponse<String>> inFlight = getparams(served.port(), "stuck");
        assertThat(eventually(() -> stub.calls() == 1)).as("the call is in flight").isTrue();
        sigterm(served.process());
        // Generous: the process must end (about a second past the grace period), not hang.
        assertThat(served.process().waitFor(60, TimeUnit.SECONDS))
            .as(String.join("\n", served.output()))
            .isTrue();
        assertThat(served.output())
            .anyMatch(l -> l.contains("requests still in flight after the grace period"));
        assertThat(inFlight).failsWithin(Duration.ofSeconds(60));
      } finally {
        release.countDown();
        served.process().destroyForcibly();
      }
    }
  }
}
