package io.github.appsetmapper.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.PluginServer.Answer;
import io.github.appsetmapper.testing.StubUpstream;
import io.github.appsetmapper.testing.StubUpstream.Reply;
import java.io.BufferedReader;
import java.io.InputStreamReader;
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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Graceful shutdown: readiness fails first while requests are still served (the drain delay), then
 * new requests get 503 while those in flight finish, then the process exits.
 */
class ShutdownTest {
  private static final String SLOW =
      """
      name: slow
      vars: {up: {default: "http://unset.invalid"}}
      list:
        request: {url: "#{vars.up}/slow"}
        items: "$[*]"
      parameters: {id: item.id}
      """;

  @Test
  void drainThenFinishInFlightThenStop(@TempDir Path dir) throws Exception {
    try (StubUpstream stub = new StubUpstream();
        PluginServer plugin =
            PluginServer.withYaml(
                dir, Map.of("up", stub.url()), Map.of(), SLOW, SLOW.replace("slow", "quick"))) {
      stub.on("GET /slow", Reply.json(200, "[{\"id\":1}]").delayed(1200));
      CompletableFuture<Answer> inFlight =
          CompletableFuture.supplyAsync(() -> plugin.getparams("slow", "{}"));
      Thread.sleep(200);
      CompletableFuture<Boolean> stopped =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  return plugin.server().shutdown(Duration.ofMillis(600), Duration.ofSeconds(5));
                } catch (InterruptedException e) {
                  throw new IllegalStateException(e);
                }
              });
      Thread.sleep(150);
      // Draining: not ready, but still serving what the Service sends before it notices.
      assertThat(plugin.send("GET", "/readyz", null, null, null).status()).isEqualTo(503);
      // Another call: an identical one would share the answer of the one in flight.
      stub.on("GET /quick", Reply.json(200, "[{\"id\":2}]"));
      assertThat(plugin.getparams("quick", "{}").body())
          .isEqualTo("{\"output\":{\"parameters\":[{\"id\":\"2\"}]}}");
      Thread.sleep(600);
      // Past the drain: new calls are refused with a retryable 503, the one in flight goes on.
      assertThat(inFlight).isNotDone();
      assertThat(plugin.getparams("slow", "{}").body())
          .isEqualTo("{\"error\":\"the server is shutting down; retry\"}");
      assertThat(inFlight.get(5, TimeUnit.SECONDS).body())
          .isEqualTo("{\"output\":{\"parameters\":[{\"id\":\"1\"}]}}");
      assertThat(stopped.get(5, TimeUnit.SECONDS)).as("all in flight finished").isTrue();
    }
  }

  @Test
  void aStuckWorkerDoesNotHoldTheShutdownPastTheGracePeriod(@TempDir Path dir) throws Exception {
    String stuck =
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
    java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
    try (StubUpstream stub = new StubUpstream()) {
      // The upstream never answers: the worker waits on it, as on anything else that hangs.
      stub.on("GET /never", Reply.custom(exchange -> release.await()));
      try (PluginServer plugin =
          PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of(), stuck)) {
        CompletableFuture<Answer> inFlight =
            CompletableFuture.supplyAsync(
                () -> {
                  try {
                    return plugin.getparams("stuck", "{}");
                  } catch (RuntimeException e) {
                    return new Answer(-1, e.toString(), Map.of());
                  }
                });
        long waitUntil = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (stub.calls() == 0 && System.nanoTime() < waitUntil) {
          Thread.sleep(20);
        }
        assertThat(stub.calls()).as("the call reached the upstream").isEqualTo(1);
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

  @Test
  void sigtermStopsTheProcessGracefully(@TempDir Path dir) throws Exception {
    Path mapping = dir.resolve("slow.yaml");
    Files.writeString(mapping, SLOW);
    try (StubUpstream stub = new StubUpstream()) {
      stub.on("GET /slow", Reply.json(200, "[{\"id\":1}]").delayed(1000));
      List<String> command = new ArrayList<>();
      command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
      command.addAll(List.of("-cp", System.getProperty("java.class.path")));
      command.addAll(
          List.of(
              "io.github.appsetmapper.cli.Main",
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
              "--drain-delay",
              "300ms",
              "--grace-period",
              "5s"));
      Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
      // Read as it comes: the server runs until it is told to stop.
      List<String> output = java.util.Collections.synchronizedList(new ArrayList<>());
      Thread reader =
          new Thread(
              () ->
                  new BufferedReader(
                          new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))
                      .lines()
                      .forEach(output::add));
      reader.setDaemon(true);
      reader.start();
      int port = -1;
      Pattern listening = Pattern.compile(".*listening on [^:]+:(\\d+) .*");
      long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
      while (port < 0 && System.nanoTime() < deadline) {
        synchronized (output) {
          for (String line : output) {
            Matcher m = listening.matcher(line);
            if (m.matches()) {
              port = Integer.parseInt(m.group(1));
            }
          }
        }
        Thread.sleep(50);
      }
      assertThat(port).as(String.join("\n", output)).isPositive();
      HttpClient client = HttpClient.newHttpClient();
      CompletableFuture<HttpResponse<String>> inFlight =
          client.sendAsync(
              HttpRequest.newBuilder(
                      URI.create(
                          "http://127.0.0.1:" + port + "/mappings/slow/api/v1/getparams.execute"))
                  .POST(HttpRequest.BodyPublishers.ofString("{}"))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      Thread.sleep(200);
      // SIGTERM as Kubernetes sends it; Process.destroy() would also close our end of its output.
      new ProcessBuilder("kill", "-TERM", Long.toString(process.pid())).start().waitFor();
      HttpResponse<String> answer = inFlight.get(10, TimeUnit.SECONDS);
      assertThat(answer.statusCode()).isEqualTo(200);
      assertThat(answer.body()).isEqualTo("{\"output\":{\"parameters\":[{\"id\":\"1\"}]}}");
      assertThat(process.waitFor(10, TimeUnit.SECONDS)).isTrue();
      reader.join(2000);
      assertThat(output)
          .anyMatch(
              l ->
                  l.contains(
                      "stopping: not ready from now, serving 300ms more, then up to 5s for requests in flight"))
          .anyMatch(l -> l.endsWith("stopped"));
    }
  }
}
