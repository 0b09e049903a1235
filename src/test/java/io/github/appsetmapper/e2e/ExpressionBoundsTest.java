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
 * Expressions over hostile upstream text and input stay bounded: regexes run in linear time (RE2),
 * strings an expression builds are capped, and evaluation counts against the mapping's deadline.
 * Each case used to run for minutes, or kill the JVM.
 */
class ExpressionBoundsTest {
  private static String mapping(String name, String extra, String parameter) {
    return "name: "
        + name
        + "\n"
        + extra
        + "input:\n  re: {default: 'x'}\nvars:\n  up: {default: 'http://unset.invalid'}\n"
        + "list:\n  request: {url: \"#{vars.up}/items\"}\n  items: \"$[*]\"\n"
        + "parameters:\n  value: \""
        + parameter
        + "\"\n";
  }

  private static final String TITLE = "a,".repeat(20);

  @Test
  void aBacktrackingRegexOnAnUpstreamTitleAnswersPromptly(@TempDir Path dir) {
    try (StubUpstream stub = new StubUpstream()) {
      stub.on("GET /items", Reply.json(200, "[{\"title\":\"" + TITLE + "\"}]"));
      try (PluginServer plugin =
          PluginServer.withYaml(
              dir,
              Map.of("up", stub.url()),
              Map.of(),
              mapping("matches", "", "item.title.matches('(.*,){12}x')"),
              mapping("replace-all", "", "item.title.replaceAll('(.*,){12}x', 'y').length()"),
              mapping("split", "", "item.title.split('(.*,){12}x')[0].length()"),
              mapping("from-input", "", "item.title.matches(input.re)"))) {
        assertThat(plugin.getparams("matches", "{}").body())
            .isEqualTo("{\"output\":{\"parameters\":[{\"value\":\"false\"}]}}");
        assertThat(plugin.getparams("replace-all", "{}").body())
            .isEqualTo("{\"output\":{\"parameters\":[{\"value\":\"40\"}]}}");
        assertThat(plugin.getparams("split", "{}").body())
            .isEqualTo("{\"output\":{\"parameters\":[{\"value\":\"40\"}]}}");
        // A caller's regex is RE2 too: linear, and refused cleanly when it is not RE2.
        assertThat(
                plugin
                    .getparams("from-input", "{\"input\":{\"parameters\":{\"re\":\"(.*,){12}x\"}}}")
                    .body())
            .isEqualTo("{\"output\":{\"parameters\":[{\"value\":\"false\"}]}}");
        Answer lookahead =
            plugin.getparams("from-input", "{\"input\":{\"parameters\":{\"re\":\"(?=a)a\"}}}");
        assertThat(lookahead.status()).isEqualTo(500);
        assertThat(lookahead.body())
            .isEqualTo(
                "{\"error\":\"mapping 'from-input': parameters.value 'item.title.matches(input.re)'"
                    + " failed on row 0: matches: invalid pattern '(?=a)a': the lookahead (?=...)"
                    + " is not supported: patterns are RE2 (linear time), without lookaround or"
                    + " backreferences\"}");
      }
    }
  }

  @Test
  void nineChainedReplacesFailTheRowAndTheServerLives(@TempDir Path dir) {
    String nine = "item.title" + ".replace(',', ',,,,,,,,,,')".repeat(9);
    try (StubUpstream stub = new StubUpstream()) {
      stub.on("GET /items", Reply.json(200, "[{\"title\":\"" + TITLE + "\"}]"));
      try (PluginServer plugin =
          PluginServer.withYaml(
              dir,
              Map.of("up", stub.url()),
              Map.of(),
              mapping("replaces", "", nine),
              mapping("concat", "", "item.title.concat(item.title)"),
              mapping("list", "", "{item.title, item.title}.toString().length()"))) {
        Answer answer = plugin.getparams("replaces", "{}");
        assertThat(answer.status()).isEqualTo(500);
        assertThat(answer.body())
            .isEqualTo(
                "{\"error\":\"mapping 'replaces': parameters.value '"
                    + nine
                    + "' failed on row 0: replace would build a string of 2000020 characters,"
                    + " more than 1048576 allowed\"}");
        // The JVM is alive and answers the next call.
        assertThat(plugin.getparams("list", "{}").body())
            .isEqualTo("{\"output\":{\"parameters\":[{\"value\":\"84\"}]}}");
        assertThat(plugin.getparams("concat", "{}").status()).isEqualTo(200);
      }
    }
  }

