package io.github.appsetmapper.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.PluginServer.Answer;
import io.github.appsetmapper.testing.StubUpstream;
import io.github.appsetmapper.testing.StubUpstream.Reply;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A 2xx answer is a whole answer or an error: never a status that says "not done" or "part of it",
 * never a key read twice, never a container that is missing read as "none".
 */
class AnswerIntegrityTest {
  @TempDir Path dir;
  private StubUpstream stub;

  @BeforeEach
  void start() {
    stub = new StubUpstream();
  }

  @AfterEach
  void stop() {
    stub.close();
  }

  private Answer serve(String yaml, String mapping) {
    try (PluginServer plugin =
        PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of(), yaml)) {
      return plugin.getparams(mapping, "{}");
    }
  }

  private static String list(String items, String more) {
    return """
        name: l
        vars: {up: {default: "http://unset.invalid"}}
        list:
          request: {url: "#{vars.up}/items"}
          items: "ITEMS"
        MORE
        parameters: {id: item.id}
        """
        .replace("ITEMS", items)
        .replace("MORE", more);
  }

  private String error(String mapping, String message) {
    return "{\"error\":\"mapping '" + mapping + "': " + message.replace("URL", stub.url()) + "\"}";
  }

  @Nested
  class Statuses {
    @ParameterizedTest
    @ValueSource(ints = {201, 202, 206, 207, 226})
    void a2xxOtherThan200And203IsNotAWholeAnswer(int status) {
      stub.on("GET /items", Reply.json(status, "[]"));
      Answer answer = serve(list("$[*]", ""), "l");
      assertThat(answer.status()).isEqualTo(502);
      assertThat(answer.body())
          .isEqualTo(
              error(
                  "l",
                  "list GET URL/items: answered "
                      + status
                      + ", which is not a complete answer (200 and 203 are; list others in"
                      + " acceptStatus)"));
    }

    @Test
    void status203IsWhole() {
      stub.on("GET /items", Reply.json(203, "[{\"id\":1}]"));
      assertThat(serve(list("$[*]", ""), "l").body())
          .isEqualTo("{\"output\":{\"parameters\":[{\"id\":\"1\"}]}}");
    }

    @Test
    void acceptStatusNamesAnother2xxAsWhole() {
      stub.on("GET /items", Reply.json(202, "[{\"id\":1}]"));
      String yaml =
          list("$[*]", "")
              .replace(
                  "{url: \"#{vars.up}/items\"}",
                  "{url: \"#{vars.up}/items\", acceptStatus: [202]}");
      assertThat(serve(yaml, "l").body())
          .isEqualTo("{\"output\":{\"parameters\":[{\"id\":\"1\"}]}}");
    }

    @Test
    void aLaterPageAnswering202FailsTheListing() {
      stub.on(
          "GET /items",
          r ->
              r.rawUri().contains("page=2")
                  ? Reply.json(202, "[]")
                  : Reply.json(200, "[{\"id\":1}]")
                      .withHeader("Link", "<" + stub.url() + "/items?page=2>; rel=\"next\""));
      assertThat(serve(list("$[*]", "  paginate: {linkHeader: next}"), "l").body())
          .isEqualTo(
              error(
                  "l",
                  "list GET URL/items?page=2: answered 202, which is not a complete answer (200"
                      + " and 203 are; list others in acceptStatus)"));
    }

    @Test
    void a204IsWholeOnlyForAnEnrichThatReadsNoBody() {
      String yaml =
          """
          name: e
          vars: {up: {default: "http://unset.invalid"}}
          enrich:
            seen:
              request: {method: HEAD, url: "#{vars.up}/thing"}
              value: "response.status == 204 and response.headers['X-Id'] != null"
          parameters: {seen: seen}
          """;
      stub.on("HEAD /thing", Reply.status(204).withHeader("X-Id", "7"));
      assertThat(serve(yaml, "e").body())
          .isEqualTo("{\"output\":{\"parameters\":[{\"seen\":\"true\"}]}}");
      String readsBody = yaml.replace("response.status == 204 and ", "response.body == null and ");
      assertThat(serve(readsBody, "e").body())
          .isEqualTo(
              error(
                  "e",
                  "enrich.seen HEAD URL/thing: answered 204, which is not a complete answer (200"
                      + " and 203 are; list others in acceptStatus)"));
    }

    @Test
    void aWrong2xxIsNotMissingForOnMissing() {
      String yaml =
          """
          name: e
          vars: {up: {default: "http://unset.invalid"}}
          enrich:
            thing:
              request: {url: "#{vars.up}/thing"}
              select: "$.name"
              onMissing: drop
          parameters: {thing: thing}
          """;
      stub.on("GET /thing", Reply.json(202, "{\"status\":\"queued\"}"));
      assertThat(serve(yaml, "e").status()).isEqualTo(502);
    }
  }

  @Nested
  class DuplicateKeys {
    @Test
    void aKeyTwiceInOneObjectIsAnError() {
      stub.on("GET /items", Reply.json(200, "{\"items\":[{\"id\":1}],\"items\":[]}"));
      assertThat(serve(list("$.items[*]", ""), "l").body())
          .isEqualTo(
              error(
                  "l",
                  "list GET URL/items: the answer has the key 'items' twice in one object (line 1,"
                      + " column 28)"));
    }

    @Test
    void alsoWhereTheBodyIsReadAsAnything() {
      String yaml =
          """
          name: e
          vars: {up: {default: "http://unset.invalid"}}
          enrich:
            ok:
              request: {url: "#{vars.up}/thing", failWhen: "response.body == 'x'"}
              value: "response.body.ok"
          parameters: {ok: ok}
          """;
      stub.on("GET /thing", Reply.json(200, "{\"ok\":false,\"ok\":true}"));
      assertThat(serve(yaml, "e").body())
          .isEqualTo(
              error(
                  "e",
                  "enrich.ok GET URL/thing: the answer has the key 'ok' twice in one object (line 1,"
                      + " column 17)"));
    }
  }

  @Nested
  class Containers {
    private static final String GROUPS =
        "{\"groups\":[{\"items\":[{\"id\":1}]},{\"error\":\"shard 2 unavailable\"},{\"items\":[{\"id\":3}]}]}";

    @Test
    void everyContainerThePathWalksMustExistNotOnlyTheFirst() {
      stub.on("GET /items", Reply.json(200, GROUPS));
      assertThat(serve(list("$.groups[*].items[*]", ""), "l").body())
          .isEqualTo(
              error(
                  "l",
                  "list GET URL/items: items '$['groups'][*]['items'][*]':"
                      + " $['groups'][1]['items'] is missing or null"));
    }

    @Test
    void aNullContainerToo() {
      stub.on(
          "GET /items",
          Reply.json(200, "{\"groups\":[{\"items\":[{\"id\":1}]},{\"items\":null}]}"));
      assertThat(serve(list("$.groups[*].items[*]", ""), "l").body())
          .isEqualTo(
              error(
                  "l",
                  "list GET URL/items: items '$['groups'][*]['items'][*]':"
                      + " $['groups'][1]['items'] is missing or null"));
    }

    @Test
    void aRowTheItemsPathNamesMustExist() {
      stub.on(
          "GET /items", Reply.json(200, "{\"edges\":[{\"node\":{\"id\":1}},{\"cursor\":\"x\"}]}"));
      assertThat(serve(list("$.edges[*].node", ""), "l").body())
          .isEqualTo(
              error(
                  "l",
                  "list GET URL/items: items '$['edges'][*]['node']': $['edges'][1]['node'] is"
                      + " missing or null"));
    }

    @Test
    void aDefinitePathToAListGivesItsElementsAndToNothingIsAnError() {
      stub.on(
          "GET /items",
          r ->
              r.rawUri().contains("none")
                  ? Reply.json(200, "{\"total\":0}")
                  : Reply.json(200, "{\"items\":[{\"id\":1},{\"id\":2}]}"));
      String yaml = list("$.items", "");
      assertThat(serve(yaml, "l").body())
          .isEqualTo("{\"output\":{\"parameters\":[{\"id\":\"1\"},{\"id\":\"2\"}]}}");
      assertThat(serve(yaml.replace("/items\"", "/items?none\""), "l").body())
          .isEqualTo(error("l", "list GET URL/items?none: items '$['items']': found nothing"));
    }

    @Test
    void missingIsEmptyLetsAMissingContainerCountAsEmpty() {
      stub.on("GET /items", Reply.json(200, GROUPS));
      assertThat(serve(list("$.groups[*].items[*]", "  missingIsEmpty: true"), "l").body())
          .isEqualTo("{\"output\":{\"parameters\":[{\"id\":\"1\"},{\"id\":\"3\"}]}}");
    }

    @Test
    void aContainerOfTheWrongKindIsAnErrorEvenWithMissingIsEmpty() {
      stub.on(
          "GET /items",
          Reply.json(200, "{\"groups\":[{\"items\":[{\"id\":1}]},{\"items\":{\"id\":2}}]}"));
      assertThat(serve(list("$.groups[*].items[*]", "  missingIsEmpty: true"), "l").body())
          .isEqualTo(
              error(
                  "l",
                  "list GET URL/items: items '$['groups'][*]['items'][*]': expected a list at"
                      + " $['groups'][1]['items'], got an object"));
    }

    @Test
    void aFiltersConditionMayReadWhatIsMissingButItsListMustExist() {
      stub.on(
          "GET /items",
          r ->
              r.rawUri().contains("broken")
                  ? Reply.json(200, "{\"message\":\"rate limited\"}")
                  : Reply.json(
                      200,
                      "{\"items\":[{\"id\":1,\"draft\":false},{\"id\":2},{\"id\":3,\"draft\":true}]}"));
      String yaml = list("$.items[?(@.draft == false)]", "");
      assertThat(serve(yaml, "l").body())
          .isEqualTo("{\"output\":{\"parameters\":[{\"id\":\"1\"}]}}");
      assertThat(serve(yaml.replace("/items\"", "/items?broken\""), "l").body())
          .isEqualTo(
              error(
                  "l",
                  "list GET URL/items?broken: items '$['items'][?]': $['items'] is missing or"
                      + " null"));
    }

    @Test
    void anExplodedSelectWithAnEmptyListDropsTheRowButAMissingListIsAnError() {
      String yaml =
          """
          name: e
          vars: {up: {default: "http://unset.invalid"}}
          list:
            request: {url: "#{vars.up}/repos"}
            items: "$[*]"
          enrich:
            branch:
              request: {url: "#{vars.up}/repos/#{item}/branches"}
              select: "$.branches[*].name"
              explode: true
          parameters: {repo: item, branch: branch}
          """;
      stub.on("GET /repos", Reply.json(200, "[\"a\",\"b\"]"));
      stub.on("GET /repos/a/branches", Reply.json(200, "{\"branches\":[{\"name\":\"main\"}]}"));
      stub.on("GET /repos/b/branches", Reply.json(200, "{\"branches\":[]}"));
      assertThat(serve(yaml, "e").body())
          .isEqualTo("{\"output\":{\"parameters\":[{\"repo\":\"a\",\"branch\":\"main\"}]}}");
      stub.on("GET /repos/b/branches", Reply.json(200, "{\"error\":\"timeout\"}"));
      assertThat(serve(yaml, "e").body())
          .isEqualTo(
              error(
                  "e",
                  "enrich.branch GET URL/repos/b/branches: select '$['branches'][*]['name']':"
                      + " $['branches'] is missing or null"));
    }
  }
}
