package io.github.appsetmapper.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.cli.CliTest.Result;
import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.PluginServer.Answer;
import io.github.appsetmapper.testing.StubUpstream;
import io.github.appsetmapper.testing.StubUpstream.Reply;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Text that carries upstream or input data reaches a terminal escaped, by the one escape (issue 21,
 * item 12): an upstream's ESC sequences, CR and line breaks are shown, never obeyed, in explain
 * text (served and {@code run --explain}), {@code run}'s error line, {@code validate}'s problem
 * lines and picocli's usage error.
 */
class EscapedLinesTest {
  /**
   * Clears the screen, returns to the line start, forges a line of its own, sends a C1 CSI and
   * reverses the text after it.
   */
  private static final String HOSTILE = "bad\u001b[2J\rok\nFORGED: all fine\u009b\u202e";

  private static final String SHOWN = "bad\\u001b[2J\\rok\\nFORGED: all fine\\u009b\\u202e";

  private static final String MAPPING =
      """
      name: hostile
      vars: {up: {default: "http://unset.invalid"}}
      list:
        request: {url: "#{vars.up}/rows"}
        items: "$[*]"
      filter: "item.name == 'keep'"
      parameters: {id: item.name, note: item.note}
      """;

  /** Two rows: one named by hostile text (explain shows its drop), one carrying it as a value. */
  private static Reply rows() {
    String json = io.github.appsetmapper.json.JsonCodec.write(HOSTILE);
    return Reply.json(200, "[{\"name\":" + json + "},{\"name\":\"keep\",\"note\":" + json + "}]");
  }

  private static void assertShown(String text) {
    assertThat(text)
        .doesNotContain("\u001b")
        .doesNotContain("\r")
        .doesNotContain("\u009b")
        .doesNotContain("\u202e")
        .doesNotContain("\nFORGED");
  }

  @Test
  void runsExplainTextAndErrorLineShowControlCharacters(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("hostile.yaml");
    Files.writeString(file, MAPPING);
    try (StubUpstream stub = new StubUpstream()) {
      stub.on("GET /rows", rows());
      Result explained =
          CliTest.run("run", file.toString(), "--var", "up=" + stub.url(), "--explain");
      assertThat(explained.exit()).as(explained.err()).isZero();
      assertShown(explained.out());
      assertThat(explained.out()).contains("dropped row 0 (name " + SHOWN + ")");

      // An upstream's message in an error line: its line breaks folded to spaces by the
      // redactor's excerpt, every other control character shown escaped.
      stub.on(
          "GET /rows",
          Reply.json(
              500, "{\"message\":" + io.github.appsetmapper.json.JsonCodec.write(HOSTILE) + "}"));
      Result failed = CliTest.run("run", file.toString(), "--var", "up=" + stub.url());
      assertThat(failed.exit()).as(failed.err()).isEqualTo(4);
      assertThat(failed.err().lines()).hasSize(1);
      assertShown(failed.err());
      assertThat(failed.err()).contains("bad\\u001b[2J ok FORGED: all fine\\u009b\\u202e)");
    }
  }

  @Test
  void servedExplainTextShowsControlCharacters(@TempDir Path dir) {
    try (StubUpstream stub = new StubUpstream();
        PluginServer plugin =
            PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of(), MAPPING)) {
      stub.on("GET /rows", rows());
      Answer text =
          plugin.send(
              "POST",
              "/mappings/hostile/api/v1/getparams.explain?format=text",
              "{\"input\":{\"parameters\":{}}}",
              "Bearer " + PluginServer.TOKEN,
              "application/json");
      assertThat(text.status()).as(text.body()).isEqualTo(200);
      assertShown(text.body());
      assertThat(text.body())
          .contains("dropped row 0 (name " + SHOWN + ")")
          .contains("note = \"bad")
          .contains("FORGED: all fine\\u009b\\u202e\"");
    }
  }

  @Test
  void problemLinesAndUsageErrorsShowControlCharacters(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("broken.yaml");
    Files.writeString(
        file,
        """
        name: broken
        "a\\e[2Jb\\rc": 1
        parameters: {x: "'y'"}
        """);
    Result problems = CliTest.run("validate", file.toString());
    assertThat(problems.exit()).isEqualTo(1);
    assertThat(problems.err())
        .doesNotContain("\u001b")
        .doesNotContain("\r")
        .contains("a\\u001b[2Jb\\rc");

    Result usage = CliTest.run("validate", file.toString(), "--x\u001b[2J\nFORGED");
    assertThat(usage.exit()).isEqualTo(2);
    assertThat(usage.err())
        .doesNotContain("\u001b")
        .doesNotContain("\nFORGED")
        .contains("--x\\u001b[2J\\nFORGED");
  }
}
