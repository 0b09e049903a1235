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
 * {@code #flatten}, {@code #first}, {@code #isList}, {@code #toNumber} and {@code #semverMatches}
 * over real HTTP: what they give, and a bad argument failing the row with a message naming the
 * function (never a Java type).
 */
class ListFunctionsTest {
  @TempDir Path dir;

  private static final String ARTIFACTS =
      """
      name: artifacts
      vars: {up: {default: "http://unset.invalid"}}
      list:
        request: {url: "#{vars.up}/artifacts"}
        items: "$[*]"
      keepTypes: true
      parameters:
        tags: "#flatten(item.artifacts.![tags])"
        first: "#first(#flatten(item.artifacts.![tags]))"
        none: "#first({})"
        isList: "#isList(item.artifacts)"
        isText: "#isList(item.name)"
        size: "#toNumber(item.size)"
        half: "#toNumber(item.size) / 2"
        ones: "#flatten(item.artifacts.![tags]).?[#semverMatches(#this, '^1.2')]"
      """;

  @Test
  void listAndNumberFunctionsGiveWhatTheDocsSay() {
    try (StubUpstream stub = new StubUpstream()) {
      stub.on(
          "GET /artifacts",
          Reply.json(
              200,
              """
              [{"name": "web", "size": "12.50",
                "artifacts": [{"tags": ["1.2.0", "latest"]}, {"tags": ["1.3.1", "1.2.0-rc.1"]},
                              {"tags": ["2.0.0"]}]}]
              """));
      try (PluginServer plugin =
          PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of(), ARTIFACTS)) {
        Answer answer = plugin.getparams("artifacts", "{}");
        assertThat(answer.status()).as(answer.body()).isEqualTo(200);
        assertThat(answer.body())
            .isEqualTo(
                "{\"output\":{\"parameters\":[{"
                    + "\"tags\":[\"1.2.0\",\"latest\",\"1.3.1\",\"1.2.0-rc.1\",\"2.0.0\"],"
                    + "\"first\":\"1.2.0\",\"none\":null,\"isList\":true,\"isText\":false,"
                    + "\"size\":12.50,\"half\":6.25,"
                    + "\"ones\":[\"1.2.0\",\"1.3.1\"]}]}}");
      }
    }
  }

  private static String matches(String version, String constraint) {
    return "\"#semverMatches('" + version + "', '" + constraint + "')\"";
  }

  @Test
  void semverMatchesFollowsTheConstraintSyntaxHelmUses() {
    String[][] cases = {
      {"1.2.3", "^1.2", "true"},
      {"1.9.0", "^1.2", "true"},
      {"2.0.0", "^1.2", "false"},
      {"0.2.5", "^0.2.3", "true"},
      {"0.3.0", "^0.2.3", "false"},
      {"0.0.3", "^0.0.3", "true"},
      {"0.0.4", "^0.0.3", "false"},
      {"1.2.9", "~1.2.3", "true"},
      {"1.3.0", "~1.2.3", "false"},
      {"1.9.9", "~1", "true"},
      {"1.5.0", ">=1.0 <2.0", "true"},
      {"2.0.0", ">=1.0, <2.0", "false"},
      {"1.7.3", "1.x", "true"},
      {"2.0.0", "1.x", "false"},
      {"1.2.7", "1.2.*", "true"},
      {"3.1.0", "1.x || >=3", "true"},
      {"2.1.0", "1.x || >=3", "false"},
      {"1.4.0", "1.2 - 1.4.5", "true"},
      {"1.4.6", "1.2 - 1.4.5", "false"},
      {"5.0.0", "*", "true"},
      {"1.2.3", "=1.2.3", "true"},
      {"1.2.4", "!=1.2.3", "true"},
      {"1.2.3", "!=1.2.3", "false"},
      {"v1.2.3", "1.2.3", "true"},
      {"1.3.0-rc.1", "^1.2", "false"},
      {"1.3.0-rc.1", ">=1.3.0-0", "true"},
      {"2.1.0", "<=2", "true"},
      {"3.0.0", "<=2", "false"},
      {"1.2.0", ">1.1", "true"},
      {"1.1.9", ">1.1", "false"},
      {"latest", "*", "false"},
    };
    StringBuilder parameters = new StringBuilder();
    StringBuilder expected = new StringBuilder();
    for (int i = 0; i < cases.length; i++) {
      parameters
          .append("  c")
          .append(i)
          .append(": ")
          .append(matches(cases[i][0], cases[i][1]))
          .append('\n');
      expected.append(i == 0 ? "" : ",").append("\"c").append(i).append("\":").append(cases[i][2]);
    }
    String mapping = "name: semver\nkeepTypes: true\nparameters:\n" + parameters;
    try (PluginServer plugin = PluginServer.withYaml(dir, Map.of(), Map.of(), mapping)) {
      Answer answer = plugin.getparams("semver", "{}");
      assertThat(answer.status()).as(answer.body()).isEqualTo(200);
      assertThat(answer.body()).isEqualTo("{\"output\":{\"parameters\":[{" + expected + "}]}}");
    }
  }

  private static final String BAD =
      """
      name: bad%d
      vars: {up: {default: "http://unset.invalid"}}
      input: {constraint: {}}
      list:
        request: {url: "#{vars.up}/artifacts"}
        items: "$[*]"
      parameters:
        value: "%s"
      """;

  @Test
  void aBadArgumentFailsTheRowNamingTheFunctionNeverAJavaType() {
    String[][] cases = {
      {"#flatten(item.name)", "#flatten needs a list, got a text"},
      {"#first(item.meta)", "#first needs a list, got a map"},
      {"#toNumber(item.meta)", "#toNumber needs a text argument, got a map"},
      {"#toNumber(item.name)", "#toNumber: 'web' is not a number"},
      {"#toNumber('\u0661\u0662')", "#toNumber: '\u0661\u0662' is not a number"},
      {"#semverMatches(item.size, '^1')", "#semverMatches needs a text version, got a number"},
      {"#semverMatches('1.0.0', input.constraint)", "#semverMatches: invalid constraint '>=> 1'"},
      // A constraint the data lacks: the row fails, never a "no match" that empties the answer.
      {"#semverMatches('1.0.0', item.constraint)", "#semverMatches: the constraint is null"},
      {"#semverMatches(item.version, '^1')", "#semverMatches: the version is null"},
      // SpEL's own conversion of an argument named Java types (an outside tester's find).
      {"#entries(item.name)", "cannot convert from text to map"},
      {"#upper(item.meta)", "cannot convert from map to text"},
      {"#shortSha(item.name, item.name)", "cannot convert from text to number"},
    };
    try (StubUpstream stub = new StubUpstream()) {
      stub.on(
          "GET /artifacts",
          Reply.json(200, "[{\"name\": \"web\", \"size\": 3, \"meta\": {\"a\": 1}}]"));
      String[] mappings = new String[cases.length];
      for (int i = 0; i < cases.length; i++) {
        mappings[i] = BAD.formatted(i, cases[i][0]);
      }
      try (PluginServer plugin =
          PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of(), mappings)) {
        for (int i = 0; i < cases.length; i++) {
          String[] c = cases[i];
          Answer answer =
              plugin.getparams(
                  "bad" + i, "{\"input\": {\"parameters\": {\"constraint\": \">=> 1\"}}}");
          assertThat(answer.status()).as(c[0]).isEqualTo(500);
          assertThat(answer.body())
              .as(c[0])
              .contains("failed on row 0")
              .contains(c[1])
              .doesNotContain("problem occurred")
              .doesNotContain("java.")
              .doesNotContain("LinkedHashMap")
              .doesNotContain("Integer");
        }
      }
    }
  }
}
