package io.github.appsetmapper.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.StubUpstream;
import io.github.appsetmapper.testing.StubUpstream.Reply;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * At start the server runs each mapping that makes no upstream call once (made-up input, answer
 * discarded) so that the first getparams is not the slow one. It must never call an upstream on its
 * own, nor leave a trace in what getparams answer.
 */
class WarmupTest {
  @TempDir Path dir;

  @Test
  void onlyMappingsWithoutCallsRunAndNothingIsCalled() {
    try (StubUpstream stub = new StubUpstream()) {
      stub.on("GET /items", Reply.json(200, "[1]"));
      String calls =
          """
          name: calls
          vars: {up: {default: "http://unset.invalid"}}
          list:
            request: {url: "#{vars.up}/items"}
            items: "$[*]"
          parameters: {id: item}
          """;
      String guarded =
          """
          name: guarded
          input:
            name: {required: true, pattern: "^[a-z]+$"}
          maxDrop: 50%
          parameters: {name: input.name, upper: "#upper(input.name)"}
          """;
      String plain =
          """
          name: plain
          input:
            name: {required: true}
          parameters: {name: input.name, count: "3", upper: "#upper(input.name)"}
          """;
      try (PluginServer plugin =
          PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of(), calls, guarded, plain)) {
        assertThat(stub.calls()).isZero();
        assertThat(
                plugin.getparams("plain", "{\"input\":{\"parameters\":{\"name\":\"ab\"}}}").body())
            .isEqualTo(
                "{\"output\":{\"parameters\":[{\"name\":\"ab\",\"count\":\"3\",\"upper\":\"AB\"}]}}");
        // No baseline was remembered for a made-up input: one row is the first answer seen.
        assertThat(
                plugin
                    .getparams("guarded", "{\"input\":{\"parameters\":{\"name\":\"ab\"}}}")
                    .status())
            .isEqualTo(200);
        assertThat(plugin.getparams("calls", "{}").status()).isEqualTo(200);
        assertThat(stub.calls()).isEqualTo(1);
      }
    }
  }
}
