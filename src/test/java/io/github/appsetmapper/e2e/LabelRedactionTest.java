package io.github.appsetmapper.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.testing.LogCapture;
import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.StubUpstream;
import io.github.appsetmapper.testing.StubUpstream.Reply;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A row's label is data that may hold what an upstream echoed: it is redacted before it is cut to
 * its 80 characters, so no cut leaves the first characters of a secret (an outside tester saw 20 of
 * a secret's 32 characters in explain, the 502 line and the log).
 */
class LabelRedactionTest {
  private static final String SECRET = "QWERTYUIOPASDFGHJKLZXCVBNM123456";

  private static final String MAPPING =
      """
      name: labelled
      vars: {up: {default: "http://unset.invalid"}}
      secrets: {s2: {env: S2}}
      list:
        request:
          url: "#{vars.up}/rows"
          headers: {X-Key: "#{secret.s2}"}
        items: "$[*]"
      label: item.v
      filter: "item.name == 'zzz'"
      parameters: {name: item.name}
      """;

  @Test
  void aLabelIsRedactedBeforeItIsCut(@TempDir Path dir) throws Exception {
    // Four characters of the secret would stand where the label is cut at 80.
    String v = "p".repeat(76) + SECRET;
    try (StubUpstream stub = new StubUpstream();
        LogCapture logs = new LogCapture()) {
      stub.on("GET /rows", Reply.json(200, "[{\"name\":\"a\",\"v\":\"" + v + "\"}]"));
      try (PluginServer plugin =
          PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of("S2", SECRET), MAPPING)) {
        for (String format : new String[] {"", "?format=text"}) {
          PluginServer.Answer explained =
              plugin.send(
                  "POST",
                  "/mappings/labelled/api/v1/getparams.explain" + format,
                  "{\"input\":{\"parameters\":{}}}",
                  "Bearer " + PluginServer.TOKEN,
                  "application/json");
          assertThat(explained.status()).as(explained.body()).isEqualTo(200);
          assertThat(explained.body()).contains("p".repeat(76) + "***");
          assertThat(explained.body()).doesNotContain(SECRET.substring(0, 4));
        }
      }
      assertThat(String.join("\n", logs.rendered())).doesNotContain(SECRET.substring(0, 4));
    }
  }
}
