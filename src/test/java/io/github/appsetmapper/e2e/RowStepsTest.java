package io.github.appsetmapper.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.PluginServer.Answer;
import io.github.appsetmapper.testing.StubUpstream;
import io.github.appsetmapper.testing.StubUpstream.Reply;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code let}, {@code explode} and {@code label} as the issue-22 jobs use them, over real HTTP: a
 * let computed once per row feeding the early filter and the parameters, a spent operation bound
 * that names the costly part and the way out, a flag file exploded without a second request, and
 * rows named by their label in explain and in error messages.
 */
class RowStepsTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  private static Answer explain(PluginServer plugin, String mapping) {
    return plugin.send(
        "POST",
        "/mappings/" + mapping + "/api/v1/getparams.explain?format=text",
        "{}",
        "Bearer " + PluginServer.TOKEN,
        "application/json");
  }

  /** A repository with {@code count} tags 1.0.0, 1.0.1 ... and the release named. */
  private static String tags(int count, String release) {
    List<String> tags = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      tags.add("\"1.0." + i + "\"");
    }
    tags.add("\"" + release + "\"");
    return "[" + String.join(",", tags) + "]";
  }

  // ---- let ----

  private static final String NEWEST_REPEATED =
      """
      name: newest
      vars: {up: {default: "http://unset.invalid"}}
      list:
        request: {url: "#{vars.up}/repos"}
        items: "$[*]"
      filter: "item.tags.?[#this.startsWith('1.') and #this.length() > 2 and !#this.contains('-')].size() > 0"
      parameters:
        name: item.name
      """;

  private static final String NEWEST_WITH_LET =
      """
      name: newest
      vars: {up: {default: "http://unset.invalid"}}
      list:
        request: {url: "#{vars.up}/repos"}
        items: "$[*]"
      let:
        ones: "item.tags.?[#this.startsWith('1.')]"
        sized: "ones.?[#this.length() > 2]"
        releases: "sized.?[!#this.contains('-')]"
        newest: "#semverMax(releases)"
      label: item.name
      filter: "newest != null"
      sortBy: newest
      parameters:
        name: item.name
        newest: newest
        count: releases.size()
      """;

  @Test
  void aSpentOperationBoundNamesTheCostlyPartAndTheWayOut() throws Exception {
    try (StubUpstream stub = new StubUpstream()) {
      stub.on(
          "GET /repos",
          Reply.json(200, "[{\"name\": \"web\", \"tags\": " + tags(1700, "1.4.0") + "}]"));
      try (PluginServer plugin =
          PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of(), NEWEST_REPEATED)) {
        Answer answer = plugin.getparams("newest", "{}");
        assertThat(answer.status()).as(answer.body()).isEqualTo(500);
        assertThat(answer.body())
            .contains("filter 'item.tags.?[")
            .contains("failed on row 0: ")
            .contains("10,000")
            .contains("operations")
            .contains("the costly part: 'item.tags.?[#this.startsWith('1.') and #this.length()")
            .contains("with a let");
      }
    }
  }

  @Test
  void letsSplitTheWorkOncePerRowAndFeedFilterSortAndParameters() throws Exception {
    try (StubUpstream stub = new StubUpstream()) {
      stub.on(
          "GET /repos",
          Reply.json(
              200,
              "[{\"name\": \"web\", \"tags\": "
                  + tags(1700, "1.4.0")
                  + "}, {\"name\": \"api\", \"tags\": [\"1.2.0\", \"1.10.0\", \"1.11.0-rc.1\"]},"
                  + " {\"name\": \"old\", \"tags\": [\"0.9.0\"]}]"));
      try (PluginServer plugin =
          PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of(), NEWEST_WITH_LET)) {
        Answer answer = plugin.getparams("newest", "{}");
        assertThat(answer.status()).as(answer.body()).isEqualTo(200);
        assertThat(answer.body())
            .isEqualTo(
                "{\"output\":{\"parameters\":["
                    + "{\"name\":\"api\",\"newest\":\"1.10.0\",\"count\":\"2\"},"
                    + "{\"name\":\"web\",\"newest\":\"1.4.0\",\"count\":\"1701\"}]}}");
        String explained = explain(plugin, "newest").body();
        assertThat(explained).contains("dropped row 2 (old): 'newest != null' is not true");
      }
    }
  }

  private static final String HEALTH =
      """
      name: health
      vars: {up: {default: "http://unset.invalid"}}
      list:
        request: {url: "#{vars.up}/services"}
        items: "$[*]"
      let:
        team: "item.owner.toLowerCase()"
        up: "health.status == 'UP'"
      enrich:
        health:
          request: {url: "#{vars.up}/health/#{team}/#{item.name}"}
      filter: "team != 'retired' and up"
      parameters:
        name: item.name
        team: team
        up: up
      keepTypes: true
      """;

  @Test
  void aLetThatReadsNoEnrichResultFeedsTheEarlyFilterSoNoCallIsMadeForWhatItDrops() {
    try (StubUpstream stub = new StubUpstream()) {
      stub.on(
          "GET /services",
          Reply.json(
              200,
              "[{\"name\": \"web\", \"owner\": \"Shop\"}, {\"name\": \"gone\", \"owner\": \"RETIRED\"},"
                  + " {\"name\": \"api\", \"owner\": \"shop\"}]"));
      stub.on("GET /health/shop/web", Reply.json(200, "{\"status\": \"UP\"}"));
      stub.on("GET /health/shop/api", Reply.json(200, "{\"status\": \"DOWN\"}"));
      try (PluginServer plugin =
          PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of(), HEALTH)) {
        Answer answer = plugin.getparams("health", "{}");
        assertThat(answer.status()).as(answer.body()).isEqualTo(200);
        assertThat(answer.body())
            .isEqualTo(
                "{\"output\":{\"parameters\":[{\"name\":\"web\",\"team\":\"shop\",\"up\":true}]}}");
        assertThat(stub.received())
            .extracting(r -> r.rawUri())
            .doesNotContain("/health/retired/gone");
        assertThat(stub.calls()).isEqualTo(3);
      }
    }
  }

  @Test
  void aLetThatFailsFailsTheAnswerNamingItAndTheRowByItsLabel() {
    String mapping =
        """
        name: fails
        vars: {up: {default: "http://unset.invalid"}}
        list:
          request: {url: "#{vars.up}/repos"}
          items: "$[*]"
        label: item.name
        let:
          major: "#toNumber(item.version.split('[.]')[0])"
        parameters:
          major: major
        """;
    try (StubUpstream stub = new StubUpstream()) {
      stub.on(
          "GET /repos",
          Reply.json(
              200,
              "[{\"name\": \"web\", \"version\": \"2.1\"}, {\"name\": \"meta-web\", \"version\":"
                  + " \"next.1\"}]"));
      try (PluginServer plugin =
          PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of(), mapping)) {
        Answer answer = plugin.getparams("fails", "{}");
        assertThat(answer.status()).isEqualTo(500);
        assertThat(answer.body())
            .contains(
                "let.major '#toNumber(item.version.split('[.]')[0])' failed on row 1 (meta-web): ")
            .endsWith("failed on row 1 (meta-web): #toNumber: 'next' is not a number\"}")
            .doesNotContain("problem occurred");
      }
    }
  }

  // ---- explode ----

  private static final String FLAGS =
      """
      name: flags
      vars: {up: {default: "http://unset.invalid"}}
      list:
        request: {url: "#{vars.up}/flags.json"}
        items: "$.services[*]"
      explode: {in: item.flags, as: flag}
      label: item.name
      filter: "flag.enabled"
      parameters:
        service: item.name
        flag: flag.name
      """;

  /**
   * Explain's parameters list names each exploded row by its source row and element, as its drop
   * messages do ({@code row 0[1]}), never two rows under one number; JSON keeps {@code row} (the
   * source row) and adds {@code element}.
   */
  @Test
  void explainNumbersExplodedRowsDistinctly() throws Exception {
    try (StubUpstream stub = new StubUpstream()) {
      stub.on(
          "GET /flags.json",
          Reply.json(
              200,
              """
              {"services": [
                {"name": "web", "flags": [{"name": "dark", "enabled": true}, {"name": "beta", "enabled": true}]},
                {"name": "db", "flags": [{"name": "replica", "enabled": true}]}]}
              """));
      try (PluginServer plugin =
          PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of(), FLAGS)) {
        String text = explain(plugin, "flags").body();
        assertThat(text)
            .contains("  row 0[0]:\n")
            .contains("  row 0[1]:\n")
            .contains("  row 1[0]:\n");
        Answer json =
            plugin.send(
                "POST",
                "/mappings/flags/api/v1/getparams.explain",
                "{}",
                "Bearer " + PluginServer.TOKEN,
                null);
        java.util.List<?> rows =
            (java.util.List<?>)
                ((Map<?, ?>) io.github.appsetmapper.json.JsonCodec.read(json.body())).get("rows");
        assertThat(rows)
            .extracting(r -> ((Map<?, ?>) r).get("row") + "" + ((Map<?, ?>) r).get("element"))
            .containsExactly("0[0]", "0[1]", "1[0]");
      }
    }
  }

  @Test
  void explodeMakesOneRowPerElementWithoutASecondRequest() throws Exception {
    try (StubUpstream stub = new StubUpstream()) {
      stub.on(
          "GET /flags.json",
          Reply.json(
              200,
              """
              {"services": [
                {"name": "web", "flags": [{"name": "dark", "enabled": true}, {"name": "beta", "enabled": false}]},
                {"name": "api", "flags": []},
                {"name": "db", "flags": [{"name": "replica", "enabled": true}]}]}
              """));
      try (PluginServer plugin =
          PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of(), FLAGS)) {
        Answer answer = plugin.getparams("flags", "{}");
        assertThat(answer.status()).as(answer.body()).isEqualTo(200);
        assertThat(answer.body())
            .isEqualTo(
                "{\"output\":{\"parameters\":["
                    + "{\"service\":\"web\",\"flag\":\"dark\"},"
                    + "{\"service\":\"db\",\"flag\":\"replica\"}]}}");
        assertThat(stub.calls()).isEqualTo(1);
        String explained = explain(plugin, "flags").body();
        assertThat(explained)
            .contains("dropped row 1 (api): explode: the list is empty")
            .contains("dropped row 0 (web [1]): 'flag.enabled' is not true");
      }
    }
  }

  @Test
  void aMissingListIsA502UnlessOnMissingSaysOtherwiseAndANonListIsA502() {
    try (StubUpstream stub = new StubUpstream()) {
      stub.on(
          "GET /flags.json",
          Reply.json(
              200,
              "{\"services\": [{\"name\": \"web\", \"flags\": [{\"name\": \"dark\", \"enabled\":"
                  + " true}]}, {\"name\": \"api\"}]}"));
      try (PluginServer plugin =
          PluginServer.withYaml(
              dir,
              Map.of("up", stub.url()),
              Map.of(),
              FLAGS,
              FLAGS
                  .replace("name: flags", "name: flags-drop")
                  .replace("as: flag}", "as: flag, onMissing: drop}"))) {
        Answer missing = plugin.getparams("flags", "{}");
        assertThat(missing.status()).isEqualTo(502);
        assertThat(missing.body())
            .contains("explode 'in: item.flags' is null or missing on row 1 (api)")
            .contains("onMissing: drop");
        Answer dropped = plugin.getparams("flags-drop", "{}");
        assertThat(dropped.status()).as(dropped.body()).isEqualTo(200);
        assertThat(dropped.body())
            .isEqualTo("{\"output\":{\"parameters\":[{\"service\":\"web\",\"flag\":\"dark\"}]}}");
      }
    }
    try (StubUpstream stub = new StubUpstream()) {
      stub.on(
          "GET /flags.json",
          Reply.json(200, "{\"services\": [{\"name\": \"web\", \"flags\": {\"dark\": true}}]}"));
      try (PluginServer plugin =
          PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of(), FLAGS)) {
        Answer notAList = plugin.getparams("flags", "{}");
        assertThat(notAList.status()).isEqualTo(502);
        assertThat(notAList.body())
            .contains("explode 'in: item.flags' needs a list, got an object on row 0 (web)");
      }
    }
  }

  @Test
  void explodedRowsCountAgainstTheMemoryBudgetAsListRowsDo() {
    StringBuilder flags = new StringBuilder();
    for (int i = 0; i < 60_000; i++) {
      flags.append(i == 0 ? "" : ",").append(i);
    }
    try (StubUpstream stub = new StubUpstream()) {
      stub.on(
          "GET /flags.json",
          Reply.json(200, "{\"services\": [{\"name\": \"web\", \"flags\": [" + flags + "]}]}"));
      try (PluginServer plugin =
          PluginServer.withOptions(dir, Map.of("up", stub.url()), null, 6L * 1024 * 1024, FLAGS)) {
        Answer answer = plugin.getparams("flags", "{}");
        assertThat(answer.status()).as(answer.body()).isEqualTo(503);
        assertThat(answer.body()).contains("explode").contains("60000 rows");
      }
    }
  }

  // ---- label ----

  @Test
  void aLabelNamesRowsInExplainEscapedRedactedAndShortened() throws Exception {
    String mapping =
        """
        name: pulls
        vars: {up: {default: "http://unset.invalid"}}
        secrets: {token: {env: GITEA_TOKEN}}
        list:
          request:
            url: "#{vars.up}/pulls"
            auth: {bearer: {secret: token}}
          items: "$[*]"
        label: "item.number + ' ' + item.title"
        filter: "item.draft == false"
        parameters:
          number: item.number
        """;
    String secret = "gitea-secret-4d9b7c";
    try (StubUpstream stub = new StubUpstream()) {
      stub.on(
          "GET /pulls",
          Reply.json(
              200,
              "[{\"id\": 9001, \"number\": 3, \"title\": \"meta-web\", \"draft\": true},"
                  + " {\"id\": 9002, \"number\": 4, \"title\": \"line\\nbreak "
                  + secret
                  + " "
                  + "x".repeat(200)
                  + "\", \"draft\": true}, {\"id\": 9003, \"number\": 5, \"title\": \"ok\","
                  + " \"draft\": false}]"));
      try (PluginServer plugin =
          PluginServer.withYaml(
              dir, Map.of("up", stub.url()), Map.of("GITEA_TOKEN", secret), mapping)) {
        Answer answer = plugin.getparams("pulls", "{}");
        assertThat(answer.status()).as(answer.body()).isEqualTo(200);
        String text = explain(plugin, "pulls").body();
        assertThat(text).contains("dropped row 0 (3 meta-web): 'item.draft == false' is not true");
        String line =
            text.lines().filter(l -> l.contains("dropped row 1")).findFirst().orElseThrow();
        assertThat(line)
            .doesNotContain(secret)
            .contains("4 line\\nbreak ")
            .contains("...")
            .hasSizeLessThan(200);
        JsonNode report =
            JSON.readTree(
                plugin
                    .send(
                        "POST",
                        "/mappings/pulls/api/v1/getparams.explain",
                        "{}",
                        "Bearer " + PluginServer.TOKEN,
                        "application/json")
                    .body());
        assertThat(report.toString()).doesNotContain(secret);
      }
    }
  }
}
