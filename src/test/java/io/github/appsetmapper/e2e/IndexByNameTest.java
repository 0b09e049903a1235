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
 * {@code m[k]} with a let {@code k} reads the let, as the load check and the docs take a bare name:
 * SpEL read a bare name in [] on a map as the text 'k', so a let named like a key of the map gave
 * that entry instead, a silent wrong 200 (an outside tester's find).
 */
class IndexByNameTest {
  private static final String MAPPING =
      """
      name: ix
      keepTypes: true
      vars: {up: {default: 'http://unset.invalid'}}
      list:
        request: {url: "#{vars.up}/rows"}
        items: "$[*]"
      let:
        k: "'a'"
      parameters:
        inline: "{a: 'x', k: 'KEY'}[k]"
        row: "item.m[k]"
        text: "item.m['k']"
        get: "item.m.get(k)"
        list: "{10, 20, 30}[item.i]"
      """;

  @Test
  void aBareNameInBracketsReadsTheName(@TempDir Path dir) {
    try (StubUpstream stub = new StubUpstream()) {
      stub.on(
          "GET /rows", Reply.json(200, "[{\"m\":{\"a\":\"from-a\",\"k\":\"from-k\"},\"i\":1}]"));
      try (PluginServer plugin =
          PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of(), MAPPING)) {
        assertThat(plugin.getparams("ix", "{}").body())
            .isEqualTo(
                "{\"output\":{\"parameters\":[{\"inline\":\"x\",\"row\":\"from-a\","
                    + "\"text\":\"from-k\",\"get\":\"from-a\",\"list\":20}]}}");
      }
    }
  }
}
