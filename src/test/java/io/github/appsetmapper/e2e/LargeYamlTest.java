package io.github.appsetmapper.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.json.JsonCodec;
import io.github.appsetmapper.json.YamlCodec;
import io.github.appsetmapper.testing.HelmIndex;
import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.PluginServer.Answer;
import io.github.appsetmapper.testing.StubUpstream;
import io.github.appsetmapper.testing.StubUpstream.Reply;
import io.github.appsetmapper.upstream.cache.MemoryBudget;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A public Helm repository's index is 20 to 30 MB: as {@code format: yaml} it is read past the 10
 * MiB JSON cap and within the default memory budget, over real HTTP. Not timed (bench/yaml times it
 * against the same data as JSON).
 */
class LargeYamlTest {
  private static final long INDEX_BYTES = 25L * 1000 * 1000;

  private static final String MAPPING =
      """
      name: helm
      vars: {up: {default: "http://unset.invalid"}}
      list:
        request: {url: "#{vars.up}/index.#{input.as}", format: FORMAT}
        items: "$.entries['chart-3'][*]"
      inputAdditional: true
      parameters: {name: item.name, version: item.version, appVersion: "#json(item.appVersion)"}
      """;

  @Test
  void aTwentyFiveMegabyteIndexIsReadWithinTheDefaultBudget(@TempDir Path dir) throws Exception {
    byte[] index = HelmIndex.yaml(INDEX_BYTES);
    assertThat(index.length).isGreaterThanOrEqualTo(25_000_000);
    // The raw body and what it becomes both fit the default budget, with room to spare.
    long held = index.length + YamlCodec.measure(index).bytes();
    assertThat(held).isLessThan(MemoryBudget.DEFAULT_BYTES * 3 / 4);
    try (StubUpstream stub = new StubUpstream()) {
      stub.on(
          "GET /index.yaml", new Reply(200, Map.of("Content-Type", "text/yaml"), index, 0, null));
      try (PluginServer plugin =
          PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of(), yamlMapping())) {
        Answer answer = plugin.getparams("helm", "{\"input\":{\"parameters\":{\"as\":\"yaml\"}}}");
        assertThat(answer.status()).as(answer.body()).isEqualTo(200);
        Map<?, ?> output = (Map<?, ?>) ((Map<?, ?>) JsonCodec.read(answer.body())).get("output");
        List<?> rows = (List<?>) output.get("parameters");
        assertThat(rows).hasSize(120);
        assertThat(rows.get(0))
            .isEqualTo(Map.of("name", "chart-3", "version", "0.0.3", "appVersion", "1.10"));
      }
    }
  }

  @Test
  void theSameDataAsJsonStillMeetsTheTenMebibyteCap(@TempDir Path dir) throws Exception {
    byte[] json = JsonCodec.writeBytes(YamlCodec.measure(HelmIndex.yaml(INDEX_BYTES)).document());
    try (StubUpstream stub = new StubUpstream()) {
      stub.on(
          "GET /index.json",
          new Reply(200, Map.of("Content-Type", "application/json"), json, 0, null));
      try (PluginServer plugin =
          PluginServer.withYaml(
              dir, Map.of("up", stub.url()), Map.of(), MAPPING.replace("FORMAT", "json"))) {
        Answer answer = plugin.getparams("helm", "{\"input\":{\"parameters\":{\"as\":\"json\"}}}");
        assertThat(answer.status()).as(answer.body()).isEqualTo(502);
        assertThat(answer.body()).contains("response larger than 10485760 bytes");
      }
    }
  }

  private static String yamlMapping() {
    return MAPPING.replace("FORMAT", "yaml");
  }
}
