package io.github.appsetmapper.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.JsonEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggingEvent;
import io.github.appsetmapper.logging.LogText;
import io.github.appsetmapper.testing.LogCapture;
import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.PluginServer.Answer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * No value a caller sends (a path, an ApplicationSet name, an input) can forge a log line: every
 * control character in a logged message is escaped, in the text and the JSON format alike.
 */
class LogLinesTest {
  private static final String HELLO =
      """
      name: hello
      input:
        who: {default: world}
      parameters:
        greeting: "'hello ' + input.who"
      """;
  private static final String FORGED = "2030-01-01T00:00:00.000Z INFO  getparams mapping=hello";

  private static void assertOneLineEach(List<String> rendered) {
    assertThat(rendered).isNotEmpty();
    for (String line : rendered) {
      assertThat(line.indexOf('\n')).as(line).isEqualTo(line.length() - 1);
      assertThat(line).doesNotContain("\r").doesNotContain("\u0085").doesNotContain("\u2028");
    }
  }

  @Test
  void aLineBreakInTheApplicationSetNameIsRefusedAndForgesNothing(@TempDir Path dir) {
    try (PluginServer plugin = PluginServer.withYaml(dir, Map.of(), Map.of(), HELLO);
        LogCapture logs = new LogCapture()) {
      for (String route : List.of("getparams.execute", "getparams.explain")) {
        Answer answer =
            plugin.send(
                "POST",
                "/mappings/hello/api/v1/" + route,
                "{\"applicationSetName\":\"team-a\\n" + FORGED + "\",\"input\":{}}",
                "Bearer " + PluginServer.TOKEN,
                "application/json");
        assertThat(answer.status()).isEqualTo(400);
        assertThat(answer.body())
            .isEqualTo(
                "{\"error\":\"applicationSetName must be a Kubernetes name: at most 253 lowercase"
                    + " letters, digits, '-' and '.', starting and ending with a letter or digit\"}");
      }
      assertOneLineEach(logs.rendered());
    }
  }

  /** The getparams line is a contract of the docs (docs/operations.md): its fields, in order. */
  @Test
  void eachGetparamsHasOneLineOfItsFieldsInOrder(@TempDir Path dir) {
    try (PluginServer plugin = PluginServer.withYaml(dir, Map.of(), Map.of(), HELLO);
        LogCapture logs = new LogCapture()) {
      Answer answered =
          plugin.getparams("hello", "{\"applicationSetName\":\"team-a\",\"input\":{}}");
      assertThat(answered.status()).isEqualTo(200);
      Answer refused = plugin.getparams("hello", "{\"input\":{\"parameters\":{\"nope\":\"1\"}}}");
      assertThat(refused.status()).isEqualTo(400);
      List<String> lines = logs.lines();
      assertThat(lines)
          .anyMatch(
              l ->
                  l.matches(
                      "mapping=hello appset=team-a status=200 rows=1 upstream_calls=0 ms=\\d+"));
      assertThat(lines)
          .anyMatch(
              l ->
                  l.matches(
                      "mapping=hello appset=- status=400 upstream_calls=0 ms=\\d+ error=\"input 'nope'"
                          + " is not declared by mapping 'hello'; declared: who\""));
    }
  }

  /**
   * An error quoting a caller's value cannot close the quotes of {@code error="..."} and add fields
   * of its own: a quote and a backslash in it are escaped (logfmt).
   */
  @Test
  void aQuoteInAnErrorCannotAddFieldsToTheLine(@TempDir Path dir) {
    String number =
        """
        name: num
        input:
          s: {default: "1"}
        parameters:
          n: "#toNumber(input.s)"
        """;
    try (PluginServer plugin = PluginServer.withYaml(dir, Map.of(), Map.of(), number);
        LogCapture logs = new LogCapture()) {
      String forged = "x\\\" status=200 rows=9 appset=\\\"evil \\\\";
      Answer failed =
          plugin.getparams("num", "{\"input\":{\"parameters\":{\"s\":\"" + forged + "\"}}}");
      assertThat(failed.status()).isEqualTo(500);
      String line =
          logs.lines().stream().filter(l -> l.startsWith("mapping=num ")).findFirst().orElseThrow();
      // One status field, and the error's quotes hold to the end of the line.
      assertThat(line.substring(0, line.indexOf(" error=")).split(" status=", -1)).hasSize(2);
      assertThat(line).matches(".* error=\"([^\"\\\\]|\\\\.)*\"");
      assertThat(line).contains("x\\\" status=200 rows=9 appset=\\\"evil \\\\'");
    }
  }

