package io.github.appsetmapper.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.appsetmapper.testing.LogCapture;
import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.PluginServer.Answer;
import io.github.appsetmapper.testing.SecretForms;
import io.github.appsetmapper.testing.StubUpstream;
import io.github.appsetmapper.testing.StubUpstream.Reply;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 22 item 5: an upstream's error answer shows in the 502 line in the upstream's own words,
 * whatever envelope it uses (Harbor, Backstage, GitHub, registries, RFC 7807), or by its
 * Content-Type and first bytes when it is not JSON; redacted, bounded and escaped.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class UpstreamWordsTest {
  private static final String SECRET = "words-api-key-5c1e9a77d2";
  private static final String MAPPING =
      """
      name: words
      input: {case: {required: true, pattern: "[a-z0-9-]{1,40}"}}
      vars: {up: {default: "http://unset.invalid"}}
      secrets: {key: {env: API_KEY}}
      list:
        request:
          url: "#{vars.up}/err/#{input.case}"
          headers: {Authorization: "Bearer #{secret.key}"}
        items: "$[*]"
      parameters: {id: item.id}
      """;
  private static final ObjectMapper JSON = new ObjectMapper();

  private StubUpstream stub;
  private PluginServer plugin;
  private final Map<String, Reply> replies = new java.util.concurrent.ConcurrentHashMap<>();

  @BeforeAll
  void start(@TempDir Path dir) throws Exception {
    stub = new StubUpstream();
    stub.otherwise(r -> replies.get(r.rawUri().substring("/err/".length())));
    replies.put(
        "harbor",
        Reply.json(
            404,
            "{\"errors\":[{\"code\":\"NOT_FOUND\",\"message\":\"project nosuch not found\"}]}"));
    replies.put(
        "backstage",
        Reply.json(
            500,
            "{\"error\":{\"name\":\"KnexTimeoutError\",\"message\":\"Knex: Timeout acquiring a"
                + " connection\"},\"request\":{\"method\":\"GET\"}}"));
    replies.put("github", Reply.json(403, "{\"message\":\"API rate limit exceeded\"}"));
    replies.put("plain-error", Reply.json(500, "{\"error\":\"database is locked\"}"));
    replies.put(
        "problem",
        Reply.json(
                422,
                "{\"type\":\"about:blank\",\"title\":\"Unprocessable\",\"detail\":\"branch"
                    + " is archived\"}")
            .withHeader("Content-Type", "application/problem+json"));
    replies.put(
        "registry",
        Reply.json(
            401,
            Files.readString(
                    Path.of(
                        "/work/shared/fixtures/api-examples/oci-distribution/registry-401-unauthorized.json"))
                .strip()));
    replies.put(
        "html",
        new Reply(
            500,
            Map.of("Content-Type", "text/html; charset=utf-8"),
            "<!DOCTYPE html><html><body>Internal error</body></html>"
                .getBytes(StandardCharsets.UTF_8),
            0,
            null));
    replies.put(
        "yaml",
        new Reply(
            500,
            Map.of("Content-Type", "application/yaml"),
            "message: disk full\n".getBytes(StandardCharsets.UTF_8),
            0,
            null));
    replies.put(
        "echo", Reply.json(401, "{\"message\":\"bad credentials: Bearer " + SECRET + "\"}"));
    replies.put(
        "echo-html",
        new Reply(
            401,
            Map.of("Content-Type", "text/plain"),
            ("denied " + SecretForms.percent(SECRET, "", true)).getBytes(StandardCharsets.UTF_8),
            0,
            null));
    replies.put(
        "control",
        Reply.json(500, "{\"message\":\"bad\\u001b[31m red\\r\\nforged \\u202e line\"}"));
    replies.put("long", Reply.json(500, "{\"message\":\"" + "x".repeat(5000) + "\"}"));
    byte[] huge = new byte[2 * 1024 * 1024];
    Arrays.fill(huge, (byte) ' ');
    byte[] head = "{\"message\":\"never parsed\"".getBytes(StandardCharsets.UTF_8);
    System.arraycopy(head, 0, huge, 0, head.length);
    huge[huge.length - 1] = '}';
    replies.put("huge", new Reply(500, Map.of("Content-Type", "application/json"), huge, 0, null));
    replies.put("empty", Reply.status(503));
    plugin =
        PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of("API_KEY", SECRET), MAPPING);
  }

  @AfterAll
  void stop() {
    plugin.close();
    stub.close();
  }

  private String error(String name) throws Exception {
    Answer answer =
        plugin.getparams(
            "words",
            "{\"applicationSetName\":\"as\",\"input\":{\"parameters\":{\"case\":\""
                + name
                + "\"}}}");
    assertThat(answer.status()).as(answer.body()).isEqualTo(502);
    return JSON.readTree(answer.body()).get("error").asText();
  }

  static Stream<Arguments> envelopes() {
    return Stream.of(
        Arguments.of("harbor", "answered 404 (project nosuch not found)"),
        Arguments.of("backstage", "answered 500 (Knex: Timeout acquiring a connection)"),
        Arguments.of("github", "answered 403 (API rate limit exceeded)"),
        Arguments.of("plain-error", "answered 500 (database is locked)"),
        Arguments.of("problem", "answered 422 (Unprocessable: branch is archived)"),
        Arguments.of(
            "registry", "answered 401 (access to the requested resource is not authorized)"),
        Arguments.of(
            "html",
            "answered 500 (text/html: <!DOCTYPE html><html><body>Internal error</body></html>)"),
        Arguments.of("yaml", "answered 500 (disk full)"),
        Arguments.of("empty", "answered 503 after 3 attempts"));
  }

  @ParameterizedTest
  @MethodSource("envelopes")
  void theUpstreamsOwnWordsEndThe502Line(String name, String ending) throws Exception {
    assertThat(error(name)).endsWith("/err/" + name + ": " + ending);
  }

  @Test
  void aSecretEchoedInTheEnvelopeIsRedactedInTheAnswerExplainAndLogs() throws Exception {
    try (LogCapture logs = new LogCapture()) {
      for (String name : new String[] {"echo", "echo-html"}) {
        String said = error(name);
        assertThat(said).contains("***");
        assertThat(SecretForms.leaks(said, SECRET)).as(said).isEmpty();
        Answer explained =
            plugin.send(
                "POST",
                "/mappings/words/api/v1/getparams.explain",
                "{\"applicationSetName\":\"as\",\"input\":{\"parameters\":{\"case\":\""
                    + name
                    + "\"}}}",
                "Bearer " + PluginServer.TOKEN,
                "application/json");
        assertThat(explained.body()).contains("***");
        assertThat(SecretForms.leaks(explained.body(), SECRET)).isEmpty();
      }
      assertThat(SecretForms.leaks(String.join("\n", logs.rendered()), SECRET)).isEmpty();
    }
  }

  @Test
  void theWordsReachExplainAndTheLogToo() throws Exception {
    try (LogCapture logs = new LogCapture()) {
      String said = error("harbor");
      Answer explained =
          plugin.send(
              "POST",
              "/mappings/words/api/v1/getparams.explain",
              "{\"applicationSetName\":\"as\",\"input\":{\"parameters\":{\"case\":\"harbor\"}}}",
              "Bearer " + PluginServer.TOKEN,
              "application/json");
      assertThat(JSON.readTree(explained.body()).path("answer").path("body").path("error").asText())
          .isEqualTo(said);
      assertThat(logs.rendered()).anyMatch(line -> line.contains("(project nosuch not found)"));
    }
  }

  @Test
  void controlCharactersAreEscapedAndTheTextIsBounded() throws Exception {
    String control = error("control");
    assertThat(control)
        .endsWith("(bad\\u001b[31m red forged \\u202e line)")
        .doesNotContain("\u001b", "\r", "\n", "\u202e");
    String longer = error("long");
    assertThat(longer).contains("(" + "x".repeat(160) + "...)").doesNotContain("x".repeat(161));
  }

  @Test
  void aHugeErrorBodyIsShownByItsFirstBytesNotParsed() throws Exception {
    assertThat(error("huge"))
        .endsWith("answered 500 (application/json: {\"message\":\"never parsed\" ...)");
  }
}
