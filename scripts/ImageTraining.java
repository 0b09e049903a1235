// The AOT cache's training run (scripts/image-build with podman, the Dockerfile's train stage):
// starts the server command given, waits for /readyz, makes the calls a pod makes in its first
// minutes (the sample mapping's getparams, health, readiness, metrics), then sends TERM (the
// shutdown path a pod takes) and waits: the JVM writes the cache on that exit. Fails unless the
// server answered as expected, exited 0 and the cache file exists.
//
//   java scripts/ImageTraining.java PORT CACHE_FILE COMMAND...
// Java 17+, no dependencies (a source-file program: the Dockerfile's JDK stage runs it as is).
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

public class ImageTraining {
  static final int CALLS = 200;

  public static void main(String[] args) throws Exception {
    String base = "http://127.0.0.1:" + Integer.parseInt(args[0]);
    Path cache = Path.of(args[1]);
    List<String> command = Arrays.asList(args).subList(2, args.length);
    Process server = new ProcessBuilder(command).inheritIO().start();
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    try {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
      while (status(http, get(base + "/readyz")) != 200) {
        if (!server.isAlive() || System.nanoTime() > deadline) {
          throw new IllegalStateException("the server did not become ready");
        }
        Thread.sleep(100);
      }
      for (int i = 0; i < CALLS; i++) {
        String branch = "feature-branch-" + (1 + i % 2);
        HttpRequest call = HttpRequest.newBuilder(
                URI.create(base + "/mappings/pr-digests/api/v1/getparams.execute"))
            .header("Authorization", "Bearer demo-token")
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(
                "{\"applicationSetName\":\"training\",\"input\":{\"parameters\":{\"branch\":\""
                    + branch + "\"}}}"))
            .build();
        expect(200, status(http, call), "getparams");
        if (i % 20 == 0) {
          expect(200, status(http, get(base + "/healthz")), "/healthz");
          expect(200, status(http, get(base + "/metrics")), "/metrics");
        }
      }
    } finally {
      server.destroy(); // SIGTERM: the server's own stop sequence, then the JVM writes the cache
    }
    if (!server.waitFor(300, TimeUnit.SECONDS)) {
      server.destroyForcibly();
      throw new IllegalStateException("the server did not exit within 300 s of TERM");
    }
    expect(0, server.exitValue(), "exit status after TERM");
    if (!Files.isRegularFile(cache) || Files.size(cache) == 0) {
      throw new IllegalStateException("no AOT cache written at " + cache);
    }
    System.err.println("training: " + CALLS + " calls, cache " + cache + " " + Files.size(cache) + " bytes");
  }

  static HttpRequest get(String url) {
    return HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30)).build();
  }

  static int status(HttpClient http, HttpRequest request) {
    try {
      return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
    } catch (Exception e) {
      return -1;
    }
  }

  static void expect(int want, int got, String what) {
    if (want != got) {
      throw new IllegalStateException(what + ": " + got + ", expected " + want);
    }
  }
}