  /**
   * A path a caller chose is one field of a line: blanks, quotes and {@code =} decoded from it are
   * quoted, so it adds no fields and names no other client (an outside tester's find).
   */
  @Test
  void aPathCannotAddFieldsToALine(@TempDir Path dir) {
    try (PluginServer plugin = PluginServer.withYaml(dir, Map.of(), Map.of(), HELLO);
        LogCapture logs = new LogCapture()) {
      Answer unknown =
          plugin.getparams("e1%20appset=prod%20status=200%20error=%22none%22", "{\"input\":{}}");
      assertThat(unknown.status()).isEqualTo(404);
      Answer refused =
          plugin.send("POST", "/healthz%20from%209.9.9.9", "{}", "Bearer nope", "application/json");
      assertThat(refused.status()).isEqualTo(403);
      List<String> lines = logs.lines();
      assertThat(lines)
          .anyMatch(
              l ->
                  l.startsWith(
                      "mapping=\"e1 appset=prod status=200 error=\\\"none\\\"\" appset=-"
                          + " status=404 "));
      assertThat(lines).anyMatch(l -> l.startsWith("refused POST \"/healthz from 9.9.9.9\" from "));
    }
  }

  @Test
  void controlCharactersInAPathOrAnInputAreEscapedInTheLog(@TempDir Path dir) {
    try (PluginServer plugin = PluginServer.withYaml(dir, Map.of(), Map.of(), HELLO);
        LogCapture logs = new LogCapture()) {
      // Undertow decodes the path: %0A is a line break in the refusal's log line.
      Answer refused =
          plugin.send(
              "POST",
              "/mappings/x%0D%0A" + FORGED.replace(" ", "%20") + "%C2%85/api/v1/getparams.execute",
              "{}",
              "Bearer nope",
              "application/json");
      assertThat(refused.status()).isEqualTo(403);
      Answer undeclared =
          plugin.getparams("hello", "{\"input\":{\"parameters\":{\"x\\n" + FORGED + "\":\"1\"}}}");
      assertThat(undeclared.status()).isEqualTo(400);
      Answer greeted =
          plugin.getparams("hello", "{\"input\":{\"parameters\":{\"who\":\"a\\u2028b\\rc\"}}}");
      assertThat(greeted.status()).isEqualTo(200);
      List<String> rendered = logs.rendered();
      assertOneLineEach(rendered);
      assertThat(rendered)
          .anyMatch(l -> l.contains("refused POST \"/mappings/x\\r\\n2030-01-01T00:00:00.000Z"));
    }
  }

  /**
   * Invisible and reordering characters (a zero-width space, a byte order mark, a right-to-left
   * override) are escaped in the log and in an error's answer, which Argo CD shows in the
   * ApplicationSet's status: written raw, they hid or reversed what a reader saw there.
   */
  @Test
  void invisibleAndReorderingCharactersAreEscapedInTheLogAndTheAnswer(@TempDir Path dir) {
    try (PluginServer plugin = PluginServer.withYaml(dir, Map.of(), Map.of(), HELLO);
        LogCapture logs = new LogCapture()) {
      Answer unknown =
          plugin.send(
              "POST",
              "/mappings/a%E2%80%8Bb%EF%BB%BFc%E2%80%AEd%F3%A0%81%81e/api/v1/getparams.execute",
              "{}",
              "Bearer " + PluginServer.TOKEN,
              "application/json");
      assertThat(unknown.status()).isEqualTo(404);
      assertThat(unknown.body())
          .contains("a\\\\u200bb\\\\ufeffc\\\\u202ed\\\\udb40\\\\udc41e")
          .doesNotContain("\u200b")
          .doesNotContain("\u202e")
          .doesNotContain("\udb40\udc41");
      String rendered = String.join("\n", logs.rendered());
      assertThat(rendered).contains("a\\u200bb\\ufeffc\\u202ed\\udb40\\udc41e");
      assertThat(rendered)
          .doesNotContain("\u200b")
          .doesNotContain("\ufeff")
          .doesNotContain("\udb40\udc41");
    }
  }

  @Test
  void theJsonFormatEscapesThemToo() {
    LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
    JsonEncoder encoder = new JsonEncoder();
    encoder.setContext(context);
    encoder.setWithFormattedMessage(true);
    encoder.start();
    ILoggingEvent event =
        new LoggingEvent(
            "test",
            context.getLogger("appset_mapper.getparams"),
            ch.qos.logback.classic.Level.INFO,
            "mapping=hello appset={}",
            null,
            new Object[] {"a\n" + FORGED + "\r\u001b[2J"});
    String json = new String(encoder.encode(event), StandardCharsets.UTF_8);
    assertThat(json.indexOf('\n')).isEqualTo(json.length() - 1);
    assertThat(json).doesNotContain("\r").doesNotContain("\u001b");
  }

  /** Where a line splitter (Python's splitlines, log shippers) ends a line, '\n' aside. */
  private static final String BREAKERS = "\r\u000b\f\u001c\u001d\u001e\u0085\u2028\u2029";

  private static void assertNoBreaker(String line) {
    assertThat(line.indexOf('\n')).as(line).isEqualTo(line.length() - 1);
    for (char c : BREAKERS.toCharArray()) {
      assertThat(line.indexOf(c)).as("U+%04X in %s", (int) c, line).isEqualTo(-1);
    }
  }

