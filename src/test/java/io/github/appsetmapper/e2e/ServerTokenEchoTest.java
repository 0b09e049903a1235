package io.github.appsetmapper.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.testing.LogCapture;
import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.PluginServer.Answer;
import io.github.appsetmapper.testing.ShadowServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server's own bearer token is a secret like any other: a caller who echoes it (in a path, a
 * mapping name, an input an error quotes) finds it in no answer and no log line (an outsider saw it
 * in both).
 */
class ServerTokenEchoTest {
  private static final String MAPPING =
      """
      name: m
      input:
        n: {required: true}
      parameters:
        a: "#toNumber(input.n)"
      """;

  @TempDir Path dir;

  @Test
  void theTokenEchoedByItsCallerIsInNoAnswerAndNoLogLine() throws Exception {
    String token = PluginServer.TOKEN;
    String bearer = "Bearer " + token;
    List<String> outputs = new ArrayList<>();
    try (LogCapture logs = new LogCapture();
        PluginServer server = PluginServer.withYaml(dir, Map.of(), Map.of(), MAPPING)) {
      Answer unknownMapping =
          server.send(
              "POST",
              "/mappings/" + token + "/api/v1/getparams.execute",
              "{}",
              bearer,
              "application/json");
      assertThat(unknownMapping.status()).isEqualTo(404);
      Answer echoedInput =
          server.getparams("m", "{\"input\":{\"parameters\":{\"n\":\"" + token + "\"}}}");
      assertThat(echoedInput.status()).isEqualTo(500);
      Answer unknownPath = server.send("POST", "/x/" + token, "", bearer, "application/json");
      assertThat(unknownPath.status()).isEqualTo(404);
      Answer noToken = server.send("POST", "/x/" + token, "", null, "application/json");
      assertThat(noToken.status()).isEqualTo(403);
      // The method is the caller's too: a refusal's line names it (403 before the token, 405).
      Answer methodNoToken = server.send(token, "/x", "{}", null, "application/json");
      assertThat(methodNoToken.status()).isEqualTo(403);
      Answer methodNotAllowed =
          server.send(
              token, "/mappings/m/api/v1/getparams.execute", "{}", bearer, "application/json");
      assertThat(methodNotAllowed.status()).isEqualTo(405);
      for (Answer answer :
          List.of(
              unknownMapping, echoedInput, unknownPath, noToken, methodNoToken, methodNotAllowed)) {
        outputs.add(answer.body());
      }
      outputs.addAll(logs.rendered());
    }
    // The shadow route's line names the candidate from the path.
    try (LogCapture logs = new LogCapture();
        ShadowServer shadow =
            ShadowServer.start(
                dir.resolve("shadow"), Map.of(), List.of(MAPPING), List.of(MAPPING))) {
      Answer candidate =
          shadow.send(
              "POST", "/mappings/" + token + "/shadow/api/v1/getparams.execute", "{}", token);
      assertThat(candidate.status()).isEqualTo(404);
      outputs.add(candidate.body());
      outputs.addAll(logs.rendered());
    }
    assertThat(String.join("\n", outputs)).contains("***");
    // No run of half the token, as security.md's criterion says.
    int run = token.length() / 2;
    for (String output : outputs) {
      for (int at = 0; at + run <= token.length(); at++) {
        assertThat(output).doesNotContain(token.substring(at, at + run));
      }
    }
  }

  @Test
  void theTokenSentAsTheApplicationSetNameIsInNoLogLineReportOrShadowLine() throws Exception {
    // The token is a valid Kubernetes name (lowercase, digits, '-'): the name rule lets it in.
    String token = PluginServer.TOKEN;
    String body =
        "{\"applicationSetName\":\"" + token + "\",\"input\":{\"parameters\":{\"n\":\"5\"}}}";
    List<String> outputs = new ArrayList<>();
    try (LogCapture logs = new LogCapture();
        PluginServer server = PluginServer.withYaml(dir, Map.of(), Map.of(), MAPPING)) {
      Answer answered = server.getparams("m", body);
      assertThat(answered.status()).as(answered.body()).isEqualTo(200);
      outputs.add(answered.body());
      for (String format : new String[] {"", "?format=text"}) {
        Answer explained =
            server.send(
                "POST",
                "/mappings/m/api/v1/getparams.explain" + format,
                body,
                "Bearer " + token,
                "application/json");
        assertThat(explained.status()).as(explained.body()).isEqualTo(200);
        outputs.add(explained.body());
      }
      outputs.addAll(logs.rendered());
    }
    String candidate = MAPPING.replace("\"#toNumber(input.n)\"", "\"#toNumber(input.n) + 1\"");
    try (LogCapture logs = new LogCapture();
        ShadowServer shadow =
            ShadowServer.start(
                dir.resolve("shadow"), Map.of(), List.of(MAPPING), List.of(candidate))) {
      assertThat(shadow.getparams("m", body).status()).isEqualTo(200);
      ShadowServer.until(
          "the candidate's difference is kept",
          () -> shadow.send("GET", "/mappings/m/shadow", null, token).body().contains("different"));
      Answer report = shadow.send("GET", "/mappings/m/shadow", null, token);
      assertThat(report.body()).contains("\"after\"");
      outputs.add(report.body());
      outputs.addAll(logs.rendered());
    }
    assertThat(String.join("\n", outputs)).contains("appset=***");
    assertNoHalfOf(token, outputs);
  }

  private static void assertNoHalfOf(String token, List<String> outputs) {
    int run = token.length() / 2;
    for (String output : outputs) {
      for (int at = 0; at + run <= token.length(); at++) {
        assertThat(output).doesNotContain(token.substring(at, at + run));
      }
    }
  }
}
