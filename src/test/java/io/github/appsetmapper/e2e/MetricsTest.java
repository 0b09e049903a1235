package io.github.appsetmapper.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.PluginServer.Answer;
import io.github.appsetmapper.testing.StubUpstream;
import io.github.appsetmapper.testing.StubUpstream.Reply;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code GET /metrics} after real traffic: what a Prometheus scrape sees. */
class MetricsTest {
  private static final String ITEMS =
      """
      name: items
      input:
        owner: {required: true}
      vars: {up: {default: "http://unset.invalid"}}
      list:
        request: {url: "#{vars.up}/#{input.owner}/items"}
        items: "$[*]"
      parameters: {id: item.id}
      """;

  @Test
  void getparamsAndUpstreamCallsByMappingStatusAndHost(@TempDir Path dir) {
    try (StubUpstream stub = new StubUpstream();
        PluginServer plugin =
            PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of(), ITEMS)) {
      stub.on("GET /ok/items", Reply.json(200, "[{\"id\":1},{\"id\":2}]"));
      stub.on("GET /none/items", Reply.json(200, "[]"));
      stub.on("GET /down/items", Reply.json(503, "{}"));
      plugin.getparams("items", "{\"input\":{\"parameters\":{\"owner\":\"ok\"}}}");
      plugin.getparams("items", "{\"input\":{\"parameters\":{\"owner\":\"ok\"}}}");
      plugin.getparams("items", "{\"input\":{\"parameters\":{\"owner\":\"none\"}}}");
      plugin.getparams("items", "{\"input\":{\"parameters\":{\"owner\":\"down\"}}}");
      plugin.getparams("random-scan-1", "{}");
      plugin.getparams("random-scan-2", "{}");

      Answer metrics = plugin.send("GET", "/metrics", null, null, null);
      assertThat(metrics.status()).isEqualTo(200);
      assertThat(metrics.headers().get("content-type").get(0))
          .startsWith("text/plain; version=0.0.4");
      assertThat(metrics.body().lines())
          .contains(
              "appset_mapper_getparams_requests_total{mapping=\"items\",status=\"200\"} 3.0",
              "appset_mapper_getparams_requests_total{mapping=\"items\",status=\"502\"} 1.0",
              "appset_mapper_getparams_requests_total{mapping=\"unknown\",status=\"404\"} 2.0",
              "appset_mapper_getparams_empty_total{mapping=\"items\"} 1.0",
              "appset_mapper_getparams_rows_count{mapping=\"items\"} 3",
              "appset_mapper_getparams_rows_sum{mapping=\"items\"} 4.0",
              "appset_mapper_upstream_requests_total{host=\"127.0.0.1\",mapping=\"items\",status=\"200\"} 3.0",
              "appset_mapper_upstream_requests_total{host=\"127.0.0.1\",mapping=\"items\",status=\"503\"} 1.0",
              "appset_mapper_getparams_duration_seconds_count{mapping=\"items\",status=\"200\"} 3")
          .anyMatch(
              l ->
                  l.startsWith(
                      "appset_mapper_getparams_duration_seconds_bucket{mapping=\"items\",status=\"200\",le=\"0.005\"}"))
          .anyMatch(
              l ->
                  l.startsWith(
                      "appset_mapper_upstream_duration_seconds_bucket{host=\"127.0.0.1\",mapping=\"items\",status=\"200\",le=\"0.025\"}"))
          .anyMatch(l -> l.startsWith("jvm_memory_used_bytes{"))
          .anyMatch(l -> l.startsWith("process_uptime_seconds "))
          .noneMatch(l -> l.contains("random-scan"));
    }
  }

  @Test
  void refusedAnswersAreCountedByReason(@TempDir Path dir) {
    try (StubUpstream stub = new StubUpstream();
        PluginServer plugin =
            PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of(), ITEMS)) {
      stub.on("GET /twice/items", Reply.json(200, "[{\"id\":1,\"id\":2}]"));
      stub.on("GET /accepted/items", Reply.json(202, "[]"));
      plugin.getparams("items", "{\"input\":{\"parameters\":{\"owner\":\"twice\"}}}");
      plugin.getparams("items", "{\"input\":{\"parameters\":{\"owner\":\"accepted\"}}}");
      assertThat(plugin.send("GET", "/metrics", null, null, null).body().lines())
          .contains(
              "appset_mapper_upstream_refused_total{mapping=\"items\",reason=\"duplicate-key\"} 1.0",
              "appset_mapper_upstream_refused_total{mapping=\"items\",reason=\"incomplete-status\"}"
                  + " 1.0");
    }
  }
}