  @Test
  void noLineBreakerSplitsAJsonOrATextLine() throws Exception {
    LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
    String value = "a" + String.join("b", BREAKERS.split("")) + "z\u00e9\ud83d\ude00";
    ILoggingEvent event =
        new LoggingEvent(
            "test",
            context.getLogger("appset_mapper.getparams"),
            ch.qos.logback.classic.Level.INFO,
            "mapping=hello appset={}",
            null,
            new Object[] {value});
    // The encoder --log-format json writes with: U+2028, U+2029 and U+0085 were written raw.
    String json =
        new String(
            io.github.appsetmapper.logging.JsonLines.started(context).encode(event),
            StandardCharsets.UTF_8);
    assertNoBreaker(json);
    // Escaped, the message reads back as it was logged; other text is left as it is.
    assertThat(
            io.github.appsetmapper.json.JsonCodec.read(json) instanceof Map<?, ?> line
                ? line.get("formattedMessage")
                : null)
        .isEqualTo("mapping=hello appset=" + value);
    assertThat(json).contains("z\u00e9\ud83d\ude00");
    io.github.appsetmapper.logging.TextLayout text =
        new io.github.appsetmapper.logging.TextLayout();
    text.setContext(context);
    text.start();
    assertNoBreaker(text.doLayout(event));
  }

  /**
   * Half of a surrogate pair (an upstream's broken text quoted by an error) has no UTF-8 form: the
   * JSON line wrote it as '?'. It shows as its escape text, as in the text log, in the message and
   * in an exception's message; a whole pair is left as it is.
   */
  @Test
  void theJsonFormatShowsHalfAPairAsTheTextFormatDoes() throws Exception {
    LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
    String value = "a\ud83db \ude00c z\ud83d\ude00";
    ILoggingEvent event =
        new LoggingEvent(
            "test",
            context.getLogger("appset_mapper.getparams"),
            ch.qos.logback.classic.Level.ERROR,
            "mapping=hello error={}",
            new IllegalStateException("upstream said x\udc00y", new RuntimeException("\ud800")),
            new Object[] {value});
    String json =
        new String(
            io.github.appsetmapper.logging.JsonLines.started(context).encode(event),
            StandardCharsets.UTF_8);
    assertThat(json).doesNotContain("?");
    Map<?, ?> line = (Map<?, ?>) io.github.appsetmapper.json.JsonCodec.read(json);
    assertThat(line.get("formattedMessage"))
        .isEqualTo("mapping=hello error=a\\ud83db \\ude00c z\ud83d\ude00");
    assertThat(json).contains("upstream said x\\\\udc00y").contains("\\\\ud800");
    io.github.appsetmapper.logging.TextLayout text =
        new io.github.appsetmapper.logging.TextLayout();
    text.setContext(context);
    text.start();
    assertThat(text.doLayout(event)).contains("error=a\\ud83db \\ude00c z\ud83d\ude00");
  }

  @Test
  void theJsonFormatEscapesWhatTheTextFormatEscapes() throws Exception {
    LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
    // A right-to-left override and the other bidi controls were written raw: a reader saw the line
    // reversed after it. Every character the text escape changes, C0 aside (Logback's own).
    StringBuilder unsafe = new StringBuilder();
    for (char c = ' '; c < Character.MIN_SURROGATE; c++) {
      if (!io.github.appsetmapper.text.Printable.escape(String.valueOf(c))
          .equals(String.valueOf(c))) {
        unsafe.append(c);
      }
    }
    assertThat(unsafe.toString()).contains("\u202e", "\u2066", "\u007f", "\u0085", "\u2028");
    String value = "a\u202eb" + unsafe + "z\u00e9\ud83d\ude00";
    ILoggingEvent event =
        new LoggingEvent(
            "test",
            context.getLogger("appset_mapper.getparams"),
            ch.qos.logback.classic.Level.INFO,
            "mapping=hello appset={}",
            null,
            new Object[] {value});
    String json =
        new String(
            io.github.appsetmapper.logging.JsonLines.started(context).encode(event),
            StandardCharsets.UTF_8);
    for (char c : unsafe.toString().toCharArray()) {
      assertThat(json.indexOf(c)).as("U+%04X raw in the JSON line", (int) c).isEqualTo(-1);
    }
    assertThat(json).contains("a\\u202eb").contains("z\u00e9\ud83d\ude00");
    assertThat(
            io.github.appsetmapper.json.JsonCodec.read(json) instanceof Map<?, ?> line
                ? line.get("formattedMessage")
                : null)
        .isEqualTo("mapping=hello appset=" + value);
  }

  @Test
  void escapesEveryControlCharacter() {
    assertThat(LogText.escape("a\nb\rc\td\u0000e\u001bf\u007fg\u0085h\u2028i\u2029j"))
        .isEqualTo("a\\nb\\rc\\td\\u0000e\\u001bf\\u007fg\\u0085h\\u2028i\\u2029j");
    assertThat(LogText.escape("plain text, ünïcödé")).isEqualTo("plain text, ünïcödé");
  }
}
