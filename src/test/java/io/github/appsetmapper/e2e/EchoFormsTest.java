package io.github.appsetmapper.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.appsetmapper.testing.LogCapture;
import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.PluginServer.Answer;
import io.github.appsetmapper.testing.StubUpstream;
import io.github.appsetmapper.testing.StubUpstream.Reply;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.text.Normalizer;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An upstream that echoes the password it was sent in a form the redactor did not know: case-folded
 * as Python's {@code casefold} does ({@code ß} as {@code ss}), base64 of its decomposed (NFD) form,
 * its bytes in hex with separators, or (into a mapped field) as a character NFKC lengthens to the
 * whole secret. Every run of these echoes came back readable: none as long as half the secret. The
 * 502 line, explain and the server log show none of it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EchoFormsTest {
  /** Accented letters and an ß every few characters: no run of any echo is half of it. */
  private static final String PASSWORD = "Maßstab-Größe-Fußweg-Äöü-Éè-9";

  /** What NFKC makes of {@code ㌀}, the echo a value of one character carries. */
  private static final String SHORT = "アパート";

  private static final ObjectMapper JSON = new ObjectMapper();

  private static final String ECHO =
      """
      name: echo
      input:
        form: {required: true, pattern: "[a-z0-9]{1,20}"}
      vars: {up: {default: "http://unset.invalid"}}
      secrets: {pw: {env: PW}}
      list:
        request:
          url: "#{vars.up}/echo/#{input.form}"
          auth: {basic: {username: bot, password: {secret: pw}}}
          retries: 0
        items: "$[*]"
      parameters: {id: item}
      """;

  private static final String FIELD =
      """
      name: field
      vars: {up: {default: "http://unset.invalid"}}
      secrets: {pw: {env: SHORT}}
      list:
        request:
          url: "#{vars.up}/field"
          auth: {basic: {username: bot, password: {secret: pw}}}
          retries: 0
        items: "$[*]"
      parameters: {name: item.name, note: item.note}
      """;

  private StubUpstream stub;
  private PluginServer plugin;
  private LogCapture logs;

  static String echo(String form) {
    byte[] bytes = PASSWORD.getBytes(StandardCharsets.UTF_8);
    return switch (form) {
      // Python's str.casefold: full case folding, "ß" as "ss".
      case "casefold" -> PASSWORD.toLowerCase(Locale.ROOT).replace("ß", "ss");
      case "base64nfd" ->
          Base64.getEncoder()
              .encodeToString(
                  Normalizer.normalize(PASSWORD, Normalizer.Form.NFD)
                      .getBytes(StandardCharsets.UTF_8));
      case "hexcolons" -> HexFormat.ofDelimiter(":").formatHex(bytes);
      case "hexspaces" -> HexFormat.ofDelimiter(" ").formatHex(bytes).toUpperCase(Locale.ROOT);
      case "hexdashes" -> HexFormat.ofDelimiter("-").formatHex(bytes);
      default -> throw new IllegalArgumentException(form);
    };
  }

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
          if (r.rawUri().equals("/field")) {
            String note = Normalizer.normalize("㌀", Normalizer.Form.NFKC).equals(sent) ? "㌀" : "-";
            return Reply.json(200, "[{\"name\":\"a\",\"note\":\"" + note + "\"}]");
          }
          assertThat(sent).isEqualTo(PASSWORD);
          String form = r.rawUri().substring("/echo/".length());
          return Reply.json(401, "{\"message\":\"bad credentials " + echo(form) + "\"}");
        });
    plugin =
        PluginServer.withYaml(
            dir, Map.of("up", stub.url()), Map.of("PW", PASSWORD, "SHORT", SHORT), ECHO, FIELD);
  }

  @AfterAll
  void stop() {
    plugin.close();
    stub.close();
    logs.close();
  }

  private static String body(String form) {
    return "{\"applicationSetName\":\"x\",\"input\":{\"parameters\":{\"form\":\"" + form + "\"}}}";
  }

  @ParameterizedTest
  @ValueSource(strings = {"casefold", "base64nfd", "hexcolons", "hexspaces", "hexdashes"})
  void anEchoInAnotherFormReachesNoAnswerReportOrLogLine(String form) throws Exception {
    Answer answer = plugin.getparams("echo", body(form));
    assertThat(answer.status()).as(answer.body()).isEqualTo(502);
    String error = JSON.readTree(answer.body()).get("error").asText();
    assertThat(error).contains("answered 401 (bad credentials ***");
    String echoed = echo(form);
    assertNoPiece(answer.body(), echoed);
    assertNoPiece(explain("echo", body(form)), echoed);
    assertNoPiece(String.join("\n", logs.lines()), echoed);
  }

  /**
   * {@code ㌀} is one character, three bytes: shorter than any secret, it was never looked at, yet
   * NFKC makes it {@code アパート}, the whole secret. A text past ASCII is looked at whenever NFKC
   * could make it long enough.
   */
  @Test
  void aCharacterNfkcLengthensToTheSecretIsRefusedInAParameter() throws Exception {
    Answer answer = plugin.getparams("field", "{\"applicationSetName\":\"x\"}");
    assertThat(answer.status()).as(answer.body()).isEqualTo(502);
    assertThat(JSON.readTree(answer.body()).get("error").asText())
        .isEqualTo(
            "mapping 'field': parameter 'note' of row 0 holds a secret value this server uses (an"
                + " upstream echoing a credential?); refused so that no secret reaches Argo CD");
    assertThat(answer.body()).doesNotContain("㌀");
    assertThat(explain("field", "{\"applicationSetName\":\"x\"}")).doesNotContain("㌀");
    assertThat(String.join("\n", logs.lines())).doesNotContain("㌀");
  }

  private String explain(String mapping, String body) {
    Answer answer =
        plugin.send(
            "POST",
            "/mappings/" + mapping + "/api/v1/getparams.explain",
            body,
            "Bearer " + PluginServer.TOKEN,
            "application/json");
    assertThat(answer.status()).isEqualTo(200);
    return answer.body();
  }

  /** No eight characters of the echo in a row, as sent or JSON-escaped. */
  private static void assertNoPiece(String text, String echoed) {
    String unescaped = text.replace("\\u002B", "+").replace("\\/", "/");
    for (int i = 0; i + 8 <= echoed.length(); i++) {
      String piece = echoed.substring(i, i + 8);
      assertThat(unescaped).as("a piece of %s", echoed).doesNotContain(piece);
    }
  }
}
