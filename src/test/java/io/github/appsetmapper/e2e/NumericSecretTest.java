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
 * A secret made of digits that an upstream echoes as a bare JSON number is a secret all the same:
 * with {@code keepTypes} the answer kept it a number, and the check of what a row answers, which
 * read texts only, let it through in a 200 (an outside tester's find); explain showed it too.
 */
class NumericSecretTest {
  private static final String SECRET = "4815162342108";

  private static final String MAPPING =
      """
      name: numeric
      keepTypes: true
      vars: {up: {default: "http://unset.invalid"}}
      secrets: {key: {env: NUMERIC_KEY}}
      list:
        request:
          url: "#{vars.up}/rows"
          headers: {X-Key: "#{secret.key}"}
        items: "$[*]"
      parameters:
        v: item.n
        negated: "-item.n"
        inside: "{item.n}"
      """;

  @Test
  void aNumberThatIsASecretIsRefusedInTheAnswerAndMaskedInExplain(@TempDir Path dir) {
    try (StubUpstream stub = new StubUpstream();
        LogCapture logs = new LogCapture()) {
      stub.on("GET /rows", Reply.json(200, "[{\"n\":" + SECRET + "}]"));
      try (PluginServer plugin =
          PluginServer.withYaml(
              dir, Map.of("up", stub.url()), Map.of("NUMERIC_KEY", SECRET), MAPPING)) {
        PluginServer.Answer answer = plugin.getparams("numeric", "{\"input\":{\"parameters\":{}}}");
        assertThat(answer.status()).as(answer.body()).isGreaterThanOrEqualTo(500);
        assertThat(answer.body()).contains("holds a secret value").doesNotContain("48151623");
        for (String format : new String[] {"", "?format=text"}) {
          PluginServer.Answer explained =
              plugin.send(
                  "POST",
                  "/mappings/numeric/api/v1/getparams.explain" + format,
                  "{\"input\":{\"parameters\":{}}}",
                  "Bearer " + PluginServer.TOKEN,
                  "application/json");
          assertThat(explained.status()).as(explained.body()).isEqualTo(200);
          assertThat(explained.body()).doesNotContain("8151623");
        }
      }
      assertThat(String.join("\n", logs.rendered())).doesNotContain("8151623");
    }
  }

  @Test
  void anOrdinaryNumberStaysANumber(@TempDir Path dir) {
    try (StubUpstream stub = new StubUpstream()) {
      stub.on("GET /rows", Reply.json(200, "[{\"n\":1234567890123}]"));
      try (PluginServer plugin =
          PluginServer.withYaml(
              dir, Map.of("up", stub.url()), Map.of("NUMERIC_KEY", SECRET), MAPPING)) {
        PluginServer.Answer answer = plugin.getparams("numeric", "{\"input\":{\"parameters\":{}}}");
        assertThat(answer.status()).as(answer.body()).isEqualTo(200);
        assertThat(answer.body())
            .isEqualTo(
                "{\"output\":{\"parameters\":[{\"v\":1234567890123,\"negated\":-1234567890123,"
                    + "\"inside\":[1234567890123]}]}}");
      }
    }
  }
}
