package io.github.appsetmapper.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.StubUpstream;
import io.github.appsetmapper.testing.StubUpstream.Reply;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
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
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The alerts against the real thing: Debian's Prometheus, started on loopback with the chart's own
 * rule file (chart/files/alerts.yaml, as the PrometheusRule holds it), scrapes a real server whose
 * upstream fails; the upstream-failure alert goes pending (its expression fires; firing then only
 * waits out its {@code for:}) as Prometheus's own alerts API reports. Every query of the dashboard
 * is also run by that Prometheus, so each one parses. Skipped without {@code prometheus}, except in
 * CI ({@code CI=true}), where .ci/run installs it.
 */
class PrometheusAlertTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration WAIT = Duration.ofSeconds(120);
  private static final String MAPPING =
      """
      name: inv
      vars: {up: {default: "http://unset.invalid"}}
      list:
        request: {url: "#{vars.up}/items", retries: 0}
        items: "$[*]"
      parameters: {id: item.id}
      """;

  @TempDir Path dir;
  private final HttpClient client =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private static Path prometheus() {
    for (String candidate : List.of("/usr/bin/prometheus", "/usr/local/bin/prometheus")) {
      if (Files.isExecutable(Path.of(candidate))) {
        return Path.of(candidate);
      }
    }
    String why = "prometheus is not installed (apt-get install prometheus)";
    if ("true".equals(System.getenv("CI"))) {
      fail(why + "; .ci/run installs it, so CI must have it");
    }
    Assumptions.abort(why);
    return null;
  }

  @Test
  void aFailingUpstreamMakesTheUpstreamFailureAlertFireInPrometheus() throws Exception {
    Path binary = prometheus();
    Path rules = Path.of("chart/files/alerts.yaml").toAbsolutePath();
    try (StubUpstream stub = new StubUpstream();
        PluginServer plugin =
            PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of(), MAPPING)) {
      stub.on("GET /items", Reply.json(503, "{\"message\":\"down\"}"));
      int port = freePort();
      Path config = dir.resolve("prometheus.yml");
      Files.writeString(
          config,
          """
          global:
            scrape_interval: 1s
            evaluation_interval: 1s
          rule_files:
            - %s
          scrape_configs:
            - job_name: appset-mapper
              metrics_path: /metrics
              static_configs:
                - targets: ["%s"]
                  labels: {namespace: tools}
          """
              .formatted(rules, plugin.url().substring("http://".length())));
      Path log = dir.resolve("prometheus.log");
      Process process =
          new ProcessBuilder(
                  binary.toString(),
                  "--config.file=" + config,
                  "--storage.tsdb.path=" + dir.resolve("data"),
                  "--web.listen-address=127.0.0.1:" + port,
                  "--log.level=warn")
              .redirectErrorStream(true)
              .redirectOutput(log.toFile())
              .start();
      String api = "http://127.0.0.1:" + port;
      try {
        awaitReady(api, process, log);
        long end = System.nanoTime() + WAIT.toNanos();
        String state = null;
        while (System.nanoTime() < end) {
          // Argo CD calling, the upstream failing: a 502 each time.
          assertThat(plugin.getparams("inv", "{}").status()).isEqualTo(502);
          state = alertState(api, "AppsetMapperUpstreamFailures");
          if ("pending".equals(state) || "firing".equals(state)) {
            break;
          }
          Thread.sleep(250);
        }
        assertThat(state)
            .as("AppsetMapperUpstreamFailures in %s/api/v1/alerts; log: %s", api, tail(log))
            .isIn("pending", "firing");
        JsonNode alert = alert(api, "AppsetMapperUpstreamFailures");
        assertThat(alert.path("labels").path("mapping").asText()).isEqualTo("inv");
        assertThat(alert.path("labels").path("host").asText()).isEqualTo("127.0.0.1");
        assertThat(alert.path("annotations").path("runbook_url").asText())
            .endsWith("docs/operations.md#alert-appsetmapperupstreamfailures");
        // A healthy series fires nothing else about this mapping's answers being refused.
        assertThat(alertState(api, "AppsetMapperAnswersRefusedByGuard")).isNull();

        // Every dashboard query, its variables given, is one this Prometheus runs.
        for (String expr : dashboardQueries()) {
          String query =
              expr.replace("$__rate_interval", "1m")
                  .replace("$namespace", ".*")
                  .replace("$mapping", ".*");
          JsonNode answer = get(api + "/api/v1/query?query=" + encode(query));
          assertThat(answer.path("status").asText())
              .as(query + " -> " + answer)
              .isEqualTo("success");
        }
      } finally {
        process.destroy();
        if (!process.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)) {
          process.destroyForcibly();
        }
      }
    }
  }

  private static List<String> dashboardQueries() throws IOException {
    JsonNode dashboard = JSON.readTree(Files.readString(Path.of("chart/files/dashboard.json")));
    List<String> queries = new ArrayList<>();
    for (JsonNode panel : dashboard.path("panels")) {
      for (JsonNode target : panel.path("targets")) {
        queries.add(target.path("expr").asText());
      }
    }
    assertThat(queries).hasSizeGreaterThan(20);
    return queries;
  }

  private void awaitReady(String api, Process process, Path log) throws Exception {
    long end = System.nanoTime() + WAIT.toNanos();
    while (System.nanoTime() < end) {
      if (!process.isAlive()) {
        fail("prometheus exited " + process.exitValue() + ": " + tail(log));
      }
      try {
        HttpResponse<String> ready =
            client.send(
                HttpRequest.newBuilder(URI.create(api + "/-/ready")).build(),
                HttpResponse.BodyHandlers.ofString());
        if (ready.statusCode() == 200) {
          return;
        }
      } catch (IOException e) {
        // Not listening yet.
      }
      Thread.sleep(200);
    }
    fail("prometheus not ready within " + WAIT + ": " + tail(log));
  }

  private String alertState(String api, String name) throws Exception {
    JsonNode alert = alert(api, name);
    return alert == null ? null : alert.path("state").asText();
  }

  private JsonNode alert(String api, String name) throws Exception {
    for (JsonNode alert : get(api + "/api/v1/alerts").path("data").path("alerts")) {
      if (name.equals(alert.path("labels").path("alertname").asText())) {
        return alert;
      }
    }
    return null;
  }

  private JsonNode get(String url) throws Exception {
    HttpResponse<String> response =
        client.send(
            HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30)).build(),
            HttpResponse.BodyHandlers.ofString());
    return JSON.readTree(response.body());
  }

  private static String encode(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8);
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  private static String tail(Path log) {
    try {
      List<String> lines = Files.readAllLines(log);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
    } catch (IOException e) {
      return "(no log: " + e.getMessage() + ")";
    }
  }
}
