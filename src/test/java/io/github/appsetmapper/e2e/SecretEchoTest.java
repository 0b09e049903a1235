package io.github.appsetmapper.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.PluginServer.Answer;
import io.github.appsetmapper.testing.StubUpstream;
import io.github.appsetmapper.testing.StubUpstream.Reply;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An upstream that echoes the API key it was sent into a field a parameter maps: the answer would
 * carry the secret to Argo CD (and into Applications). Refused with a 502 naming the parameter, in
 * every form the secret can take in the item; explain tells the same.
 */
class SecretEchoTest {
  private static final String SECRET = "echoed-api-key\"/9f3b2c7d1e";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String MAPPING =
      """
      name: echo
      input: {form: {required: true}}
      vars: {up: {default: "http://unset.invalid"}}
      secrets: {key: {env: API_KEY}}
      list:
        request:
          url: "#{vars.up}/echo/#{input.form}"
          headers: {X-Api-Key: "#{secret.key}"}
        items: "$[*]"
      parameters: {name: item.name, note: item.note}
      """;

  private StubUpstream stub;
  private PluginServer plugin;

  @BeforeEach
  void start(@TempDir Path dir) {
    stub = new StubUpstream();
    stub.otherwise(
        r -> {
          String key = r.header("X-Api-Key");
          String form = r.rawUri().substring("/echo/".length());
          String note =
              switch (form) {
                // JSON-escaped in the body: the item holds the secret itself.
                case "raw" -> key.replace("\\", "\\\\").replace("\"", "\\\"");
                case "escaped" -> key.replace("\"", "\\u0022").replace("/", "\\/");
                case "percent" -> URLEncoder.encode(key, StandardCharsets.UTF_8);
                default -> "nothing";
              };
          return Reply.json(200, "[{\"name\":\"a\",\"note\":\"see " + note + "\"}]");
        });
    plugin =
        PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of("API_KEY", SECRET), MAPPING);
  }

  @AfterEach
  void stop() {
    plugin.close();
    stub.close();
  }

  private static String body(String form) {
    return "{\"applicationSetName\":\"x\",\"input\":{\"parameters\":{\"form\":\"" + form + "\"}}}";
  }

  @ParameterizedTest
  @ValueSource(strings = {"raw", "escaped", "percent"})
  void aSecretEchoedIntoAParameterIsA502NamingTheParameterAndExplainSaysTheSame(String form)
      throws Exception {
    Answer answer = plugin.getparams("echo", body(form));
    assertThat(answer.status()).as(answer.body()).isEqualTo(502);
    assertThat(JSON.readTree(answer.body()).get("error").asText())
        .isEqualTo(
            "mapping 'echo': parameter 'note' of row 0 holds a secret value this server uses (an"
                + " upstream echoing a credential?); refused so that no secret reaches Argo CD");
    assertThat(answer.body()).doesNotContain("9f3b2c7d1e");
    Answer explained =
        plugin.send(
            "POST",
            "/mappings/echo/api/v1/getparams.explain",
            body(form),
            "Bearer " + PluginServer.TOKEN,
            "application/json");
    assertThat(explained.body()).doesNotContain("9f3b2c7d1e");
    JsonNode report = JSON.readTree(explained.body());
    assertThat(report.get("answer").get("status").asInt()).isEqualTo(502);
    assertThat(report.get("answer").get("body").get("error").asText())
        .isEqualTo(JSON.readTree(answer.body()).get("error").asText());
  }

  @ParameterizedTest
  @ValueSource(strings = {"none"})
  void anAnswerWithoutTheSecretIsA200(String form) {
    Answer answer = plugin.getparams("echo", body(form));
    assertThat(answer.status()).as(answer.body()).isEqualTo(200);
    assertThat(answer.body()).contains("see nothing");
  }
}
