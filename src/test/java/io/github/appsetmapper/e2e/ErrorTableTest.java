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
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every row of the format's error table over real HTTP: the status and the exact one-line {@code
 * {"error":...}} body. The server never answers 2xx on a failure.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ErrorTableTest {
  private static final String ITEMS =
      """
      name: items
      description: rows from the stub
      input:
        owner: {required: true, pattern: "[a-z0-9-]{1,40}"}
        count: {type: number, default: 1}
        flag: {type: boolean, default: false}
      vars:
        up: {default: "http://unset.invalid"}
      defaults:
        timeout: 700ms
      list:
        request:
          url: "#{vars.up}/repos/#{input.owner}/items"
        items: "$.items[*]"
      parameters:
        id: item.id
      """;
  private static final String DEAD =
      """
      name: dead
      vars:
        dead: {default: "http://127.0.0.1:1"}
      list:
        request: {url: "#{vars.dead}/items"}
        items: "$[*]"
      parameters: {id: item.id}
      """;
  private static final String GUARDS =
      """
      name: guards
      input:
        case: {required: true, enum: [fail-when, max-pages, loop]}
      vars:
        up: {default: "http://unset.invalid"}
      list:
        request:
          url: "#{vars.up}/guards/#{input.case}"
          failWhen: "response.body['errors'] != null"
        items: "$.data[*]"
        paginate: {linkHeader: next, maxPages: 2}
      parameters: {id: item.id}
      """;
  private static final String EXPLODE =
      """
      name: explode
      vars:
        up: {default: "http://unset.invalid"}
      enrich:
        repos:
          request: {url: "#{vars.up}/explode"}
          select: "$.repos"
          explode: true
      parameters: {repo: repos}
      """;
  private static final String MIN_ITEMS =
      """
      name: min-items
      minItems: 3
      vars:
        up: {default: "http://unset.invalid"}
      list:
        request: {url: "#{vars.up}/repos/ok/items"}
        items: "$.items[*]"
      parameters: {id: item.id}
      """;
  private static final String EXPRESSION =
      """
      name: expression
      vars:
        up: {default: "http://unset.invalid"}
      list:
        request: {url: "#{vars.up}/repos/ok/items"}
        items: "$.items[*]"
      parameters:
        id: item.id
        name: "item.name.toUpperCase()"
      """;

  private static final String SHAPES =
      """
      name: shapes
      input:
        case: {required: true, enum: [inner, clamped, gone]}
      vars:
        up: {default: "http://unset.invalid"}
      list:
        request: {url: "#{vars.up}/shapes/#{input.case}"}
        items: "$.groups[*].items[*]"
        paginate: {page: {param: page}}
      parameters: {id: item.id}
      """;
  private static final String CURSOR =
      """
      name: cursor
      vars:
        up: {default: "http://unset.invalid"}
      list:
        request: {url: "#{vars.up}/cursor"}
        items: "$.data[*]"
        paginate: {cursor: {param: after, from: "$.meta.next"}}
      parameters: {id: item}
      """;

  private static final String FORMATS =
      """
      name: formats
      input:
        case: {required: true, enum: [tag, aliases, latin1, list]}
      vars:
        up: {default: "http://unset.invalid"}
      list:
        request: {url: "#{vars.up}/formats/#{input.case}", format: yaml}
        items: "$.entries"
        entries: "$"
      parameters: {key: item.key}
      """;
  private static final String TEXT =
      """
      name: text
      vars:
        up: {default: "http://unset.invalid"}
      list:
        request: {url: "#{vars.up}/formats/latin1", format: text}
        items: "$"
      parameters: {text: item}
      """;

  private StubUpstream stub;
  private PluginServer plugin;

  @BeforeAll
  void start(@TempDir Path tmp) {
    stub = new StubUpstream();
    stub.on("GET /repos/ok/items", Reply.json(200, "{\"items\":[{\"id\":1},{\"id\":2}]}"));
    stub.on("GET /repos/broken/items", Reply.json(500, "{\"message\":\"Internal error\"}"));
    stub.on("GET /repos/garbage/items", Reply.json(200, "{\"items\":[{\"id\":1},"));
    stub.on("GET /repos/nullitems/items", Reply.json(200, "{\"items\":null}"));
    stub.on("GET /repos/noitems/items", Reply.json(200, "{\"total\":0}"));
    stub.on("GET /repos/empty/items", Reply.json(200, "{\"items\":[]}"));
    stub.on("GET /repos/jsonnull/items", Reply.json(200, "null"));
    stub.on("GET /repos/slow/items", Reply.json(200, "{\"items\":[]}").delayed(3000));
    stub.on(
        "GET /repos/huge/items",
        r -> Reply.json(200, "{\"items\":[\"" + "x".repeat(11 * 1024 * 1024) + "\"]}"));
    stub.on(
        "GET /guards/fail-when",
        Reply.json(200, "{\"data\":[],\"errors\":[{\"message\":\"rate limited\"}]}"));
    stub.on(
        "GET /guards/max-pages",
        r ->
            Reply.json(200, "{\"data\":[{\"id\":" + r.rawUri().length() + "}]}")
                .withHeader(
                    "Link", "</guards/max-pages?p=" + r.rawUri().length() + ">; rel=\"next\""));
    stub.on("GET /explode", Reply.json(200, "{\"repos\":{\"name\":\"not-a-list\"}}"));
    stub.on("GET /repos/accepted/items", Reply.json(202, "{\"items\":[]}"));
    stub.on("GET /repos/twice/items", Reply.json(200, "{\"items\":[{\"id\":1}],\"items\":[]}"));
    stub.on("GET /repos/hugenumber/items", Reply.json(200, "{\"items\":[{\"id\":1e999999999}]}"));
    String one = "{\"groups\":[{\"items\":[{\"id\":1}]}]}";
    stub.on(
        "GET /shapes/inner",
        Reply.json(200, "{\"groups\":[{\"items\":[{\"id\":1}]},{\"error\":\"shard down\"}]}"));
    stub.on("GET /shapes/clamped", Reply.json(200, one));
    stub.on(
        "GET /guards/loop",
        Reply.json(200, "{\"data\":[{\"id\":1}]}")
            .withHeader("Link", "</guards/loop>; rel=\"next\""));
    stub.on(
        "GET /repos/deep/items",
        Reply.json(200, "{\"items\":" + "[".repeat(600) + "]".repeat(600) + "}"));
    stub.on(
        "GET /shapes/gone",
        r ->
            r.rawUri().endsWith("page=1")
                ? Reply.json(200, one)
                : Reply.json(404, "{\"message\":\"404 Page Not Found\"}"));
    stub.on(
        "GET /cursor",
        r ->
            r.rawUri().contains("after=")
                ? Reply.json(200, "{\"data\":[],\"error\":\"try again\"}")
                : Reply.json(200, "{\"data\":[1],\"meta\":{\"next\":\"c2\"}}"));
    plugin =
        PluginServer.withYaml(
            tmp,
            Map.of("up", stub.url()),
            Map.of(),
            ITEMS,
            DEAD,
            GUARDS,
            EXPLODE,
            MIN_ITEMS,
            EXPRESSION,
            SHAPES,
            CURSOR);
  }

  @AfterAll
  void stop() {
    plugin.close();
    stub.close();
  }

  private Answer items(String parameters) {
    return plugin.getparams(
        "items", "{\"applicationSetName\":\"as\",\"input\":{\"parameters\":" + parameters + "}}");
  }

  private static void assertError(Answer answer, int status, String message) {
    assertThat(answer.status()).as(answer.body()).isEqualTo(status);
    assertThat(answer.body())
        .isEqualTo("{\"error\":" + io.github.appsetmapper.server.Json.write(message) + "}");
  }

  @Test
  void success() {
    Answer answer = items("{\"owner\":\"ok\"}");
    assertThat(answer.status()).isEqualTo(200);
    assertThat(answer.body())
        .isEqualTo("{\"output\":{\"parameters\":[{\"id\":\"1\"},{\"id\":\"2\"}]}}");
  }

  @Test
  void anEmptyListIsTheOnlyEmptyAnswer() {
    assertThat(items("{\"owner\":\"empty\"}").body()).isEqualTo("{\"output\":{\"parameters\":[]}}");
  }

  @Nested
  class Forbidden {
    private static final String BODY =
        "{\"applicationSetName\":\"as\",\"input\":{\"parameters\":{\"owner\":\"ok\"}}}";
    private static final String PATH = "/mappings/items/api/v1/getparams.execute";

    @Test
    void noToken() {
      assertError(plugin.send("POST", PATH, BODY, null, "application/json"), 403, "forbidden");
    }

    @Test
    void wrongToken() {
      assertError(
          plugin.send("POST", PATH, BODY, "Bearer nope", "application/json"), 403, "forbidden");
    }

    @Test
    void emptyToken() {
      assertError(plugin.send("POST", PATH, BODY, "Bearer ", "application/json"), 403, "forbidden");
    }

    @Test
    void argoCdSendsTheLiteralReferenceWhenTheSecretKeyIsMissing() {
      assertError(
          plugin.send("POST", PATH, BODY, "Bearer $plugin.myplugin.token", "application/json"),
          403,
          "forbidden");
    }

    @Test
    void beforeTheMappingIsLookedUp() {
      assertError(
          plugin.send(
              "POST",
              "/mappings/secret-name/api/v1/getparams.execute",
              BODY,
              "Bearer nope",
              "application/json"),
          403,
          "forbidden");
    }

    @Test
    void basicAuthIsNotABearerToken() {
      assertError(
          plugin.send("POST", PATH, BODY, "Basic " + PluginServer.TOKEN, "application/json"),
          403,
          "forbidden");
    }

    @Test
    void nothingRanUpstream() {
      int before = stub.calls();
      plugin.send("POST", PATH, BODY, "Bearer nope", "application/json");
      assertThat(stub.calls()).isEqualTo(before);
    }
  }

  @Nested
  class NotFound {
    @Test
    void unknownMappingListsTheKnownOnes() {
      assertError(
          plugin.getparams("nope", "{}"),
          404,
          "unknown mapping 'nope'; known: cursor, dead, explode, expression, guards, items,"
              + " min-items, shapes");
    }

    @Test
    void unknownPath() {
      assertError(
          plugin.send(
              "POST", "/v1/other", "{}", "Bearer " + PluginServer.TOKEN, "application/json"),
          404,
          "unknown path '/v1/other'; getparams is POST /mappings/<name>/api/v1/getparams.execute");
    }

    @Test
    void aShadowRouteWithoutACandidate() {
      assertError(
          plugin.send(
              "POST",
              "/mappings/items/shadow/api/v1/getparams.execute",
              "{}",
              "Bearer " + PluginServer.TOKEN,
              "application/json"),
          404,
          "no candidate mapping 'items' under --shadow");
      assertError(
          plugin.send("GET", "/mappings/items/shadow", null, "Bearer " + PluginServer.TOKEN, null),
          404,
          "no candidate mapping 'items' under --shadow");
    }

    @Test
    void noDefaultMappingWhenSeveralAreLoaded() {
      assertError(
          plugin.send(
              "POST",
              "/api/v1/getparams.execute",
              "{}",
              "Bearer " + PluginServer.TOKEN,
              "application/json"),
          404,
          "no default mapping: call /mappings/<name>/api/v1/getparams.execute or start with"
              + " --default-mapping; known: cursor, dead, explode, expression, guards, items,"
              + " min-items, shapes");
    }
  }

  @Test
  void notPost() {
    Answer answer =
        plugin.send(
            "GET",
            "/mappings/items/api/v1/getparams.execute",
            null,
            "Bearer " + PluginServer.TOKEN,
            null);
    assertError(answer, 405, "method GET not allowed; use POST");
    assertThat(answer.headers().get("allow")).containsExactly("POST");
  }

  @Test
  void withoutTheTokenAWrongMethodOrAnUnknownPathIsForbiddenFirst() {
    // 403 is checked before anything else: no caller without the token learns which paths and
    // methods exist.
    for (String[] call :
        new String[][] {
          {"GET", "/mappings/items/api/v1/getparams.execute"},
          {"PUT", "/mappings/items/api/v1/getparams.execute"},
          {"POST", "/no/such/path"},
          {"POST", "/mappings/items/shadow"}
        }) {
      Answer answer = plugin.send(call[0], call[1], null, null, null);
      assertThat(answer.status()).as(call[0] + " " + call[1]).isEqualTo(403);
    }
    Answer post =
        plugin.send("POST", "/mappings/items/shadow", null, "Bearer " + PluginServer.TOKEN, null);
    assertError(post, 405, "method POST not allowed; use GET, HEAD");
  }

  @Nested
  class BadRequest {
    @Test
    void notJson() {
      Answer answer = plugin.getparams("items", "owner=ok");
      assertThat(answer.status()).isEqualTo(400);
      assertThat(answer.body()).startsWith("{\"error\":\"the request body is not valid JSON: ");
    }

    @Test
    void emptyBody() {
      assertError(
          plugin.getparams("items", ""),
          400,
          "the request body is empty; send {\"applicationSetName\":...,\"input\":{\"parameters\":{...}}}");
    }

    @Test
    void notAnObject() {
      assertError(
          plugin.getparams("items", "[1,2]"), 400, "the request body must be a JSON object");
    }

    @Test
    void inputNotAnObject() {
      assertError(plugin.getparams("items", "{\"input\":\"x\"}"), 400, "input must be an object");
    }

    @Test
    void parametersAList() {
      assertError(
          plugin.getparams("items", "{\"input\":{\"parameters\":[\"owner\"]}}"),
          400,
          "input.parameters must be an object, not a list");
    }

    @Test
    void applicationSetNameNotAString() {
      assertError(
          plugin.getparams("items", "{\"applicationSetName\":7,\"input\":{}}"),
          400,
          "applicationSetName must be a string");
    }

    @Test
    void undeclaredInput() {
      assertError(
          items("{\"owner\":\"ok\",\"ownr\":\"x\"}"),
          400,
          "input 'ownr' is not declared by mapping 'items'; declared: owner, count, flag");
    }

    @Test
    void missingInput() {
      assertError(items("{}"), 400, "input 'owner' is required");
    }

    @Test
    void missingInputWhenArgoOmitsParameters() {
      assertError(
          plugin.getparams("items", "{\"applicationSetName\":\"as\",\"input\":{}}"),
          400,
          "input 'owner' is required");
    }

    @Test
    void patternMismatch() {
      assertError(
          items("{\"owner\":\"Bad Owner\"}"),
          400,
          "input 'owner' does not match the pattern [a-z0-9-]{1,40}");
    }

    @Test
    void wrongType() {
      assertError(
          items("{\"owner\":\"ok\",\"count\":\"many\"}"), 400, "input 'count' must be a number");
      assertError(
          items("{\"owner\":\"ok\",\"flag\":\"yes\"}"), 400, "input 'flag' must be true or false");
      assertError(items("{\"owner\":[\"ok\"]}"), 400, "input 'owner' must be a string");
    }

    @Test
    void numbersAndBooleansAlsoComeAsStrings() {
      assertThat(items("{\"owner\":\"ok\",\"count\":\"42\",\"flag\":\"true\"}").status())
          .isEqualTo(200);
    }

    @Test
    void missingContentTypeIsAccepted() {
      Answer answer =
          plugin.send(
              "POST",
              "/mappings/items/api/v1/getparams.execute",
              "{\"input\":{\"parameters\":{\"owner\":\"ok\"}}}",
              "Bearer " + PluginServer.TOKEN,
              null);
      assertThat(answer.status()).isEqualTo(200);
    }

    @Test
    void aNumberBeyondTheBounds() {
      assertError(
          plugin.getparams("items", "{\"input\":{\"parameters\":{\"owner\":1e999999999}}}"),
          400,
          "the request body has a number beyond the bounds (at most 1000 digits and an exponent"
              + " within \u00b11000) (line 1, column 33)");
      assertError(
          items("{\"owner\":\"ok\",\"count\":\"1e2147483647\"}"),
          400,
          "input 'count' is a number beyond the bounds (at most 1000 digits and an exponent within"
              + " \u00b11000)");
    }

    @Test
    void bodyOverTheLimit() {
      String huge = "{\"input\":{\"parameters\":{\"owner\":\"" + "a".repeat(1024 * 1024) + "\"}}}";
      assertError(
          plugin.getparams("items", huge), 413, "the request body is larger than 1048576 bytes");
    }
  }

  @Nested
  class Upstream {
    @Test
    void connectionRefused() {
      assertError(
          plugin.getparams("dead", "{}"),
          502,
          "mapping 'dead': list GET http://127.0.0.1:1/items: connection refused after 3 attempts");
    }

    @Test
    void errorStatusWithTheUpstreamsOwnMessage() {
      assertError(
          items("{\"owner\":\"broken\"}"),
          502,
          "mapping 'items': list GET "
              + stub.url()
              + "/repos/broken/items: answered 500 (Internal error)");
    }

    @Test
    void malformedJson() {
      assertError(
          items("{\"owner\":\"garbage\"}"),
          502,
          "mapping 'items': list GET "
              + stub.url()
              + "/repos/garbage/items: answered 200 with application/json that is not valid"
              + " JSON: '{\"items\":[{\"id\":1},'");
    }

    @Test
    void nullItemsContainerIsNotNone() {
      assertError(
          items("{\"owner\":\"nullitems\"}"),
          502,
          "mapping 'items': list GET "
              + stub.url()
              + "/repos/nullitems/items: items '$['items'][*]': $['items'] is missing or null");
    }

    @Test
    void missingItemsContainerIsNotNone() {
      assertError(
          items("{\"owner\":\"noitems\"}"),
          502,
          "mapping 'items': list GET "
              + stub.url()
              + "/repos/noitems/items: items '$['items'][*]': $['items'] is missing or null");
    }

    @Test
    void aJsonNullBodyIsNotNone() {
      assertError(
          items("{\"owner\":\"jsonnull\"}"),
          502,
          "mapping 'items': list GET "
              + stub.url()
              + "/repos/jsonnull/items: the answer is JSON null");
    }

    @Test
    void responseOverTheSizeCap() {
      assertError(
          items("{\"owner\":\"huge\"}"),
          502,
          "mapping 'items': list GET "
              + stub.url()
              + "/repos/huge/items: response larger than 10485760 bytes");
    }

    @Test
    void timeout() {
      assertError(
          items("{\"owner\":\"slow\"}"),
          504,
          "mapping 'items': list GET " + stub.url() + "/repos/slow/items: timed out after 700 ms");
    }
  }

  /** Answers that look whole and are not. */
  /** {@code format: yaml|text} and {@code list.entries}: unreadable answers are 502s. */
  @Nested
  @TestInstance(TestInstance.Lifecycle.PER_CLASS)
  class Formats {
    private StubUpstream stub;
    private PluginServer plugin;

    @BeforeAll
    void start(@TempDir Path tmp) {
      stub = new StubUpstream();
      stub.on("GET /formats/tag", Reply.json(200, "entries: !!python/name:os.system {}"));
      stub.on(
          "GET /formats/aliases",
          Reply.json(200, "x: &x [1]\nentries: [" + "*x, ".repeat(60) + "*x]"));
      stub.on("GET /formats/list", Reply.json(200, "entries: [a, b]"));
      stub.on(
          "GET /formats/latin1",
          new Reply(
              200,
              Map.of("Content-Type", "text/plain"),
              "caf\u00e9".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1),
              0,
              null));
      plugin = PluginServer.withYaml(tmp, Map.of("up", stub.url()), Map.of(), FORMATS, TEXT);
    }

    @AfterAll
    void stop() {
      plugin.close();
      stub.close();
    }

    private Answer formats(String which) {
      return plugin.getparams(
          "formats", "{\"input\":{\"parameters\":{\"case\":\"" + which + "\"}}}");
    }

    @Test
    void aYamlTag() {
      assertError(
          formats("tag"),
          502,
          "mapping 'formats': list GET "
              + stub.url()
              + "/formats/tag: the answer has the tag 'tag:yaml.org,2002:python/name:os.system'"
              + " (tags are not read: write the value without it) (line 1, column 10)");
    }

    @Test
    void tooManyYamlAliases() {
      assertError(
          formats("aliases"),
          502,
          "mapping 'formats': list GET "
              + stub.url()
              + "/formats/aliases: the answer names a collection by an alias more than 50 times");
    }

    @Test
    void entriesOfAList() {
      assertError(
          formats("list"),
          502,
          "mapping 'formats': list GET "
              + stub.url()
              + "/formats/list: items '$['entries']': entries needs an object here, got a list");
    }

    @Test
    void textThatIsNotUtf8() {
      assertError(
          plugin.getparams("text", "{}"),
          502,
          "mapping 'text': list GET "
              + stub.url()
              + "/formats/latin1: the answer is not UTF-8 text");
    }
  }

  @Nested
  class IncompleteAnswers {
    private Answer shapes(String which) {
      return plugin.getparams(
          "shapes", "{\"input\":{\"parameters\":{\"case\":\"" + which + "\"}}}");
    }

    @Test
    void a2xxThatIsNotAWholeAnswer() {
      assertError(
          items("{\"owner\":\"accepted\"}"),
          502,
          "mapping 'items': list GET "
              + stub.url()
              + "/repos/accepted/items: answered 202, which is not a complete answer (200 and 203"
              + " are; list others in acceptStatus)");
    }

    @Test
    void aKeyTwiceInOneObject() {
      assertError(
          items("{\"owner\":\"twice\"}"),
          502,
          "mapping 'items': list GET "
              + stub.url()
              + "/repos/twice/items: the answer has the key 'items' twice in one object (line 1,"
              + " column 28)");
    }

    @Test
    void aNumberBeyondTheBounds() {
      assertError(
          items("{\"owner\":\"hugenumber\"}"),
          502,
          "mapping 'items': list GET "
              + stub.url()
              + "/repos/hugenumber/items: the answer has a number beyond the bounds (at most 1000"
              + " digits and an exponent within \u00b11000) (line 1, column 17)");
    }

    @Test
    void aMissingInnerContainer() {
      assertError(
          shapes("inner"),
          502,
          "mapping 'shapes': list GET "
              + stub.url()
              + "/shapes/inner?page=1: items '$['groups'][*]['items'][*]': $['groups'][1]['items']"
              + " is missing or null");
    }

    @Test
    void aPageTheSameAsTheOneBefore() {
      assertError(
          shapes("clamped"),
          502,
          "mapping 'shapes': list GET "
              + stub.url()
              + "/shapes/clamped?page=2: page 2 answered the same as page 1 (an API that repeats"
              + " its last page for any higher number?); end the listing with endStatus or"
              + " stopOnShortPage, or use linkHeader");
    }

    @Test
    void a404AfterTheFirstPage() {
      assertError(
          shapes("gone"),
          502,
          "mapping 'shapes': list GET "
              + stub.url()
              + "/shapes/gone?page=2: answered 404 (404 Page Not Found)");
    }

    @Test
    void aNextLinkBackToAPageAlreadyFetched() {
      assertError(
          plugin.getparams("guards", "{\"input\":{\"parameters\":{\"case\":\"loop\"}}}"),
          502,
          "mapping 'guards': list GET "
              + stub.url()
              + "/guards/loop: the next page is one already fetched ("
              + stub.url()
              + "/guards/loop), a loop");
    }

    @Test
    void nestingDeeperThanTheLimit() {
      assertError(
          items("{\"owner\":\"deep\"}"),
          502,
          "mapping 'items': list GET "
              + stub.url()
              + "/repos/deep/items: the answer is nested deeper than 500 levels");
    }

    @Test
    void aCursorWithoutWhatHoldsIt() {
      assertError(
          plugin.getparams("cursor", "{}"),
          502,
          "mapping 'cursor': list GET "
              + stub.url()
              + "/cursor?after=c2: cursor.from '$['meta']['next']': $['meta'] is missing or null");
    }

    @Test
    void parsedDataOverTheMemoryBudget(@TempDir Path tmp) {
      try (PluginServer small =
          PluginServer.withOptions(tmp, Map.of("up", stub.url()), null, 64 * 1024, ITEMS)) {
        stub.on(
            "GET /repos/many/items",
            Reply.json(200, "{\"items\":[" + "{\"id\":1},".repeat(999) + "{\"id\":1}]}"));
        Answer answer =
            small.getparams("items", "{\"input\":{\"parameters\":{\"owner\":\"many\"}}}");
        assertThat(answer.status()).as(answer.body()).isEqualTo(503);
        assertThat(answer.body())
            .startsWith(
                "{\"error\":\"mapping 'items': list GET "
                    + stub.url()
                    + "/repos/many/items: the answer's data (about ")
            .endsWith(
                " bytes once parsed) exceed the memory budget for upstream answers (65536"
                    + " bytes); raise --memory-budget\"}");
      }
    }
  }

  @Nested
  class Guards {
    private Answer guards(String which) {
      return plugin.getparams(
          "guards", "{\"input\":{\"parameters\":{\"case\":\"" + which + "\"}}}");
    }

    @Test
    void failWhen() {
      assertError(
          guards("fail-when"),
          502,
          "mapping 'guards': list GET "
              + stub.url()
              + "/guards/fail-when: failWhen 'response.body['errors'] != null' is true");
    }

    @Test
    void maxPagesReached() {
      assertError(
          guards("max-pages"),
          502,
          "mapping 'guards': list GET "
              + stub.url()
              + "/guards/max-pages: more than maxPages (2) pages; raise maxPages or set onMaxPages: stop");
    }

    @Test
    void explodeOnANonList() {
      assertError(
          plugin.getparams("explode", "{}"),
          502,
          "mapping 'explode': enrich.repos GET "
              + stub.url()
              + "/explode: explode needs a list, got an object");
    }

    @Test
    void minItems() {
      assertError(
          plugin.getparams("min-items", "{}"),
          502,
          "mapping 'min-items': the answer has 2 rows, fewer than minItems (3); refused so that Argo CD keeps its Applications");
    }

    @Test
    void expressionFailedOnARow() {
      assertError(
          plugin.getparams("expression", "{}"),
          500,
          "mapping 'expression': parameters.name 'item.name.toUpperCase()' failed on row 0: Method call: Attempted to call method toUpperCase() on null context object");
    }
  }

  /** A step keyed per row never loses a row silently (red team M1). */
  @Nested
  class KeySteps {
    @Test
    void aRowWithoutADistinctByKey(@TempDir Path tmp) {
      String yaml =
          "name: nokey\nvars:\n  up: {default: 'http://unset.invalid'}\nlist:\n"
              + "  request: {url: \"#{vars.up}/repos/ok/items\"}\n  items: \"$.items[*]\"\n"
              + "distinctBy: item.sha\nparameters: {id: item.id}\n";
      try (PluginServer other =
          PluginServer.withYaml(tmp, Map.of("up", stub.url()), Map.of(), yaml)) {
        assertError(
            other.getparams("nokey", "{}"),
            500,
            "mapping 'nokey': distinctBy 'item.sha' gave no key (null) on row 0: rows without a"
                + " key are never merged; filter them out first if they should go");
      }
    }

    @Test
    void sortByKeysOfDifferentKinds(@TempDir Path tmp) {
      String yaml =
          "name: mixed\nvars:\n  up: {default: 'http://unset.invalid'}\nlist:\n"
              + "  request: {url: \"#{vars.up}/repos/ok/items\"}\n  items: \"$.items[*]\"\n"
              + "sortBy: \"item.id == 1 ? 'one' : item.id\"\nparameters: {id: item.id}\n";
      try (PluginServer other =
          PluginServer.withYaml(tmp, Map.of("up", stub.url()), Map.of(), yaml)) {
        assertError(
            other.getparams("mixed", "{}"),
            500,
            "mapping 'mixed': sortBy 'item.id == 1 ? 'one' : item.id' gave a string on row 0 and a"
                + " number on row 1; the keys must be of one kind to be ordered");
      }
    }
  }

  /** Text that cannot travel as written (red team LOW h, i). */
  @Nested
  class Text {
    private static final String NAMED =
        "name: named\ninput:\n  name: {required: true}\nvars:\n"
            + "  up: {default: 'http://unset.invalid'}\nsecrets: {api: {env: TEXT_TOKEN}}\n"
            + "list:\n  request:\n    url: \"#{vars.up}/repos/ok/items\"\n"
            + "    headers: {X-Name: \"#{input.name}\"}\n    auth: {bearer: {secret: api}}\n"
            + "  items: \"$.items[*]\"\nparameters: {id: item.id}\n";

    @Test
    void aHeaderValueBeyondLatin1(@TempDir Path tmp) {
      try (PluginServer other =
          PluginServer.withYaml(tmp, Map.of("up", stub.url()), Map.of("TEXT_TOKEN", "t"), NAMED)) {
        Answer answer =
            other.getparams("named", "{\"input\":{\"parameters\":{\"name\":\"\u20ac\"}}}");
        assertThat(answer.status()).isEqualTo(400);
        assertThat(answer.body()).contains("cannot hold a character beyond Latin-1");
      }
    }

    @Test
    void aSecretBeyondLatin1InAHeader(@TempDir Path tmp) {
      try (PluginServer other =
          PluginServer.withYaml(
              tmp, Map.of("up", stub.url()), Map.of("TEXT_TOKEN", "\u20ac-token"), NAMED)) {
        assertError(
            other.getparams("named", "{\"input\":{\"parameters\":{\"name\":\"x\"}}}"),
            500,
            "mapping 'named': secret 'api' cannot be sent in a header: it holds a character beyond"
                + " Latin-1 (it would be sent as '?'); percent-encode it, or send it in the query or"
                + " the body");
      }
    }

    @Test
    void halfASurrogatePairInTheBody() {
      assertError(
          plugin.getparams("items", "{\"input\":{\"parameters\":{\"owner\":\"\\udc00\"}}}"),
          400,
          "the request body has a string holding half of a surrogate pair (\\udc00 alone), which"
              + " is not Unicode text (line 1, column 33)");
    }
  }

  /** Pagination signals read strictly and believed (red team C5, H2). */
  @Nested
  class Signals {
    private static final String LINKED =
        "name: linked\nvars:\n  up: {default: 'http://unset.invalid'}\nlist:\n"
            + "  request: {url: \"#{vars.up}/signals\"}\n  items: \"$[*]\"\n"
            + "  paginate: {linkHeader: next}\nparameters: {id: item}\n";

    @Test
    void aPaginationSignalThatDoesNotParse(@TempDir Path tmp) {
      try (StubUpstream signals = new StubUpstream();
          PluginServer other =
              PluginServer.withYaml(tmp, Map.of("up", signals.url()), Map.of(), LINKED)) {
        signals.on("GET /signals", Reply.json(200, "[1]").withHeader("Link", "next-page"));
        assertError(
            other.getparams("linked", "{}"),
            502,
            "mapping 'linked': list GET "
                + signals.url()
                + "/signals: the Link header does not parse (a link does not start with '<' at"
                + " character 1): 'next-page'; the listing cannot tell whether more pages remain");
      }
    }

    @Test
    void aListingThatEndsWhileASignalSaysMoreRemain(@TempDir Path tmp) {
      try (StubUpstream signals = new StubUpstream();
          PluginServer other =
              PluginServer.withYaml(tmp, Map.of("up", signals.url()), Map.of(), LINKED)) {
        signals.on("GET /signals", Reply.json(200, "[1]").withHeader("X-Total-Pages", "2"));
        assertError(
            other.getparams("linked", "{}"),
            502,
            "mapping 'linked': list GET "
                + signals.url()
                + "/signals: the listing ends at page 1 (no next link) while X-Total-Pages says 2"
                + " pages, 1 was read");
      }
    }
  }

  /** An enrich that finds nothing is missing, whatever shape the nothing takes (red team C6). */
  @Nested
  class EnrichMissing {
    @Test
    void anEnrichAnswerThatIsJsonNull(@TempDir Path tmp) {
      String yaml =
          "name: nullbody\nvars:\n  up: {default: 'http://unset.invalid'}\nlist:\n"
              + "  request: {url: \"#{vars.up}/repos/ok/items\"}\n  items: \"$.items[*]\"\n"
              + "enrich:\n  detail:\n    request: {url: \"#{vars.up}/repos/jsonnull/items\"}\n"
              + "    select: \"$.sha\"\nparameters: {id: item.id, sha: detail}\n";
      try (PluginServer other =
          PluginServer.withYaml(tmp, Map.of("up", stub.url()), Map.of(), yaml)) {
        assertError(
            other.getparams("nullbody", "{}"),
            502,
            "mapping 'nullbody': enrich.detail GET "
                + stub.url()
                + "/repos/jsonnull/items: the answer is JSON null");
      }
    }
  }

  /** Requests refused before they are sent, for where they would have gone. */
  @Nested
  class RefusedRequests {
    private static final String SEGMENTS =
        """
        name: segments
        input:
          name: {required: true}
          ext: {default: ""}
        vars: {up: {default: "http://unset.invalid"}}
        list:
          request:
            url: "#{vars.up}/files/#{input.name}.#{input.ext}"
            headers: {X-Name: "#{input.name}"}
          items: "$[*]"
        enrich:
          meta:
            request: {url: "#{vars.up}/meta/#{item}"}
        parameters: {id: item}
        """;

    private Answer segments(Path tmp, String parameters) {
      try (PluginServer other =
          PluginServer.withYaml(tmp, Map.of("up", stub.url()), Map.of(), SEGMENTS)) {
        return other.getparams("segments", "{\"input\":{\"parameters\":" + parameters + "}}");
      }
    }

    @Test
    void inputThatWouldMakeADotDotPathSegmentOnceRendered(@TempDir Path tmp) {
      assertError(
          segments(tmp, "{\"name\":\".\"}"),
          400,
          "list.url: #{input.name}.#{input.ext} gives a '..' path segment");
    }

    @Test
    void inputThatWouldClimbOncePercentDecoded(@TempDir Path tmp) {
      assertError(
          segments(tmp, "{\"name\":\"../../admin\",\"ext\":\"x\"}"),
          400,
          "list.url: #{input.name}.#{input.ext} gives a path segment with a '..' step once"
              + " percent-decoded");
    }

    @Test
    void aControlCharacterInAHeader(@TempDir Path tmp) {
      assertError(
          segments(tmp, "{\"name\":\"a\\u0000b\"}"),
          400,
          "list.headers.X-Name: a header value cannot hold a control character");
    }

    @Test
    void upstreamDataThatWouldMakeADotDotPathSegment(@TempDir Path tmp) {
      stub.on("GET /files/up.json", Reply.json(200, "[\"..\"]"));
      assertError(
          segments(tmp, "{\"name\":\"up\",\"ext\":\"json\"}"),
          502,
          "mapping 'segments': enrich.meta.url: #{item} gives a '..' path segment");
    }
  }

  @Test
  void aSecretEchoedIntoAParameter(@TempDir Path tmp) {
    stub.on("GET /echo", r -> Reply.json(200, "[\"" + r.header("X-Key") + "\"]"));
    String yaml =
        """
        name: echo
        vars: {up: {default: "http://unset.invalid"}}
        secrets: {key: {env: ECHO_KEY}}
        list:
          request: {url: "#{vars.up}/echo", headers: {X-Key: "#{secret.key}"}}
          items: "$[*]"
        parameters: {name: item}
        """;
    try (PluginServer other =
        PluginServer.withYaml(
            tmp, Map.of("up", stub.url()), Map.of("ECHO_KEY", "echoed-key-31c9a7"), yaml)) {
      assertError(
          other.getparams("echo", "{\"input\":{\"parameters\":{}}}"),
          502,
          "mapping 'echo': parameter 'name' of row 0 holds a secret value this server uses (an"
              + " upstream echoing a credential?); refused so that no secret reaches Argo CD");
    }
  }

  @Test
  void shuttingDown(@TempDir Path tmp) {
    try (PluginServer other =
        PluginServer.withYaml(tmp, Map.of("up", stub.url()), Map.of(), ITEMS)) {
      other.server().stopAccepting();
      assertError(
          other.getparams("items", "{\"input\":{\"parameters\":{\"owner\":\"ok\"}}}"),
          503,
          "the server is shutting down; retry");
      assertThat(other.send("GET", "/readyz", null, null, null).status()).isEqualTo(503);
      assertThat(other.send("GET", "/healthz", null, null, null).status()).isEqualTo(200);
    }
  }

  /** The refusals that guard availability (issue 10): status, message and the refusal metric. */
  @Nested
  class Availability {
    private String refusals(PluginServer server) {
      return server.send("GET", "/metrics", null, null, null).body();
    }

    @Test
    void applicationSetNameNotAKubernetesName() {
      String message =
          "applicationSetName must be a Kubernetes name: at most 253 lowercase letters, digits,"
              + " '-' and '.', starting and ending with a letter or digit";
      for (String name :
          java.util.List.of("Team-A", "team_a", "-team", "team.", "a".repeat(254), "x\ny")) {
        assertError(
            plugin.getparams(
                "items",
                "{\"applicationSetName\":"
                    + io.github.appsetmapper.server.Json.write(name)
                    + ",\"input\":{\"parameters\":{\"owner\":\"ok\"}}}"),
            400,
            message);
      }
      for (String name : java.util.List.of("a".repeat(253), "team-a.prod", "")) {
        assertThat(
                plugin
                    .getparams(
                        "items",
                        "{\"applicationSetName\":\""
                            + name
                            + "\",\"input\":{\"parameters\":{\"owner\":\"ok\"}}}")
                    .status())
            .isEqualTo(200);
      }
      assertThat(refusals(plugin))
          .contains(
              "appset_mapper_requests_refused_total{reason=\"bad_application_set_name\",route=\"getparams\"} 6.0");
      // The admin routes that take it check it the same way.
      for (String route : java.util.List.of("guard/reset", "cache/invalidate")) {
        assertError(
            plugin.send(
                "POST",
                "/mappings/items/" + route,
                "{\"applicationSetName\":\"Team A\",\"input\":{\"parameters\":{\"owner\":\"ok\"}}}",
                "Bearer " + PluginServer.TOKEN,
                "application/json"),
            400,
            message);
      }
    }

    @Test
    void aWebhookBodyOverItsLimit(@TempDir Path tmp) {
      try (PluginServer hooked =
          PluginServer.withServerOptions(
              tmp,
              Map.of("up", stub.url()),
              io.github.appsetmapper.server.WebhookSecret.fixed("s3cret-webhook"),
              options -> options.withWebhookMaxBodyBytes(64),
              ITEMS)) {
        String body = "{\"commits\":\"" + "x".repeat(100) + "\"}";
        assertError(
            hooked.send(
                "POST",
                "/mappings/items/cache/invalidate",
                body,
                null,
                "application/json",
                Map.of(
                    "X-Hub-Signature-256",
                    io.github.appsetmapper.server.WebhookSecret.signature(
                        "s3cret-webhook", body.getBytes(java.nio.charset.StandardCharsets.UTF_8)))),
            413,
            "the request body is larger than 64 bytes");
        assertThat(refusals(hooked))
            .contains(
                "appset_mapper_requests_refused_total{reason=\"body_too_large\",route=\"cache_invalidate\"} 1.0");
      }
    }

    @Test
    void tooManyWebhookBodiesAtOnce(@TempDir Path tmp) throws Exception {
      java.util.List<java.net.Socket> silent = new java.util.ArrayList<>();
      try (PluginServer hooked =
          PluginServer.withServerOptions(
              tmp,
              Map.of("up", stub.url()),
              io.github.appsetmapper.server.WebhookSecret.fixed("s3cret-webhook"),
              options -> options,
              ITEMS)) {
        try {
          String head =
              "POST /mappings/items/cache/invalidate HTTP/1.1\r\nHost: x\r\n"
                  + "X-Hub-Signature-256: sha256=00\r\nContent-Length: 10\r\n\r\n";
          for (int i = 0; i < 16; i++) {
            java.net.Socket socket = new java.net.Socket("127.0.0.1", hooked.server().port());
            socket
                .getOutputStream()
                .write(head.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            silent.add(socket);
          }
          // The sixteen are read without a worker, waiting for bodies that never come; the next
          // signed call is turned away until one of them ends, which the read timeout ensures.
          Answer busy = null;
          long until = System.nanoTime() + java.time.Duration.ofSeconds(30).toNanos();
          while (System.nanoTime() < until) {
            busy =
                hooked.send(
                    "POST",
                    "/mappings/items/cache/invalidate",
                    "{}",
                    null,
                    "application/json",
                    Map.of("X-Hub-Signature-256", "sha256=00"));
            if (busy.status() == 503) {
              break;
            }
            Thread.sleep(20);
          }
          assertError(busy, 503, "too many webhook bodies are being read at once; retry");
          assertThat(refusals(hooked))
              .contains(
                  "appset_mapper_requests_refused_total{reason=\"webhook_busy\",route=\"cache_invalidate\"}");
        } finally {
          for (java.net.Socket socket : silent) {
            socket.close();
          }
        }
      }
    }

    @Test
    void anExpressionThatBuildsTooLargeAString(@TempDir Path tmp) {
      String grow = "'x'" + ".replace('', '0123456789')".repeat(6);
      String growing =
          "name: growing\nvars:\n  up: {default: 'http://unset.invalid'}\nlist:\n"
              + "  request: {url: \"#{vars.up}/repos/ok/items\"}\n  items: \"$.items[*]\"\n"
              + "parameters:\n  id: \""
              + grow
              + "\"\n";
      try (PluginServer other =
          PluginServer.withYaml(tmp, Map.of("up", stub.url()), Map.of(), growing)) {
        assertError(
            other.getparams("growing", "{}"),
            500,
            "mapping 'growing': parameters.id '"
                + grow
                + "' failed on row 0: replace would build a string of 3543121 characters, more"
                + " than 1048576 allowed");
      }
    }

    @Test
    void anExpressionThatBuildsTooMuchInOneEvaluation(@TempDir Path tmp) {
      String many =
          "name: many\ninput:\n  a: {type: list}\n  b: {type: list}\n"
              + "parameters:\n  x: \"input.a.![#root.input.b]\"\n";
      StringBuilder b = new StringBuilder("[0");
      b.append(",0".repeat(99_999)).append(']');
      try (PluginServer other = PluginServer.withYaml(tmp, Map.of(), Map.of(), many)) {
        assertError(
            other.getparams(
                "many",
                "{\"input\":{\"parameters\":{\"a\":[1,2,3,4,5,6,7,8,9,10,11],\"b\":" + b + "}}}"),
            500,
            "mapping 'many': parameters.x 'input.a.![#root.input.b]' failed on row 0: a projection"
                + " would take what this expression builds past 8388608 characters (strings, and"
                + " lists and maps counted as the JSON they would write, and 16 more for each value); compute a part that"
                + " repeats once per row with a let (each let has its own budget), or narrow the"
                + " list it walks");
      }
    }

    @Test
    void anExpressionThatBuildsTooLargeANumber(@TempDir Path tmp) {
      String product =
          "name: product\ninput:\n  n: {type: number}\n"
              + "parameters:\n  x: \"input.n * input.n * input.n * input.n * input.n * input.n"
              + " * input.n * input.n * input.n * input.n * input.n\"\n";
      try (PluginServer other = PluginServer.withYaml(tmp, Map.of(), Map.of(), product)) {
        Answer answer =
            other.getparams(
                "product", "{\"input\":{\"parameters\":{\"n\":" + "9".repeat(1000) + "}}}");
        assertThat(answer.status()).isEqualTo(500);
        assertThat(answer.body())
            .endsWith(
                "failed on row 0: the operator '*' would build a number of more than 10000"
                    + " digits\"}");
      }
    }
  }

  /** forEach: a list that is not one, a key given twice (a server of their own). */
  @Nested
  class ForEachLists {
    @Test
    void aForEachListThatIsNotAListOrAKeyGivenTwice(@TempDir Path dir) {
      String yaml =
          """
          name: each
          vars: {up: {default: "http://unset.invalid"}}
          list:
            request: {url: "#{vars.up}/apps"}
            items: "$[*]"
          enrich:
            digests:
              forEach: {in: item.images, as: image, key: image.repo}
              request: {url: "#{vars.up}/v2/#{image.repo}"}
          parameters: {x: digests}
          """;
      try (StubUpstream apps = new StubUpstream();
          PluginServer each =
              PluginServer.withYaml(dir, Map.of("up", apps.url()), Map.of(), yaml)) {
        apps.on("GET /apps", Reply.json(200, "[{\"images\":{\"repo\":\"a\"}}]"));
        assertError(
            each.getparams("each", "{}"),
            502,
            "mapping 'each': enrich.digests.forEach: forEach 'item.images' needs a list, got an"
                + " object on row 0");
        apps.on("GET /apps", Reply.json(200, "[{\"images\":[{\"repo\":\"a\"},{\"repo\":\"a\"}]}]"));
        assertError(
            each.getparams("each", "{}"),
            502,
            "mapping 'each': enrich.digests.forEach: forEach key 'image.repo' gave 'a' twice, for"
                + " elements 0 and 1 on row 0");
      }
    }
  }
}
