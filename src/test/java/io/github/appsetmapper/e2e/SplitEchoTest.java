package io.github.appsetmapper.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.appsetmapper.server.Json;
import io.github.appsetmapper.testing.LogCapture;
import io.github.appsetmapper.testing.NoLeak;
import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.PluginServer.Answer;
import io.github.appsetmapper.testing.SecretForms;
import io.github.appsetmapper.testing.StubUpstream;
import io.github.appsetmapper.testing.StubUpstream.Reply;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
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
 * An upstream that wants a password it was sent shown to whoever reads the ApplicationSet status,
 * the explain report or the log, and picks a form the redactor did not read: quoted-printable with
 * a soft line break inside it, the password folded over two lines, a zero-width space, soft hyphen
 * or byte order mark between its characters, base64 folded at 76 columns as MIME writes it,
 * reversed, ROT13, or each character doubled. Each came back readable, in a 401's text body, a
 * 401's JSON message and a 200's mapped value; now the 502 masks it (or refuses the value), and
 * neither it, explain nor the log holds a piece of it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SplitEchoTest {
  /** Past ASCII (quoted-printable writes it as =C3=B6) and long enough that no half is short. */
  private static final String PASSWORD = "Tök3n-Zw8q-Rv5x-Lm2p-Qa9k-Hy4j";

  /** The forms of {@link SecretForms#echoes} this test carries, by name. */
  private static final List<String> FORMS =
      List.of(
          "quoted-printable, soft line break (CRLF)",
          "quoted-printable, lower-case hex, soft line break (LF)",
          "folded with CRLF a third of the way in",
          "folded with LF a third of the way in",
          "a zero-width space after every third character",
          "a soft hyphen after every second character",
          "a byte order mark after every fourth character",
          "base64 folded at 76 columns (MIME)",
          "reversed",
          "ROT13",
          "each character doubled",
          "sent as Latin-1, percent-encoded, mixed case",
          "HTML, decimal, hex and named references mixed");

  private static final Map<String, String> ECHOES = SecretForms.echoes("bot", PASSWORD);

  private static final ObjectMapper JSON = new ObjectMapper();

  private static final String MAPPING =
      """
      name: split
      input:
        mode: {required: true, enum: [text, json, value]}
        form: {required: true, pattern: "[0-9]{1,3}"}
      vars: {up: {default: "http://unset.invalid"}}
      secrets: {pw: {env: PW}}
      list:
        request:
          url: "#{vars.up}/echo/#{input.mode}/#{input.form}"
          auth: {basic: {username: bot, password: {secret: pw}}}
          retries: 0
        items: "$[*]"
      parameters: {name: item.name, note: item.note}
      """;

  private StubUpstream stub;
  private PluginServer plugin;
  private LogCapture logs;

  @BeforeAll
  void start(@TempDir Path dir) {
    logs = new LogCapture();
    stub = new StubUpstream();
    stub.otherwise(
        r -> {
          String sent =
              new String(
                      Base64.getDecoder()
                          .decode(r.header("authorization").substring("Basic ".length())),
                      StandardCharsets.UTF_8)
                  .split(":", 2)[1];
          assertThat(sent).isEqualTo(PASSWORD);
          String[] path = r.rawUri().split("/");
          String echo = ECHOES.get(FORMS.get(Integer.parseInt(path[3])));
          return switch (path[2]) {
            case "text" ->
                new Reply(
                    401,
                    Map.of("Content-Type", "text/plain; charset=utf-8"),
                    ("denied\r\n" + echo + "\r\n").getBytes(StandardCharsets.UTF_8),
                    0,
                    null);
            case "json" ->
                Reply.json(401, "{\"message\":" + Json.write("bad credentials " + echo) + "}");
            default -> Reply.json(200, "[{\"name\":\"a\",\"note\":" + Json.write(echo) + "}]");
          };
        });
    plugin = PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of("PW", PASSWORD), MAPPING);
  }

  @AfterAll
  void stop() {
    plugin.close();
    stub.close();
    logs.close();
  }

  static Stream<Arguments> forms() {
    List<Arguments> out = new ArrayList<>();
    for (int i = 0; i < FORMS.size(); i++) {
      out.add(Arguments.of(i, FORMS.get(i)));
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
  @MethodSource("forms")
  void anEchoInA401TextBodyIsMaskedInTheAnswerExplainAndLog(int form, String name)
      throws Exception {
    int logged = logs.lines().size();
    Answer answer = plugin.getparams("split", body("text", form));
    assertThat(answer.status()).as(answer.body()).isEqualTo(502);
    assertThat(error(answer)).contains("answered 401 (text/plain: denied").contains("***");
    assertNoLeakAnywhere(answer, body("text", form), logged);
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("forms")
  void anEchoInA401JsonMessageIsMaskedInTheAnswerExplainAndLog(int form, String name)
      throws Exception {
    int logged = logs.lines().size();
    Answer answer = plugin.getparams("split", body("json", form));
    assertThat(answer.status()).as(answer.body()).isEqualTo(502);
    assertThat(error(answer)).contains("answered 401 (bad credentials ").contains("***");
    assertNoLeakAnywhere(answer, body("json", form), logged);
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("forms")
  void anEchoInA200ValueIsRefused(int form, String name) throws Exception {
    int logged = logs.lines().size();
    Answer answer = plugin.getparams("split", body("value", form));
    assertThat(answer.status()).as(answer.body()).isEqualTo(502);
    assertThat(error(answer))
        .isEqualTo(
            "mapping 'split': parameter 'note' of row 0 holds a secret value this server uses (an"
                + " upstream echoing a credential?); refused so that no secret reaches Argo CD");
    assertNoLeakAnywhere(answer, body("value", form), logged);
  }

  private static String error(Answer answer) throws Exception {
    return JSON.readTree(answer.body()).get("error").asText();
  }

  /** Nothing in the answer, explain (JSON and text) or the log lines since {@code logged}. */
  private void assertNoLeakAnywhere(Answer answer, String body, int logged) {
    assertNoLeak(answer.body());
    assertNoLeak(explain(body, ""));
    assertNoLeak(explain(body, "?format=text"));
    List<String> lines = logs.lines();
    assertNoLeak(String.join("\n", lines.subList(logged, lines.size())));
  }

  private String explain(String body, String query) {
    Answer answer =
        plugin.send(
            "POST",
            "/mappings/split/api/v1/getparams.explain" + query,
            body,
            "Bearer " + PluginServer.TOKEN,
            "application/json");
    assertThat(answer.status()).isEqualTo(200);
    return answer.body();
  }

  /** Neither the text as sent nor, when it is JSON, any string in it holds a piece. */
  private static void assertNoLeak(String text) {
    NoLeak.assertNone(text, t -> SecretForms.leaks(t, PASSWORD));
  }
}
