package io.github.appsetmapper.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.metrics.Metrics;
import io.github.appsetmapper.redis.RedisSettings;
import io.github.appsetmapper.reload.MappingReloader;
import io.github.appsetmapper.runtime.AppRuntime;
import io.github.appsetmapper.server.AppServer;
import io.github.appsetmapper.server.MappingRegistry;
import io.github.appsetmapper.server.ServerOptions;
import io.github.appsetmapper.server.Tokens;
import io.github.appsetmapper.testing.ManualTicker;
import io.github.appsetmapper.testing.OtlpReceiver;
import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.RedisServer;
import io.github.appsetmapper.testing.StubUpstream;
import io.github.appsetmapper.testing.StubUpstream.Reply;
import io.github.appsetmapper.testing.TracedServer;
import io.github.appsetmapper.upstream.HttpUpstream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every metric the alerts (chart/files/alerts.yaml) and the dashboard (chart/files/dashboard.json)
 * query is one a real server exposes: servers are driven through what each series counts (answers,
 * upstream failures, the cache, coalescing, guards, stale answers, Redis, reloads, spans dropped)
 * and their {@code /metrics} scraped.
 */
class ObservabilityMetricsTest {
  private static final Pattern METRIC =
      Pattern.compile("\\b((?:appset_mapper|jvm|process)_[a-z_]+)\\b");
  private static final Duration WAIT = Duration.ofSeconds(60);

  @TempDir Path dir;

  private static final String PULLS =
      """
      name: pulls
      input: {repo: {required: true}}
      vars: {up: {default: "http://unset.invalid"}}
      list:
        request:
          url: "#{vars.up}/repos/#{input.repo}/pulls"
          retries: 0
          cache: {ttl: 500ms, staleIfError: 1h}
        items: "$[*]"
      parameters: {number: "item"}
      """;

  private static final String GUARDED =
      """
      name: guarded
      vars: {up: {default: "http://unset.invalid"}}
      minItems: 5
      list:
        request: {url: "#{vars.up}/few"}
        items: "$[*]"
      parameters: {number: "item"}
      """;

  /** The metric names the alerts and the dashboard query (histogram series by their own name). */
  static Set<String> queried() throws Exception {
    Set<String> names = new TreeSet<>();
    for (Path file :
        List.of(Path.of("chart/files/alerts.yaml"), Path.of("chart/files/dashboard.json"))) {
      Matcher m = METRIC.matcher(Files.readString(file));
      while (m.find()) {
        names.add(m.group(1));
      }
    }
    return names;
  }

  private static Set<String> exposed(String scrape) {
    Set<String> names = new TreeSet<>();
    scrape
        .lines()
        .filter(l -> !l.startsWith("#") && !l.isBlank())
        .forEach(l -> names.add(l.split("[{ ]", 2)[0]));
    return names;
  }

  @Test
  void everyMetricTheAlertsAndTheDashboardQueryIsExposed() throws Exception {
    RedisServer.assumeInstalled();
    Set<String> exposed = new TreeSet<>();
    exposed.addAll(exposed(getparamsTraffic()));
    exposed.addAll(exposed(withRedis()));
    exposed.addAll(exposed(reloads()));
    exposed.addAll(exposed(spansDropped()));
    Set<String> missing = new TreeSet<>(queried());
    missing.removeAll(exposed);
    assertThat(queried()).hasSizeGreaterThan(20);
    assertThat(missing).as("queried but not exposed by a real server").isEmpty();
  }

  @Test
  @SuppressWarnings("unchecked")
  void everyAlertLinksItsRunbookSectionInOperationsMd() throws Exception {
    Map<String, Object> file =
        new org.yaml.snakeyaml.Yaml().load(Files.readString(Path.of("chart/files/alerts.yaml")));
    String operations = Files.readString(Path.of("docs/operations.md"));
    int alerts = 0;
    for (Map<String, Object> group : (List<Map<String, Object>>) file.get("groups")) {
      for (Map<String, Object> rule : (List<Map<String, Object>>) group.get("rules")) {
        String name = (String) rule.get("alert");
        Map<String, String> annotations = (Map<String, String>) rule.get("annotations");
        assertThat(annotations.get("runbook_url"))
            .as(name)
            .isEqualTo(
                "https://github.com/appset-mapper/appset-mapper/blob/main/docs/operations.md#alert-"
                    + name.toLowerCase(java.util.Locale.ROOT));
        assertThat(operations).as(name).contains("\n### Alert: " + name + "\n");
        alerts++;
      }
    }
    assertThat(alerts).isEqualTo(12);
  }

