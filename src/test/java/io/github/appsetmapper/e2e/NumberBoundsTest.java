package io.github.appsetmapper.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.PluginServer.Answer;
import io.github.appsetmapper.testing.StubUpstream;
import io.github.appsetmapper.testing.StubUpstream.Reply;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A number is bounded before anything converts it: {@code 1e999999999} is 11 characters, and its
 * plain form a billion. In a request it is a 400, in an upstream answer a 502, and the server stays
 * up.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class NumberBoundsTest {
  private static final String BOUNDS = "at most 1000 digits and an exponent within \u00b11000";
  private static final String MAPPING =
      """
      name: n
      input:
        branch: {pattern: "[A-Za-z0-9._/-]{1,200}"}
        count: {type: number}
      vars: {up: {default: "http://unset.invalid"}}
      list:
        request: {url: "#{vars.up}/items"}
        items: "$.items[*]"
      parameters: {id: item.id, count: "input.count"}
      """;

  private StubUpstream stub;
  private PluginServer plugin;

  @BeforeAll
  void start(@TempDir Path dir) {
    stub = new StubUpstream();
    stub.on(
        "GET /items",
        r -> {
          String query = r.rawUri().contains("?") ? r.rawUri().replaceAll(".*\\?", "") : "";
          return switch (query) {
            case "huge" -> Reply.json(200, "{\"items\":[{\"id\":1e999999999}]}");
            case "overflow" -> Reply.json(200, "{\"items\":[{\"id\":1e2147483647}]}");
            case "long" -> Reply.json(200, "{\"items\":[{\"id\":" + "9".repeat(1001) + "}]}");
            case "token" -> Reply.json(200, "{\"items\":[{\"id\":1e3}]}");
            default -> Reply.json(200, "{\"items\":[{\"id\":1.5e3}]}");
          };
        });
    plugin = PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of(), MAPPING);
  }

  @AfterAll
  void stop() {
    plugin.close();
    stub.close();
  }

  private void assertUp() {
    assertThat(plugin.getparams("n", "{}").body())
        .isEqualTo("{\"output\":{\"parameters\":[{\"id\":\"1500\",\"count\":null}]}}");
  }

  @Test
  void theRequestThatExhaustedTheHeapIsA400AndTheServerStaysUp() {
    Answer answer = plugin.getparams("n", "{\"input\":{\"parameters\":{\"branch\":1e999999999}}}");
    assertThat(answer.status()).isEqualTo(400);
    assertThat(answer.body())
        .isEqualTo(
            "{\"error\":\"the request body has a number beyond the bounds ("
                + BOUNDS
                + ") (line 1, column 34)\"}");
    assertUp();
  }

  @ParameterizedTest
  @ValueSource(strings = {"1e2147483647", "-1E-2147483648", "1e1001", "0.5e+99999"})
  void anyExponentBeyondTheBoundsIsA400(String number) {
    Answer answer =
        plugin.getparams("n", "{\"input\":{\"parameters\":{\"count\":" + number + "}}}");
    assertThat(answer.status()).as(answer.body()).isEqualTo(400);
    assertThat(answer.body()).contains("a number beyond the bounds (" + BOUNDS + ")");
    assertUp();
  }

  @Test
  void tooManyDigitsIsA400() {
    Answer answer =
        plugin.getparams("n", "{\"input\":{\"parameters\":{\"count\":" + "1".repeat(1001) + "}}}");
    assertThat(answer.status()).isEqualTo(400);
    assertThat(answer.body()).contains("a number beyond the bounds (" + BOUNDS + ")");
  }

  @Test
  void aNumberInputGivenAsTextIsBoundedToo() {
    Answer answer =
        plugin.getparams("n", "{\"input\":{\"parameters\":{\"count\":\"1e999999999\"}}}");
    assertThat(answer.status()).isEqualTo(400);
    assertThat(answer.body())
        .isEqualTo("{\"error\":\"input 'count' is a number beyond the bounds (" + BOUNDS + ")\"}");
    assertUp();
  }

  @Test
  void aNumberWithinTheBoundsIsWrittenPlainly() {
    Answer answer = plugin.getparams("n", "{\"input\":{\"parameters\":{\"count\":\"1e3\"}}}");
    assertThat(answer.body())
        .isEqualTo("{\"output\":{\"parameters\":[{\"id\":\"1500\",\"count\":\"1000\"}]}}");
  }

  @Test
  void theExplainRouteAndTheAdminRoutesRefuseItToo() {
    String body = "{\"input\":{\"parameters\":{\"branch\":1e999999999}}}";
    String token = "Bearer " + PluginServer.TOKEN;
    Answer explain = plugin.send("POST", "/mappings/n/api/v1/getparams.explain", body, token, null);
    assertThat(explain.status()).isEqualTo(400);
    Answer reset = plugin.send("POST", "/mappings/n/guard/reset", body, token, null);
    assertThat(reset.status()).isEqualTo(400);
    assertThat(reset.body()).contains("a number beyond the bounds");
    assertUp();
  }

  @ParameterizedTest
  @ValueSource(strings = {"huge", "overflow", "long"})
  void anUpstreamAnswerWithSuchANumberIsA502(String which) {
    String yaml =
        MAPPING.replace("/items\"", "/items?" + which + "\"").replace("name: n", "name: u");
    try (PluginServer other =
        PluginServer.withYaml(
            java.nio.file.Path.of(System.getProperty("java.io.tmpdir")),
            Map.of("up", stub.url()),
            Map.of(),
            yaml)) {
      Answer answer = other.getparams("u", "{}");
      assertThat(answer.status()).isEqualTo(502);
      assertThat(answer.body())
          .startsWith(
              "{\"error\":\"mapping 'u': list GET "
                  + stub.url()
                  + "/items?"
                  + which
                  + ": the answer has a number beyond the bounds ("
                  + BOUNDS
                  + ") (line 1, column ");
    }
    assertUp();
  }

  @Test
  void aSortKeyThatIsNotAFiniteNumberFailsTheRowNamingIt(@TempDir Path dir) {
    String yaml =
        """
        name: s
        vars: {up: {default: "http://unset.invalid"}}
        list:
          request: {url: "#{vars.up}/items"}
          items: "$.items[*]"
        sortBy: "1.0 / 0"
        parameters: {id: item.id}
        """;
    try (PluginServer other =
        PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of(), yaml)) {
      // No NaN or Infinity leaves an expression, a sort key included (it sorted as a double).
      assertThat(other.getparams("s", "{}").body())
          .isEqualTo(
              "{\"error\":\"mapping 's': sortBy '1.0 / 0' failed on row 0: the operator '/' gives"
                  + " Infinity, which is not a number JSON can hold\"}");
    }
    // A decimal divided by zero is the expression's failure, named, not an internal error.
    try (PluginServer other =
        PluginServer.withYaml(
            dir, Map.of("up", stub.url()), Map.of(), yaml.replace("1.0 / 0", "item.id / 0"))) {
      assertThat(other.getparams("s", "{}").body())
          .isEqualTo(
              "{\"error\":\"mapping 's': sortBy 'item.id / 0' failed on row 0: / by zero\"}");
    }
  }
}
