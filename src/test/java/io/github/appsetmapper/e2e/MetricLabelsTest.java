package io.github.appsetmapper.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.PluginServer.Answer;
import io.github.appsetmapper.testing.StubUpstream;
import io.github.appsetmapper.testing.StubUpstream.Reply;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every metric label takes its values from a known set: upstream data, next links and redirects
 * choose hosts and statuses, and each new label value is a time series kept for the life of the
 * process (red team M3).
 */
class MetricLabelsTest {
  private static final String FANOUT =
      """
      name: fanout
      vars: {up: {default: "http://unset.invalid"}}
      list:
        request: {url: "#{vars.up}/targets"}
        items: "$[*]"
      enrich:
        detail:
          request: {url: "#{item.url}"}
          select: "$.ok"
          onMissing: drop
      parameters: {id: item.id}
      """;

  @Test
  void hostsUpstreamDataNamesAndOddStatusesShareOneLabelValue(@TempDir Path dir) {
    try (StubUpstream stub = new StubUpstream();
        PluginServer plugin =
            PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of(), FANOUT)) {
      int port = Integer.parseInt(stub.url().replaceAll(".*:", ""));
      StringBuilder targets = new StringBuilder("[");
      for (int i = 2; i <= 6; i++) {
        // Every 127.0.0.N is this machine, a host name the mapping never wrote.
        targets.append(i == 2 ? "" : ",");
        targets.append("{\"id\":").append(i).append(",\"url\":\"http://127.0.0.").append(i);
        targets.append(":").append(port).append("/detail\"}");
      }
      stub.on("GET /targets", Reply.json(200, targets.append("]").toString()));
      assertThat(plugin.getparams("fanout", "{}").status()).isEqualTo(502);
      // A status the upstream made up is labelled by its class.
      stub.on(
          "GET /targets",
          Reply.json(200, "[{\"id\":1,\"url\":\"http://127.0.0.1:" + port + "/detail\"}]"));
      stub.on("GET /detail", Reply.json(299, "{\"ok\":true}"));
      assertThat(plugin.getparams("fanout", "{}").status()).isEqualTo(502);

      Answer metrics = plugin.send("GET", "/metrics", null, null, null);
      List<String> upstream =
          metrics
              .body()
              .lines()
              .filter(l -> l.startsWith("appset_mapper_upstream_requests_total"))
              .toList();
      assertThat(upstream)
          .as(metrics.body())
          .contains(
              "appset_mapper_upstream_requests_total{host=\"127.0.0.1\",mapping=\"fanout\",status=\"200\"} 2.0",
              "appset_mapper_upstream_requests_total{host=\"127.0.0.1\",mapping=\"fanout\",status=\"2xx\"} 1.0")
          .anyMatch(l -> l.contains("host=\"other\""))
          .noneMatch(l -> l.matches(".*host=\"127\\.0\\.0\\.[2-6]\".*"))
          .noneMatch(l -> l.contains("status=\"299\""));
      assertThat(metrics.body()).doesNotContain("127.0.0.2", "127.0.0.6");
    }
  }
}
