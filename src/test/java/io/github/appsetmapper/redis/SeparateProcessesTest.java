package io.github.appsetmapper.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.testing.RedisServer;
import io.github.appsetmapper.testing.StubUpstream;
import io.github.appsetmapper.testing.StubUpstream.Reply;
import java.io.BufferedReader;
import java.io.IOException;
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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pods as they are: separate JVMs running {@code serve --redis}, each its own process, sharing one
 * real Redis and one stub upstream.
 */
class SeparateProcessesTest {
  private static final String TOKEN = "separate-processes-token-5d1e";
  private static final Pattern LISTENING = Pattern.compile("listening on 127\\.0\\.0\\.1:(\\d+)");
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

  @TempDir Path dir;
  private RedisServer redis;
  private StubUpstream stub;
  private final List<Pod> pods = new ArrayList<>();
  private final AtomicInteger rows = new AtomicInteger(10);

  /** One server process, its port and its output. */
  private record Pod(Process process, int port, StringBuffer output) {
    String url() {
      return "http://127.0.0.1:" + port;
    }
  }

  @BeforeEach
  void start() throws IOException {
    RedisServer.assumeInstalled();
    redis = RedisServer.start(dir, "separate-processes-redis-password");
    stub = new StubUpstream();
    stub.on("GET /repos/front/pulls", Reply.json(200, SharedReplicasTest.numbers(3)).delayed(200));
    stub.on(
        "GET /repos/guarded/pulls", r -> Reply.json(200, SharedReplicasTest.numbers(rows.get())));
    Path mappings = Files.createDirectories(dir.resolve("mappings"));
    Files.writeString(
        mappings.resolve("pulls.yaml"),
        SharedReplicasTest.mapping("pulls", "cache: {ttl: 1h}", ""));
    Files.writeString(
        mappings.resolve("guarded.yaml"),
        SharedReplicasTest.mapping("guarded", "", "maxDrop: 50%"));
    Files.writeString(dir.resolve("keys"), "k1=" + "separate-processes-integrity-key-0123456789");
    Files.writeString(dir.resolve("password"), "separate-processes-redis-password");
  }

  @AfterEach
  void stop() {
    pods.forEach(pod -> pod.process().destroyForcibly());
    if (stub != null) {
      stub.close();
    }
    if (redis != null) {
      redis.close();
    }
  }

  private Pod pod() throws Exception {
    List<String> command =
        List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-Xmx256m",
            "-cp",
            System.getProperty("java.class.path"),
            "io.github.appsetmapper.cli.Main",
            "serve",
            "--mappings",
            dir.resolve("mappings").toString(),
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--var",
            "up=" + stub.url(),
            "--drain-delay",
            "10ms",
            "--grace-period",
            "2s",
            "--redis",
            redis.url(),
            "--redis-password-file",
            dir.resolve("password").toString(),
            "--redis-integrity-keys-file",
            dir.resolve("keys").toString(),
            "--redis-timeout",
            "2s");
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().put("APPSET_MAPPER_TOKEN", TOKEN);
    Process process = builder.start();
    StringBuffer output = new StringBuffer();
    CompletableFuture<Integer> port = new CompletableFuture<>();
    Thread reader =
        new Thread(
            () -> {
              try (BufferedReader lines =
                  new BufferedReader(
                      new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = lines.readLine()) != null) {
                  output.append(line).append('\n');
                  Matcher m = LISTENING.matcher(line);
                  if (m.find()) {
                    port.complete(Integer.parseInt(m.group(1)));
                  }
                }
              } catch (IOException e) {
                // The process ended.
              }
              port.completeExceptionally(new IllegalStateException("exited:\n" + output));
            });
    reader.setDaemon(true);
    reader.start();
    Pod pod = new Pod(process, port.get(120, TimeUnit.SECONDS), output);
    pods.add(pod);
    SharedReplicasTest.waitFor(
        "Redis up in the process on " + pod.port(),
        () -> get(pod, "/metrics").contains("appset_mapper_redis_up 1.0"));
    return pod;
  }

  private static String get(Pod pod, String path) {
    try {
      return HTTP.send(
              HttpRequest.newBuilder(URI.create(pod.url() + path)).build(),
              HttpResponse.BodyHandlers.ofString())
          .body();
    } catch (IOException e) {
      return "";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "";
    }
  }

  private static HttpResponse<String> post(Pod pod, String path, String body) throws Exception {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create(pod.url() + path))
            .timeout(Duration.ofSeconds(60))
            .header("Authorization", "Bearer " + TOKEN)
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static HttpResponse<String> getparams(Pod pod, String mapping, String repo)
      throws Exception {
    return post(
        pod, "/mappings/" + mapping + "/api/v1/getparams.execute", SharedReplicasTest.body(repo));
  }

  private void stopAll() throws InterruptedException {
    for (Pod pod : pods) {
      pod.process().destroy(); // SIGTERM: the graceful stop a rollout makes
    }
    for (Pod pod : pods) {
      assertThat(pod.process().waitFor(60, TimeUnit.SECONDS)).isTrue();
    }
    pods.clear();
  }

  @Test
  void threeProcessesMakeOneUpstreamCallForAThousandGetparamsAndKeepBaselinesAcrossRestarts()
      throws Exception {
    List<Pod> three = List.of(pod(), pod(), pod());
    ExecutorService callers = Executors.newFixedThreadPool(48);
    try {
      List<Future<HttpResponse<String>>> answers = new ArrayList<>();
      for (int i = 0; i < 1000; i++) {
        Pod pod = three.get(i % 3);
        answers.add(callers.submit(() -> getparams(pod, "pulls", "front")));
      }
      for (Future<HttpResponse<String>> answer : answers) {
        assertThat(answer.get().statusCode()).isEqualTo(200);
        assertThat(answer.get().body()).isEqualTo(SharedReplicasTest.answer(3));
      }
    } finally {
      callers.shutdownNow();
    }
    assertThat(stub.received().stream().filter(r -> r.rawUri().contains("front")).count())
        .isEqualTo(1);

    // The baseline recorded through pod A refuses a drop through pod B, after both restart too.
    assertThat(getparams(three.get(0), "guarded", "guarded").body())
        .isEqualTo(SharedReplicasTest.answer(10));
    rows.set(2);
    assertThat(getparams(three.get(1), "guarded", "guarded").statusCode()).isEqualTo(502);
    stopAll();
    Pod a = pod();
    Pod b = pod();
    HttpResponse<String> refused = getparams(b, "guarded", "guarded");
    assertThat(refused.statusCode()).isEqualTo(502);
    assertThat(refused.body()).contains("8 fewer than the last good answer (10)");
    // B holds the 10 it read as its floor: one forgotten here, and every replica told.
    assertThat(post(b, "/mappings/guarded/guard/reset", "").body())
        .isEqualTo("{\"mapping\":\"guarded\",\"reset\":1,\"everyReplica\":true}");
    assertThat(getparams(a, "guarded", "guarded").body()).isEqualTo(SharedReplicasTest.answer(2));
  }
}
