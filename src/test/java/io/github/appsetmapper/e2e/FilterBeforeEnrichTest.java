package io.github.appsetmapper.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.PluginServer.Answer;
import io.github.appsetmapper.testing.StubUpstream;
import io.github.appsetmapper.testing.StubUpstream.Reply;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A filter, or the leading parts of an {@code and}, that reads no enrich result runs before enrich:
 * the answer is the one the filter gave after enrich, and no call is made for the rows it drops.
 * The stub counts the calls saved.
 */
class FilterBeforeEnrichTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;
  private StubUpstream stub;

  @BeforeEach
  void start() {
    stub = new StubUpstream();
    StringBuilder rows = new StringBuilder("[");
    for (int i = 1; i <= 10; i++) {
      rows.append(i > 1 ? "," : "")
          .append("{\"id\":")
          .append(i)
          .append(",\"name\":\"svc-")
          .append(i)
          .append("\",\"team\":\"")
          .append(i % 2 == 0 ? "core" : "edge")
          .append("\"}");
    }
    stub.on("GET /rows", Reply.json(200, rows.append("]").toString()));
    stub.otherwise(
        r -> {
          String id = r.rawUri().substring(r.rawUri().lastIndexOf('/') + 1);
          return Reply.json(200, "{\"size\":" + id + ",\"ok\":" + (Integer.parseInt(id) > 3) + "}");
        });
  }

  @AfterEach
  void stop() {
    stub.close();
  }

  private static String mapping(String filter, String enrich) {
    return """
        name: m
        concurrency: 4
        vars: {up: {default: "http://unset.invalid"}}
        list:
          request: {url: "#{vars.up}/rows"}
          items: "$[*]"
        enrich:
        %s
        filter: "%s"
        parameters:
          id: item.id
        """
        .formatted(enrich.indent(2).stripTrailing(), filter);
  }

  private static final String ONE_STEP =
      """
      size:
        request: {url: "#{vars.up}/size/#{item.id}"}
        select: "$.size"
      """;

  private static final String TWO_STEPS =
      """
      size:
        request: {url: "#{vars.up}/size/#{item.id}"}
        select: "$.size"
      health:
        request: {url: "#{vars.up}/health/#{item.id}"}
        select: "$.ok"
      """;

  private List<String> paths(String prefix) {
    return stub.received().stream()
        .map(StubUpstream.Received::rawUri)
        .filter(u -> u.startsWith(prefix))
        .sorted()
        .toList();
  }

  private Answer run(String yaml) {
    try (PluginServer plugin =
        PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of(), yaml)) {
      return plugin.getparams("m", "{}");
    }
  }

  private JsonNode explain(String yaml) throws Exception {
    try (PluginServer plugin =
        PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of(), yaml)) {
      Answer answer =
          plugin.send(
              "POST",
              "/mappings/m/api/v1/getparams.explain",
              "{}",
              "Bearer " + PluginServer.TOKEN,
              "application/json");
      assertThat(answer.status()).as(answer.body()).isEqualTo(200);
      return JSON.readTree(answer.body());
    }
  }

  private static String ids(int... ids) {
    StringBuilder out = new StringBuilder("{\"output\":{\"parameters\":[");
    for (int i = 0; i < ids.length; i++) {
      out.append(i > 0 ? "," : "").append("{\"id\":\"").append(ids[i]).append("\"}");
    }
    return out.append("]}}").toString();
  }

  @Test
  void aFilterThatReadsNoEnrichResultMakesNoCallForTheRowsItDrops() {
    Answer answer = run(mapping("item.team == 'core'", ONE_STEP));
    assertThat(answer.body()).isEqualTo(ids(2, 4, 6, 8, 10));
    // 1 list call and 5 size calls, not 10: the five 'edge' rows were dropped first.
    assertThat(stub.calls()).isEqualTo(1 + 5);
    assertThat(paths("/size/"))
        .containsExactly("/size/10", "/size/2", "/size/4", "/size/6", "/size/8");
  }

  @Test
  void theLeadingPartsOfAnAndRunBeforeTheStepTheyDoNotRead() {
    // item.id > 2 before enrich.size, size < 9 before enrich.health, health after both.
    Answer answer = run(mapping("item.id > 2 and size < 9 and health", TWO_STEPS));
    assertThat(answer.body()).isEqualTo(ids(4, 5, 6, 7, 8));
    assertThat(paths("/size/")).hasSize(8); // 3..10
    assertThat(paths("/health/")).hasSize(6); // 3..8
  }

  @Test
  void anOrOrAPartAfterAnEnrichReadWaitsForWhatItReads() {
    assertThat(run(mapping("item.id == 1 or size > 8", ONE_STEP)).body()).isEqualTo(ids(1, 9, 10));
    assertThat(paths("/size/")).hasSize(10);
  }

  @Test
  void aPartAfterOneThatReadsAnEnrichResultWaits() {
    // SpEL's 'and' runs left to right: item.id > 5 may not run before size is there.
    assertThat(run(mapping("size > 2 and item.id > 5", ONE_STEP)).body())
        .isEqualTo(ids(6, 7, 8, 9, 10));
    assertThat(paths("/size/")).hasSize(10);
  }

  @Test
  void anEnrichFailureOfARowTheFilterDropsNoLongerHappens() {
    stub.on("GET /size/3", Reply.json(500, "{\"message\":\"broken\"}"));
    Answer answer = run(mapping("item.id != 3", ONE_STEP));
    assertThat(answer.status()).as(answer.body()).isEqualTo(200);
    assertThat(answer.body()).isEqualTo(ids(1, 2, 4, 5, 6, 7, 8, 9, 10));
    assertThat(paths("/size/")).doesNotContain("/size/3");
  }

  @Test
  void aFilterThatFailsBeforeEnrichDecidesAfterItAsItAlwaysDid() {
    // Row 3 has no 'name' to call a method on; its enrich drops it (404), so it never fails.
    stub.on(
        "GET /rows",
        Reply.json(200, "[{\"id\":1,\"name\":\"a\"},{\"id\":3},{\"id\":4,\"name\":\"b\"}]"));
    stub.on("GET /size/3", Reply.json(404, "{}"));
    String dropping = ONE_STEP + "  onMissing: drop\n";
    Answer answer = run(mapping("item.name.length() > 0", dropping));
    assertThat(answer.status()).as(answer.body()).isEqualTo(200);
    assertThat(answer.body()).isEqualTo(ids(1, 4));
    // Where the enrich keeps the row, the filter fails after enrich, in the words it always used.
    stub.on("GET /size/3", Reply.json(200, "{\"size\":3}"));
    Answer failed = run(mapping("item.name.length() > 0", dropping));
    assertThat(failed.status()).isEqualTo(500);
    assertThat(failed.body())
        .isEqualTo(
            "{\"error\":\"mapping 'm': filter 'item.name.length() > 0' failed on row 1: Method"
                + " call: Attempted to call method length() on null context object\"}");
  }

  @Test
  void explainShowsWhereEachPartRanAndWhichPartWasFalse() throws Exception {
    JsonNode report =
        explain(mapping("item.id > 7 and size < 10 and item.team == 'core'", ONE_STEP));
    assertThat(JSON.writeValueAsString(report.get("stages")))
        .isEqualTo(
            "[{\"stage\":\"list\",\"rows\":10,\"dropped\":[]},"
                + "{\"stage\":\"filter (before enrich.size)\",\"rows\":3,\"dropped\":["
                + dropped(1, 7, "item.id > 7", "item.id > 7 and size < 10 and item.team == 'core'")
                + "]},"
                + "{\"stage\":\"enrich.size\",\"rows\":3,\"dropped\":[]},"
                + "{\"stage\":\"filter\",\"rows\":1,\"dropped\":["
                + "{\"row\":8,\"label\":\"name svc-9\",\"reason\":\"'item.team == 'core'' is false,"
                + " in 'item.id > 7 and size < 10 and item.team == 'core''\"},"
                + "{\"row\":9,\"label\":\"name svc-10\",\"reason\":\"'size < 10' is false,"
                + " in 'item.id > 7 and size < 10 and item.team == 'core''\"}]}]");
    assertThat(report.get("calls")).hasSize(1 + 3);
  }

  @Test
  void explainNamesEveryPartOfAnOrThatWasFalse() throws Exception {
    JsonNode report = explain(mapping("item.id == 1 or (size > 9)", ONE_STEP));
    JsonNode filter = report.get("stages").get(2);
    assertThat(filter.get("stage").asText()).isEqualTo("filter");
    assertThat(filter.get("dropped").get(0).get("reason").asText())
        .isEqualTo("none of 'item.id == 1', 'size > 9' is true, in 'item.id == 1 or (size > 9)'");
  }

  private static String dropped(int from, int to, String part, String whole) {
    StringBuilder out = new StringBuilder();
    for (int i = from; i <= to; i++) {
      out.append(i > from ? "," : "")
          .append("{\"row\":")
          .append(i - 1)
          .append(",\"label\":\"name svc-")
          .append(i)
          .append("\",\"reason\":\"'")
          .append(part)
          .append("' is false, in '")
          .append(whole)
          .append("'\"}");
    }
    return out.toString();
  }
}