  /**
   * Methods whose JDK version is quadratic: containsAll on two 80,000-element lists (the red team's
   * 125,000 took 56 s against a 25 s deadline), and a string search whose pattern almost matches
   * everywhere (10^12 steps). Both now answer; before, the deadline (5 s) ran out.
   */
  @Test
  void quadraticMethodsRunInLinearTime(@TempDir Path dir) {
    StringBuilder a = new StringBuilder("[");
    for (int i = 0; i < 80_000; i++) {
      a.append(i == 0 ? "" : ",").append("\"tag-").append(i).append('"');
    }
    String list = a.append("]").toString();
    String text = "a".repeat(2_000_000);
    String pattern = "a".repeat(1_000_000) + "b";
    try (StubUpstream stub = new StubUpstream()) {
      stub.on(
          "GET /items",
          Reply.json(
              200,
              "[{\"a\":"
                  + list
                  + ",\"b\":"
                  + list.replace("\"tag-79999\"", "\"tag-missing\"")
                  + ",\"text\":\""
                  + text
                  + "\",\"pattern\":\""
                  + pattern
                  + "\"}]"));
      String deadline = "deadline: 5s\n";
      try (PluginServer plugin =
          PluginServer.withYaml(
              dir,
              Map.of("up", stub.url()),
              Map.of(),
              mapping(
                  "all", deadline, "item.a.containsAll(item.b) + ' ' + item.a.containsAll(item.a)"),
              mapping(
                  "search",
                  deadline,
                  "item.text.contains(item.pattern) + ' ' + item.text.indexOf(item.pattern) + ' '"
                      + " + item.text.lastIndexOf(item.pattern) + ' '"
                      + " + item.text.replace(item.pattern, 'x').length()"))) {
        assertThat(plugin.getparams("all", "{}").body())
            .isEqualTo("{\"output\":{\"parameters\":[{\"value\":\"false true\"}]}}");
        assertThat(plugin.getparams("search", "{}").body())
            .isEqualTo("{\"output\":{\"parameters\":[{\"value\":\"false -1 -1 2000000\"}]}}");
      }
    }
  }

  @Test
  void whatAnAllowlistedMethodThrowsFailsTheRowNamingItNotAsAnInternalError(@TempDir Path dir) {
    try (StubUpstream stub = new StubUpstream()) {
      stub.on("GET /items", Reply.json(200, "[{\"title\":\"abc\",\"tags\":[1,2,3]}]"));
      try (PluginServer plugin =
          PluginServer.withYaml(
              dir,
              Map.of("up", stub.url()),
              Map.of(),
              mapping("get", "", "item.tags.get(9)"),
              mapping("substring", "", "item.title.substring(5)"),
              mapping("contains", "", "item.title.startsWith(item.missing)"))) {
        assertThat(plugin.getparams("get", "{}").body())
            .isEqualTo(
                "{\"error\":\"mapping 'get': parameters.value 'item.tags.get(9)' failed on row 0:"
                    + " IndexOutOfBoundsException: Index 9 out of bounds for length 3\"}");
        // The JDK's own message, whichever JDK runs the tests (17: "begin 5, end 3, length 3";
        // 25: "Range [5, 3) out of bounds for length 3").
        assertThat(plugin.getparams("substring", "{}").body())
            .isEqualTo(
                "{\"error\":\"mapping 'substring': parameters.value 'item.title.substring(5)'"
                    + " failed on row 0: StringIndexOutOfBoundsException: "
                    + jdkMessage(() -> "abc".substring(5))
                    + "\"}");
        Answer contains = plugin.getparams("contains", "{}");
        assertThat(contains.status()).isEqualTo(500);
        assertThat(contains.body())
            .endsWith("failed on row 0: a value the expression needs is null\"}");
      }
    }
  }

  @Test
  void evaluationCountsAgainstTheDeadline(@TempDir Path dir) {
    StringBuilder items = new StringBuilder("[");
    for (int i = 0; i < 200; i++) {
      items.append(i == 0 ? "" : ",").append("\"").append("ab".repeat(5000)).append("\"");
    }
    items.append("]");
    try (StubUpstream stub = new StubUpstream()) {
      stub.on("GET /items", Reply.json(200, "{\"all\":" + items + "}"));
      String slow =
          """
          name: slow
          deadline: 1s
          vars:
            up: {default: 'http://unset.invalid'}
          enrich:
            all:
              request: {url: "#{vars.up}/items"}
              select: "$.all"
          parameters:
            hits: "all.?[#this.matches('.*(((a|b){10}){10}){10}c')].size()"
          """;
      try (PluginServer plugin =
          PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of(), slow)) {
        Answer answer = plugin.getparams("slow", "{}");
        assertThat(answer.status()).as(answer.body()).isEqualTo(504);
        assertThat(answer.body()).startsWith("{\"error\":\"mapping 'slow': deadline 1s exceeded");
      }
    }
  }

  private static String jdkMessage(Runnable failing) {
    try {
      failing.run();
    } catch (RuntimeException e) {
      return e.getMessage();
    }
    throw new AssertionError("expected the JDK to throw");
  }
}