  /**
   * A fresh pod, before any event: every counter an alert takes the increase() of is there at 0,
   * for each loaded mapping and each label value alerted on. A counter born at its first event, at
   * 1, has no step for increase() to see: the first refusal of a pod would never alert.
   */
  @Test
  void theCountersAlertsWatchExistAtZeroBeforeAnyEvent() throws Exception {
    Path fresh = Files.createDirectories(dir.resolve("fresh"));
    String scrape;
    try (PluginServer plugin =
        PluginServer.withYaml(
            fresh, Map.of("up", "http://unset.invalid"), Map.of(), PULLS, GUARDED)) {
      scrape = plugin.send("GET", "/metrics", null, null, null).body();
    }
    for (String mapping : List.of("pulls", "guarded")) {
      for (String status : List.of("200", "400", "500", "502", "503", "504")) {
        assertThat(scrape)
            .contains(
                "appset_mapper_getparams_requests_total{mapping=\""
                    + mapping
                    + "\",status=\""
                    + status
                    + "\"} 0.0");
      }
      for (String guard : List.of("maxDrop", "maxDrop_unknown", "minItems")) {
        assertThat(scrape)
            .contains(
                "appset_mapper_guard_refused_total{guard=\""
                    + guard
                    + "\",mapping=\""
                    + mapping
                    + "\"} 0.0");
      }
      assertThat(scrape)
          .contains("appset_mapper_getparams_stale_total{mapping=\"" + mapping + "\"} 0.0");
    }
    assertThat(scrape)
        .contains("appset_mapper_reloads_total{result=\"error\"} 0.0")
        .contains("appset_mapper_reloads_total{result=\"ok\"} 0.0")
        .contains("appset_mapper_traces_dropped_total{reason=\"queue_full\"} 0.0")
        .contains("appset_mapper_traces_dropped_total{reason=\"export_failed\"} 0.0")
        .contains("appset_mapper_mapping_files_failing 0.0");
  }

  /**
   * A new file that fails to load (a ConfigMap typo) serves nothing, so has no mapping_loaded
   * series: the failing-files gauge says so, for as long as it fails.
   */
  @Test
  void aNewFileThatFailsToLoadIsCountedAsFailingWhileItFails() throws Exception {
    String scrape = reloads();
    assertThat(scrape).contains("appset_mapper_mapping_files_failing 2.0");
  }

  /** Answers, failures, the cache, stale answers, coalescing, a guard, a refused request. */
  private String getparamsTraffic() throws Exception {
    try (StubUpstream stub = new StubUpstream()) {
      AtomicReference<PluginServer> serving = new AtomicReference<>();
      AtomicReference<Reply> pulls = new AtomicReference<>(Reply.json(200, "[1,2]"));
      stub.on("GET /few", Reply.json(200, "[1]"));
      stub.on("GET /repos/front/pulls", r -> pulls.get());
      // Held until an identical getparams and an identical call wait for it: coalescing seen.
      stub.on(
          "GET /repos/held/pulls",
          r -> {
            waitFor(
                serving.get(),
                "appset_mapper_getparams_waiting",
                "appset_mapper_upstream_calls_waiting");
            return Reply.json(200, "[3]");
          });
      ManualTicker ticker = new ManualTicker();
      try (PluginServer plugin =
          PluginServer.withTicker(dir, Map.of("up", stub.url()), ticker, PULLS, GUARDED)) {
        serving.set(plugin);
        String front =
            "{\"applicationSetName\":\"a\",\"input\":{\"parameters\":{\"repo\":\"front\"}}}";
        assertThat(plugin.getparams("pulls", front).status()).isEqualTo(200);
        assertThat(plugin.getparams("pulls", front).status()).isEqualTo(200); // a cache hit
        pulls.set(Reply.json(503, "{}"));
        ticker.advance(Duration.ofSeconds(1));
        assertThat(plugin.getparams("pulls", front).status()).isEqualTo(200); // stale
        assertThat(plugin.getparams("guarded", "{}").status()).isEqualTo(502);
        assertThat(
                plugin
                    .send(
                        "POST",
                        "/mappings/pulls/api/v1/getparams.execute",
                        "{}",
                        "Bearer x",
                        "application/json")
                    .status())
            .isEqualTo(403);
        String held =
            "{\"applicationSetName\":\"%s\",\"input\":{\"parameters\":{\"repo\":\"held\"}}}";
        List<CompletableFuture<Integer>> calls = new ArrayList<>();
        for (String appSet : List.of("a", "a", "b")) {
          calls.add(
              CompletableFuture.supplyAsync(
                  () -> plugin.getparams("pulls", held.formatted(appSet)).status()));
        }
        for (CompletableFuture<Integer> call : calls) {
          assertThat(call.get()).isEqualTo(200);
        }
        return plugin.send("GET", "/metrics", null, null, null).body();
      }
    }
  }

