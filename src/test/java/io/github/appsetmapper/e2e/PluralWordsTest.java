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

/** A count of one is said in the singular (issue 21, item 13): never "1 rows". */
class PluralWordsTest {
  @Test
  void oneRowIsOneRow(@TempDir Path dir) {
    String yaml =
        """
        name: few
        minItems: 3
        vars: {up: {default: "http://unset.invalid"}}
        list:
          request: {url: "#{vars.up}/items"}
          items: "$[*]"
        parameters: {id: item}
        """;
    try (StubUpstream stub = new StubUpstream();
        PluginServer plugin =
            PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of(), yaml)) {
      stub.on("GET /items", Reply.json(200, "[1]"));
      Answer answer = plugin.getparams("few", "{}");
      assertThat(answer.status()).as(answer.body()).isEqualTo(502);
      assertThat(answer.body())
          .isEqualTo(
              "{\"error\":\"mapping 'few': the answer has 1 row, fewer than minItems (3); refused"
                  + " so that Argo CD keeps its Applications\"}");
      Answer explained =
          plugin.send(
              "POST",
              "/mappings/few/api/v1/getparams.explain?format=text",
              "{\"input\":{\"parameters\":{}}}",
              "Bearer " + PluginServer.TOKEN,
              "application/json");
      assertThat(explained.body()).contains("\nparameters: 1 row\n");
    }
  }
}
