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
 * The steps that work on a key per row (distinctBy, sortBy) never lose a row silently: rows without
 * a distinctBy key used to be merged into one (a 200 with rows missing), and sortBy keys of mixed
 * kinds had no order (red team M1).
 */
class KeyStepsTest {
  private static String mapping(String name, String step) {
    return """
        name: %s
        vars: {up: {default: "http://unset.invalid"}}
        list:
          request: {url: "#{vars.up}/rows"}
          items: "$[*]"
        %s
        parameters: {id: item.id}
        """
        .formatted(name, step);
  }

  @Test
  void rowsWithoutADistinctKeyFailTheAnswerNamingTheRow(@TempDir Path dir) {
    try (StubUpstream stub = new StubUpstream();
        PluginServer plugin =
            PluginServer.withYaml(
                dir,
                Map.of("up", stub.url()),
                Map.of(),
                mapping("distinct", "distinctBy: item.sha"))) {
      stub.on(
          "GET /rows",
          Reply.json(
              200, "[{\"id\":1,\"sha\":\"a\"},{\"id\":2},{\"id\":3,\"sha\":null},{\"id\":4}]"));
      Answer answer = plugin.getparams("distinct", "{}");
      assertThat(answer.status()).as(answer.body()).isEqualTo(500);
      assertThat(answer.body())
          .isEqualTo(
              "{\"error\":\"mapping 'distinct': distinctBy 'item.sha' gave no key (null) on row 1:"
                  + " rows without a key are never merged; filter them out first if they should"
                  + " go\"}");
      // Keys that are there still keep the first row per key.
      stub.on(
          "GET /rows",
          Reply.json(
              200, "[{\"id\":1,\"sha\":\"a\"},{\"id\":2,\"sha\":\"a\"},{\"id\":3,\"sha\":1}]"));
      Answer distinct = plugin.getparams("distinct", "{}");
      assertThat(distinct.status()).isEqualTo(200);
      assertThat(distinct.body())
          .isEqualTo("{\"output\":{\"parameters\":[{\"id\":\"1\"},{\"id\":\"3\"}]}}");
    }
  }

  @Test
  void sortKeysOfDifferentKindsFailTheAnswerNamingBothRows(@TempDir Path dir) {
    try (StubUpstream stub = new StubUpstream();
        PluginServer plugin =
            PluginServer.withYaml(
                dir, Map.of("up", stub.url()), Map.of(), mapping("sorted", "sortBy: item.v"))) {
      // 2 < 10 as numbers, "10" < "1a" and "1a" < "2" as text: no order exists.
      stub.on(
          "GET /rows",
          Reply.json(200, "[{\"id\":1,\"v\":2},{\"id\":2,\"v\":10},{\"id\":3,\"v\":\"1a\"}]"));
      Answer answer = plugin.getparams("sorted", "{}");
      assertThat(answer.status()).as(answer.body()).isEqualTo(500);
      assertThat(answer.body())
          .isEqualTo(
              "{\"error\":\"mapping 'sorted': sortBy 'item.v' gave a number on row 0 and a string"
                  + " on row 2; the keys must be of one kind to be ordered\"}");
      stub.on("GET /rows", Reply.json(200, "[{\"id\":1,\"v\":{\"a\":1}}]"));
      Answer object = plugin.getparams("sorted", "{}");
      assertThat(object.status()).isEqualTo(500);
      assertThat(object.body())
          .isEqualTo(
              "{\"error\":\"mapping 'sorted': sortBy 'item.v' gave an object on row 0; a sort key"
                  + " is a number, a string or a boolean\"}");
      // Rows without a key lose nothing: they go last, in list order.
      stub.on(
          "GET /rows",
          Reply.json(200, "[{\"id\":1},{\"id\":2,\"v\":10},{\"id\":3,\"v\":2.0},{\"id\":4}]"));
      Answer sorted = plugin.getparams("sorted", "{}");
      assertThat(sorted.status()).isEqualTo(200);
      assertThat(sorted.body())
          .isEqualTo(
              "{\"output\":{\"parameters\":[{\"id\":\"3\"},{\"id\":\"2\"},{\"id\":\"1\"},{\"id\":\"4\"}]}}");
    }
  }

  /**
   * A key kept for every row counts against the memory budget as a let's value does: 600 sort keys
   * of a million characters each ended a 256 MiB JVM (an outside tester's find) while the same
   * value as a let was refused with a 503.
   */
  @Test
  void keysTooLargeForTheMemoryBudgetAreRefusedNamingTheStep(@TempDir Path dir) {
    String key = "item.t.replace('a', item.t)"; // a text of 1,000 characters: a million
    try (StubUpstream stub = new StubUpstream();
        PluginServer plugin =
            PluginServer.withOptions(
                dir,
                Map.of("up", stub.url()),
                null,
                1024 * 1024,
                mapping("sorted", "sortBy: \"" + key + "\""),
                mapping("distinct", "distinctBy: \"" + key + "\""))) {
      String t = "a".repeat(1000);
      stub.on(
          "GET /rows",
          Reply.json(200, "[{\"id\":1,\"t\":\"" + t + "\"},{\"id\":2,\"t\":\"" + t + "b\"}]"));
      for (String step : new String[] {"sortBy", "distinctBy"}) {
        Answer answer = plugin.getparams(step.equals("sortBy") ? "sorted" : "distinct", "{}");
        assertThat(answer.status()).as(answer.body()).isEqualTo(503);
        assertThat(answer.body())
            .as(answer.body())
            .contains("values built per row (" + step + " '" + key + "' on row 0, about ")
            .contains("memory budget for upstream answers");
      }
    }
  }
}
