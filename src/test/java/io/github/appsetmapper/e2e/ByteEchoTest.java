package io.github.appsetmapper.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.appsetmapper.server.Json;
import io.github.appsetmapper.testing.ByteForms;
import io.github.appsetmapper.testing.LogCapture;
import io.github.appsetmapper.testing.NoLeak;
import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.PluginServer.Answer;
import io.github.appsetmapper.testing.StubUpstream;
import io.github.appsetmapper.testing.StubUpstream.Reply;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Upstreams that echo a non-ASCII secret's bytes read in another charset or written in a byte
 * notation ({@link ByteForms}: hex and base64 of its Latin-1 or windows-1252 bytes, Python's {@code
 * \xe4} and C's octal escapes, its UTF-8 read as Latin-1 or windows-1252), in a 401's text body and
 * in a 200's JSON value: the 502 line shows the mask, and neither it, explain nor the log holds any
 * {@link io.github.appsetmapper.testing.SecretForms#PIECE}-character piece of a form.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ByteEchoTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** The Latin-1 secret goes in a header (as Latin-1 bytes), the windows-1252 one in the query. */
  private static final String MAPPING =
      """
      name: bytes
      input:
        mode: {required: true, enum: [text, json]}
        form: {required: true, pattern: "[0-9]{1,3}"}
      vars: {up: {default: "http://unset.invalid"}}
      secrets: {key: {env: KEY}, word: {env: WORD}}
      list:
        request:
          url: "#{vars.up}/echo/#{input.mode}/#{input.form}"
          headers: {X-Api-Key: "#{secret.key}"}
          query: {word: "#{secret.word}"}
          retries: 0
        items: "$[*]"
      parameters: {name: item.name, note: item.note}
      """;

  /** Each echo: the secret it is a form of, its name, the text. */
  private static final List<String[]> ECHOES = echoList();

  private StubUpstream stub;
  private PluginServer plugin;
  private LogCapture logs;

  private static List<String[]> echoList() {
    List<String[]> out = new ArrayList<>();
    for (String secret : List.of(ByteForms.LATIN1, ByteForms.WINDOWS)) {
      ByteForms.echoes("bot", secret)
          .forEach((name, echo) -> out.add(new String[] {secret, name, echo}));
    }
    return out;
  }

  @BeforeAll
  void start(@TempDir Path dir) {
    logs = new LogCapture();
    stub = new StubUpstream();
    stub.otherwise(
        r -> {
          String[] path = r.rawUri().split("\\?")[0].split("/");
          String echo = ECHOES.get(Integer.parseInt(path[3]))[2];
          if (path[2].equals("text")) {
            return new Reply(
                401,
                Map.of("Content-Type", "text/plain; charset=utf-8"),
                ("denied " + echo).getBytes(StandardCharsets.UTF_8),
                0,
                null);
          }
          return Reply.json(200, "[{\"name\":\"a\",\"note\":" + Json.write("see " + echo) + "}]");
        });
    plugin =
        PluginServer.withYaml(
            dir,
            Map.of("up", stub.url()),
            Map.of("KEY", ByteForms.LATIN1, "WORD", ByteForms.WINDOWS),
            MAPPING);
  }

  @AfterAll
  void stop() {
    plugin.close();
    stub.close();
    logs.close();
  }

  static Stream<Arguments> echoes() {
    List<Arguments> out = new ArrayList<>();
    for (int i = 0; i < ECHOES.size(); i++) {
      out.add(Arguments.of(i, ECHOES.get(i)[0] + ": " + ECHOES.get(i)[1]));
    }
    return out.stream();
  }

  private static String body(String mode, int form) {
    return "{\"applicationSetName\":\"x\",\"input\":{\"parameters\":{\"mode\":\""
        + mode
        + "\",\"form\":\""
        + form
        + "\"}}}";
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("echoes")
  void anEchoInA401TextBodyIsMaskedInTheAnswerExplainAndLog(int form, String name)
      throws Exception {
    String secret = ECHOES.get(form)[0];
    Answer answer = plugin.getparams("bytes", body("text", form));
    assertThat(answer.status()).as(answer.body()).isEqualTo(502);
    assertThat(JSON.readTree(answer.body()).get("error").asText())
        .contains("answered 401 (text/plain: denied ")
        .contains("***");
    assertNoLeak(answer.body(), secret);
    assertNoLeak(explain(body("text", form), ""), secret);
    assertNoLeak(explain(body("text", form), "?format=text"), secret);
    assertNoLeak(String.join("\n", logs.lines()), secret);
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("echoes")
  void anEchoInA200ValueIsRefusedAndMaskedInExplainAndLog(int form, String name) throws Exception {
    String secret = ECHOES.get(form)[0];
    Answer answer = plugin.getparams("bytes", body("json", form));
    assertThat(answer.status()).as(answer.body()).isEqualTo(502);
    assertThat(JSON.readTree(answer.body()).get("error").asText())
        .isEqualTo(
            "mapping 'bytes': parameter 'note' of row 0 holds a secret value this server uses (an"
                + " upstream echoing a credential?); refused so that no secret reaches Argo CD");
    String explained = explain(body("json", form), "");
    assertThat(explained).contains("***");
    assertNoLeak(explained, secret);
    assertNoLeak(explain(body("json", form), "?format=text"), secret);
    assertNoLeak(String.join("\n", logs.lines()), secret);
  }

  private String explain(String body, String query) {
    Answer answer =
        plugin.send(
            "POST",
            "/mappings/bytes/api/v1/getparams.explain" + query,
            body,
            "Bearer " + PluginServer.TOKEN,
            "application/json");
    assertThat(answer.status()).isEqualTo(200);
    return answer.body();
  }

  /** Neither the text as sent nor, when it is JSON, any string in it holds a piece. */
  private static void assertNoLeak(String text, String secret) {
    NoLeak.assertNone(text, t -> ByteForms.leaks(t, secret));
  }
}
