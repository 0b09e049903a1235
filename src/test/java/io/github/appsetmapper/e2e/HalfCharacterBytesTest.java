package io.github.appsetmapper.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.PluginServer.Answer;
import io.github.appsetmapper.testing.StubUpstream;
import io.github.appsetmapper.testing.StubUpstream.Reply;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Half of a surrogate pair (an expression cutting an emoji in two) is refused wherever text becomes
 * bytes, with one line naming where: Java writes it as '?', so {@code #urlEncode} gave {@code %3F},
 * {@code #sha256} hashed '?', {@code #slug} gave "", and a URL called {@code /x/%3F}, another
 * resource, all answering 200 (an outside tester's finds). Where it is only shown (an explain
 * label) it is written as its escape, never as '?'.
 */
class HalfCharacterBytesTest {
  /** A whole emoji, then text: {@code substring(0, 1)} is its first half alone. */
  private static final String EMOJI = "\ud83d\ude00 ok";

  private static String function(String name, String call) {
    return """
        name: %s
        input:
          s: {default: "\\U0001F600 ok"}
        parameters:
          cut: "%s"
          whole: "%s"
        """
        .formatted(name, call.formatted("input.s.substring(0, 1)"), call.formatted("input.s"));
  }

  private static String wholeOnly(String name, String call) {
    return """
        name: %s
        input:
          s: {default: "\\U0001F600 ok"}
        parameters:
          whole: "%s"
        """
        .formatted(name, call.formatted("input.s"));
  }

  @Test
  void aFunctionThatEncodesTextRefusesHalfAPair(@TempDir Path dir) {
    try (PluginServer plugin =
        PluginServer.withYaml(
            dir,
            Map.of(),
            Map.of(),
            function("urlenc", "#urlEncode(%s)"),
            function("sha", "#sha256(%s)"),
            function("slugged", "#slug(%s, 50)"),
            wholeOnly("urlwhole", "#urlEncode(%s)"),
            wholeOnly("shawhole", "#sha256(%s)"))) {
      for (String[] each :
          new String[][] {{"urlenc", "#urlEncode"}, {"sha", "#sha256"}, {"slugged", "#slug"}}) {
        Answer answer = plugin.getparams(each[0], "{\"input\":{}}");
        assertThat(answer.status()).as(answer.body()).isEqualTo(500);
        assertThat(answer.body())
            .contains("parameters.cut")
            .contains(
                each[1]
                    + "'s text holds half of a surrogate pair (\\\\ud83d alone), which is not"
                    + " Unicode text")
            .doesNotContain("?");
      }
      // A whole emoji is text like any other.
      Answer url = plugin.getparams("urlwhole", "{\"input\":{}}");
      assertThat(url.status()).as(url.body()).isEqualTo(200);
      assertThat(url.body()).contains("\"whole\":\"%F0%9F%98%80%20ok\"");
      Answer sha = plugin.getparams("shawhole", "{\"input\":{}}");
      assertThat(sha.status()).as(sha.body()).isEqualTo(200);
      assertThat(sha.body())
          .contains("\"whole\":\"" + io.github.appsetmapper.expr.Functions.sha256(EMOJI) + "\"");
    }
  }

  private static String calling(String name, String request) {
    return """
        name: %s
        input:
          s: {required: true}
        vars: {up: {default: "http://unset.invalid"}}
        list:
          request:
            %s
          items: "$[*]"
        parameters: {id: item.id}
        """
        .formatted(name, request);
  }

  @Test
  void aRequestIsNotSentWithHalfAPairInItsUrlQueryOrBody(@TempDir Path dir) {
    try (StubUpstream stub = new StubUpstream();
        PluginServer plugin =
            PluginServer.withYaml(
                dir,
                Map.of("up", stub.url()),
                Map.of(),
                calling("path", "url: \"#{vars.up}/x/#{input.s.substring(0, 1)}\""),
                calling("pathwhole", "url: \"#{vars.up}/x/#{input.s}\""),
                calling(
                    "query",
                    "url: \"#{vars.up}/x\"\n    query: {q: \"#{input.s.substring(0, 1)}\"}"),
                calling(
                    "body",
                    "url: \"#{vars.up}/x\"\n    method: POST\n"
                        + "    body: {q: [\"#{input.s.substring(0, 1)}\"]}"))) {
      stub.otherwise(received -> Reply.json(200, "[{\"id\":1}]"));
      String input = "{\"input\":{\"parameters\":{\"s\":\"\\ud83d\\ude00 ok\"}}}";
      for (String[] each :
          new String[][] {
            {"path", "list.url"}, {"query", "list.query.q"}, {"body", "list.body.q[0]"}
          }) {
        Answer answer = plugin.getparams(each[0], input);
        // Made from the input: the caller's (400), as a header beyond Latin-1 is.
        assertThat(answer.status()).as(answer.body()).isEqualTo(400);
        assertThat(answer.body())
            .contains(each[1] + ": '")
            .contains(
                "gave a text that holds half of a surrogate pair (\\\\ud83d alone), which is not"
                    + " Unicode text")
            .doesNotContain("?");
      }
      assertThat(stub.calls()).isZero();
      // The whole emoji goes as it is written.
      Answer whole =
          plugin.getparams("pathwhole", "{\"input\":{\"parameters\":{\"s\":\"\\ud83d\\ude00\"}}}");
      assertThat(whole.status()).as(whole.body()).isEqualTo(200);
      assertThat(stub.received().get(0).rawUri()).isEqualTo("/x/%F0%9F%98%80");
    }
  }

  @Test
  void anExplainLabelShowsHalfAPairAsItsEscape(@TempDir Path dir) {
    String yaml =
        """
        name: labels
        vars: {up: {default: "http://unset.invalid"}}
        list:
          request: {url: "#{vars.up}/rows"}
          items: "$[*]"
        label: "item.name.substring(0, 1)"
        filter: "item.name == 'keep'"
        parameters: {id: item.name}
        """;
    try (StubUpstream stub = new StubUpstream();
        PluginServer plugin =
            PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of(), yaml)) {
      stub.on(
          "GET /rows", Reply.json(200, "[{\"name\":\"\\ud83d\\ude00 x\"},{\"name\":\"keep\"}]"));
      for (String format : new String[] {"text", "json"}) {
        Answer answer =
            plugin.send(
                "POST",
                "/mappings/labels/api/v1/getparams.explain?format=" + format,
                "{\"input\":{}}",
                "Bearer " + PluginServer.TOKEN,
                "application/json");
        assertThat(answer.status()).as(answer.body()).isEqualTo(200);
        String shown = format.equals("text") ? "\\ud83d" : "\\\\ud83d";
        assertThat(answer.body()).as(format).contains(shown).doesNotContain("?");
      }
    }
  }

  /**
   * One walk over a row checks both: a secret anywhere in the row is refused as one (502), even
   * when a parameter before it holds half a pair (500), as when each check walked the row alone.
   */
  @Test
  void aSecretInARowIsRefusedBeforeHalfAPairInIt(@TempDir Path dir) {
    String yaml =
        """
        name: both
        vars: {up: {default: "http://unset.invalid"}}
        secrets: {key: {env: BOTH_KEY}}
        list:
          request:
            url: "#{vars.up}/rows"
            headers: {X-Api-Key: "#{secret.key}"}
          items: "$[*]"
        parameters: {cut: "item.name.substring(0, 1)", note: item.note}
        """;
    try (StubUpstream stub = new StubUpstream();
        PluginServer plugin =
            PluginServer.withYaml(
                dir, Map.of("up", stub.url()), Map.of("BOTH_KEY", "echoed-key-7c1d9e"), yaml)) {
      stub.on(
          "GET /rows",
          Reply.json(200, "[{\"name\":\"\\ud83d\\ude00\",\"note\":\"echoed-key-7c1d9e\"}]"));
      Answer answer = plugin.getparams("both", "{\"input\":{}}");
      assertThat(answer.status()).as(answer.body()).isEqualTo(502);
      assertThat(answer.body())
          .contains("parameter 'note' of row 0 holds a secret value this server uses")
          .doesNotContain("echoed-key-7c1d9e");
    }
  }
}