  /** Waits (bounded) until each gauge shows a caller waiting. */
  private static void waitFor(PluginServer plugin, String... gauges) {
    long end = System.nanoTime() + WAIT.toNanos();
    while (System.nanoTime() < end) {
      String scrape = plugin.send("GET", "/metrics", null, null, null).body();
      boolean all = true;
      for (String gauge : gauges) {
        all &=
            scrape
                .lines()
                .filter(l -> l.startsWith(gauge + " ") || l.startsWith(gauge + "{"))
                .anyMatch(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)) >= 1);
      }
      if (all) {
        return;
      }
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  private String withRedis() throws Exception {
    Path home = Files.createDirectories(dir.resolve("redis"));
    try (RedisServer redis = RedisServer.start(home, "observability-redis-password");
        StubUpstream stub = new StubUpstream()) {
      Path keys = home.resolve("keys");
      Files.writeString(keys, "k1=integrity-key-for-tests-0123456789abcdef\n");
      Files.writeString(home.resolve("password"), "observability-redis-password\n");
      RedisSettings settings =
          new RedisSettings(
              redis.url(),
              null,
              home.resolve("password"),
              null,
              keys,
              RedisSettings.DEFAULT_PREFIX,
              Duration.ofSeconds(2),
              RedisSettings.DEFAULT_MAX_ENTRY_BYTES,
              Duration.ofMillis(100));
      stub.on("GET /repos/front/pulls", Reply.json(200, "[1]"));
      Path mappings = Files.createDirectories(dir.resolve("redis-mappings"));
      try (PluginServer plugin =
          PluginServer.withRedis(mappings, Map.of("up", stub.url()), settings, PULLS)) {
        plugin.getparams("pulls", "{\"input\":{\"parameters\":{\"repo\":\"front\"}}}");
        return plugin.send("GET", "/metrics", null, null, null).body();
      }
    }
  }

  /** A reload that fails, as serve wires it: reloads by result, each mapping's load state. */
  private String reloads() throws Exception {
    Path files = Files.createDirectories(dir.resolve("reloaded"));
    Path file = files.resolve("a.yaml");
    Files.writeString(file, "name: a\nparameters:\n  greeting: \"'one'\"\n");
    Metrics metrics = new Metrics();
    AtomicReference<MappingRegistry> latest = new AtomicReference<>();
    try (AppRuntime runtime =
        AppRuntime.builder()
            .environment(n -> null)
            .transport(new HttpUpstream(2, 1 << 20))
            .enrichThreads(2)
            .metrics(metrics)
            .build()) {
      try (MappingReloader reloader =
          runtime.reloader(
              List.of(files),
              null,
              registry -> {
                latest.set(registry);
                Map<String, Boolean> states = new TreeMap<>();
                registry.status().forEach((name, status) -> states.put(name, status.current()));
                metrics.loadStates(states);
                metrics.failingFiles(registry.failingFiles());
              })) {
        reloader.reloadIfChanged();
        Files.writeString(file, "name: a\nparameters:\n  greeting: \"T(java.lang.Runtime)\"\n");
        // A new file with a typo: it never loaded, so it serves nothing.
        Files.writeString(files.resolve("b.yaml"), "name: b\nparameterz: {}\n");
        reloader.reloadIfChanged();
        AppServer server =
            runtime
                .server(
                    new ServerOptions(
                        "127.0.0.1", 0, Tokens.fixed(PluginServer.TOKEN), 1 << 20, 1, 2),
                    latest.get())
                .start();
        try {
          return metrics.scrape();
        } finally {
          server.close();
        }
      }
    }
  }

  /** A traced server whose collector is down: the spans it drops. */
  private String spansDropped() throws Exception {
    try (OtlpReceiver receiver = new OtlpReceiver();
        StubUpstream stub = new StubUpstream()) {
      receiver.refusing(true);
      stub.on("GET /repos/front/pulls", Reply.json(200, "[1]"));
      Path mappings = Files.createDirectories(dir.resolve("traced"));
      try (TracedServer server =
          new TracedServer(
              mappings,
              Map.of("up", stub.url()),
              Map.of(),
              Map.of(
                  "OTEL_EXPORTER_OTLP_ENDPOINT",
                  receiver.endpoint(),
                  "OTEL_BSP_SCHEDULE_DELAY",
                  "20"),
              PULLS)) {
        server.getparams("pulls", "{\"input\":{\"parameters\":{\"repo\":\"front\"}}}", Map.of());
        long end = System.nanoTime() + WAIT.toNanos();
        String scrape = server.metrics();
        // The series exists at 0 from the start: wait for the drop to be counted.
        while (!scrape.contains("appset_mapper_traces_dropped_total{reason=\"export_failed\"} ")
            || scrape.contains(
                "appset_mapper_traces_dropped_total{reason=\"export_failed\"} 0.0")) {
          if (System.nanoTime() > end) {
            throw new AssertionError("no dropped span counted:\n" + scrape);
          }
          Thread.sleep(100);
          scrape = server.metrics();
        }
        return scrape;
      }
    }
  }
}
