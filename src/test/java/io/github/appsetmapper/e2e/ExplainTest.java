package io.github.appsetmapper.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.PluginServer.Answer;
import io.github.appsetmapper.testing.StubUpstream;
import io.github.appsetmapper.testing.StubUpstream.Reply;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code POST /mappings/<name>/api/v1/getparams.explain} over real HTTP: the same checks as
 * getparams, then 200 with the report whatever getparams would answer, and never a secret.
 */
class ExplainTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** With '/', '+' and '=' so that it is percent-encoded in the URL's query. */
  private static final String SECRET = "k3y/Zm9v+YmFy=91ac";

  private static final String TOKEN = "t0ken-in-a-header-5d2e";

  private static final String MAPPING =
      """
      name: services
      input:
        team: {required: true, pattern: "[a-z]+"}
      vars:
        up: {default: "http://unset.invalid"}
      secrets:
        key: {env: API_KEY}
        token: {env: API_TOKEN}
      list:
        request:
          url: "#{vars.up}/teams/#{input.team}/services"
          query: {api_key: "#{secret.key}"}
          headers: {X-Team-Token: "#{secret.token}", Accept: application/json}
        items: "$.services[*]"
      enrich:
        health:
          request:
            url: "#{vars.up}/health/#{item.name}"
            query: {api_key: "#{secret.key}"}
          select: "$.status"
          onMissing: drop
      filter: "item.enabled"
      sortBy: item.name
      distinctBy: item.name
      limit: 2
      parameters:
        name: item.name
        health: health
      """;

  private static final String BODY =
      "{\"applicationSetName\":\"services-appset\",\"input\":{\"parameters\":{\"team\":\"core\"}}}";

  private StubUpstream stub;
  private PluginServer plugin;

  @BeforeEach
  void start(@TempDir Path dir) {
    stub =
        new StubUpstream()
            .on(
                "GET /teams/core/services",
                Reply.json(
                    200,
                    """
                    {"services": [
                      {"name": "web", "enabled": true},
                      {"name": "batch", "enabled": false},
                      {"name": "api", "enabled": true},
                      {"name": "gone", "enabled": true},
                      {"name": "web", "enabled": true},
                      {"name": "zeta", "enabled": true}
                    ]}"""))
            .on("GET /health/web", Reply.json(200, "{\"status\":\"ok\"}"))
            .on("GET /health/api", Reply.json(200, "{\"status\":\"degraded\"}"))
            .on("GET /health/zeta", Reply.json(200, "{\"status\":\"ok\"}"))
            .on("GET /health/gone", Reply.json(404, "{\"message\":\"no such service\"}"))
            .on("GET /health/batch", Reply.json(200, "{\"status\":\"ok\"}"))
            .on("GET /teams/broken/services", Reply.json(503, "{\"message\":\"maintenance\"}"));
    plugin =
        PluginServer.withYaml(
            dir, Map.of("up", stub.url()), Map.of("API_KEY", SECRET, "API_TOKEN", TOKEN), MAPPING);
  }

  @AfterEach
  void stop() {
    plugin.close();
    stub.close();
  }

  private Answer explain(String query, String body) {
    return plugin.send(
        "POST",
        "/mappings/services/api/v1/getparams.explain" + query,
        body,
        "Bearer " + PluginServer.TOKEN,
        "application/json");
  }

  @Test
  void reportsCallsStagesDropsParametersAndTheAnswer() throws Exception {
    Answer answer = explain("", BODY);
    assertThat(answer.status()).as(answer.body()).isEqualTo(200);
    JsonNode report = JSON.readTree(answer.body());
    assertThat(report.get("explain").asText()).isEqualTo("services");
    assertThat(report.get("applicationSetName").asText()).isEqualTo("services-appset");
    assertThat(report.get("input")).isEqualTo(JSON.readTree("{\"team\":\"core\"}"));

    // The filter reads no enrich result, so it ran first: no health call for "batch".
    JsonNode calls = report.get("calls");
    assertThat(calls).hasSize(6);
    JsonNode list = calls.get(0);
    assertThat(list.get("step").asText()).isEqualTo("list");
    assertThat(list.get("method").asText()).isEqualTo("GET");
    assertThat(list.get("url").asText()).isEqualTo(stub.url() + "/teams/core/services?api_key=***");
    assertThat(list.get("headers"))
        .isEqualTo(JSON.readTree("{\"X-Team-Token\":\"***\",\"Accept\":\"application/json\"}"));
    assertThat(list.get("status").asInt()).isEqualTo(200);
    assertThat(list.get("page").asInt()).isEqualTo(1);
    assertThat(list.get("shared").asBoolean()).isFalse();
    assertThat(list.get("durationMillis").isNumber()).isTrue();
    // The second "web" row's health call is the first one's, shared.
    assertThat(calls.findValues("shared").stream().filter(JsonNode::asBoolean).count())
        .isEqualTo(1);

    assertThat(JSON.writeValueAsString(report.get("stages")))
        .isEqualTo(
            "[{\"stage\":\"list\",\"rows\":6,\"dropped\":[]},"
                + "{\"stage\":\"filter (before enrich.health)\",\"rows\":5,\"dropped\":[{\"row\":1,"
                + "\"label\":\"name batch\",\"reason\":\"'item.enabled' is not true\"}]},"
                + "{\"stage\":\"enrich.health\",\"rows\":4,\"dropped\":[{\"row\":3,\"label\":\"name gone\","
                + "\"reason\":\"onMissing: drop (enrich.health GET "
                + stub.url()
                + "/health/gone?api_key=***: answered 404 (no such service))\"}]},"
                + "{\"stage\":\"sortBy\",\"rows\":4,\"dropped\":[]},"
                + "{\"stage\":\"distinctBy\",\"rows\":3,\"dropped\":[{\"row\":4,\"label\":\"name web\",\"reason\":\"an earlier row has the key web\"}]},"
                + "{\"stage\":\"limit\",\"rows\":2,\"dropped\":[{\"row\":5,\"label\":\"name zeta\",\"reason\":\"beyond limit 2\"}]}]");
    assertThat(JSON.writeValueAsString(report.get("rows")))
        .isEqualTo(
            "[{\"row\":2,\"parameters\":{\"name\":\"api\",\"health\":\"degraded\"}},"
                + "{\"row\":0,\"parameters\":{\"name\":\"web\",\"health\":\"ok\"}}]");
  }

  @Test
  void theWouldBeAnswerIsExactlyWhatGetparamsAnswers() throws Exception {
    Answer getparams = plugin.getparams("services", BODY);
    JsonNode report = JSON.readTree(explain("", BODY).body());
    assertThat(report.get("answer").get("status").asInt()).isEqualTo(getparams.status());
    assertThat(report.get("answer").get("body")).isEqualTo(JSON.readTree(getparams.body()));
    assertThat(report.has("output")).as("never readable as a getparams answer").isFalse();
  }

  @Test
  void aFailingGetparamsIsStill200WithTheWouldBeStatus() throws Exception {
    String body = "{\"applicationSetName\":\"x\",\"input\":{\"parameters\":{\"team\":\"broken\"}}}";
    Answer getparams = plugin.getparams("services", body);
    assertThat(getparams.status()).isEqualTo(502);
    Answer answer = explain("", body);
    assertThat(answer.status()).isEqualTo(200);
    JsonNode report = JSON.readTree(answer.body());
    assertThat(report.get("answer").get("status").asInt()).isEqualTo(502);
    assertThat(report.get("answer").get("body").get("error").asText())
        .isEqualTo(
            "mapping 'services': list GET "
                + stub.url()
                + "/teams/broken/services?api_key=***: answered 503 after 3 attempts (maintenance)")
        .isEqualTo(JSON.readTree(getparams.body()).get("error").asText());
    assertThat(report.get("calls").get(0).get("status").asInt()).isEqualTo(503);
  }

  @Test
  void invalidInputIsReportedAsTheWouldBe400() throws Exception {
    Answer answer = explain("", "{\"input\":{\"parameters\":{\"team\":\"../x\"}}}");
    assertThat(answer.status()).isEqualTo(200);
    JsonNode report = JSON.readTree(answer.body());
    assertThat(report.get("calls")).isEmpty();
    assertThat(report.get("answer").get("status").asInt()).isEqualTo(400);
    assertThat(report.get("answer").get("body").get("error").asText())
        .isEqualTo("input 'team' does not match the pattern [a-z]+");
  }

  @Test
  void noSecretInAnyFormat() {
    for (String query : new String[] {"", "?format=json", "?format=text"}) {
      String body = explain(query, BODY).body();
      assertThat(body).contains("api_key=***").doesNotContain(TOKEN).doesNotContain(SECRET);
      assertThat(body).doesNotContain("k3y%2FZm9v%2BYmFy%3D91ac").doesNotContain("k3y");
    }
  }

  @Test
  void textFormatForTerminals() {
    Answer answer = explain("?format=text", BODY);
    assertThat(answer.status()).isEqualTo(200);
    assertThat(answer.headers().get("content-type")).containsExactly("text/plain; charset=utf-8");
    assertThat(answer.body())
        .startsWith(
            "explain services for applicationSetName 'services-appset'\n"
                + "input: {\"team\":\"core\"}\n\nupstream calls: 6\n")
        .contains(
            "\nrows after each stage (a row is numbered by its place in the list, from 0):\n"
                + "  list                           6\n"
                + "  filter (before enrich.health)  5\n"
                + "      dropped row 1 (name batch): 'item.enabled' is not true\n"
                + "  enrich.health                  4\n"
                + "      dropped row 3 (name gone): onMissing: drop (enrich.health GET "
                + stub.url()
                + "/health/gone?api_key=***: answered 404 (no such service))\n"
                + "  sortBy                         4\n"
                + "  distinctBy                     3\n"
                + "      dropped row 4 (name web): an earlier row has the key web\n"
                + "  limit                          2\n"
                + "      dropped row 5 (name zeta): beyond limit 2\n"
                + "\nparameters: 2 rows\n"
                + "  row 2:\n    name = \"api\"\n    health = \"degraded\"\n"
                + "  row 0:\n    name = \"web\"\n    health = \"ok\"\n"
                + "\ngetparams would answer 200: {\"output\":{\"parameters\":"
                + "[{\"name\":\"api\",\"health\":\"degraded\"},{\"name\":\"web\",\"health\":\"ok\"}]}}\n");
  }

  @Test
  void theSameChecksAsGetparamsComeFirst() {
    String route = "/mappings/services/api/v1/getparams.explain";
    Answer noToken = plugin.send("POST", route, BODY, null, "application/json");
    assertThat(noToken.status()).isEqualTo(403);
    assertThat(noToken.body()).isEqualTo("{\"error\":\"forbidden\"}");
    Answer get = plugin.send("GET", route, null, "Bearer " + PluginServer.TOKEN, null);
    assertThat(get.status()).isEqualTo(405);
    assertThat(get.headers().get("allow")).containsExactly("POST");
    Answer unknown =
        plugin.send(
            "POST",
            "/mappings/nope/api/v1/getparams.explain",
            BODY,
            "Bearer " + PluginServer.TOKEN,
            "application/json");
    assertThat(unknown.status()).isEqualTo(404);
    assertThat(unknown.body()).isEqualTo("{\"error\":\"unknown mapping 'nope'; known: services\"}");
    Answer notJson = explain("", "{");
    assertThat(notJson.status()).isEqualTo(400);
    Answer badFormat = explain("?format=yaml", BODY);
    assertThat(badFormat.status()).isEqualTo(400);
    assertThat(badFormat.body()).isEqualTo("{\"error\":\"format must be json or text\"}");
    assertThat(stub.calls()).isZero();
  }
}
