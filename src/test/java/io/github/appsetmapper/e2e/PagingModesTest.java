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

/** {@code cursor} and {@code page} pagination over real HTTP, on list and per enrich row. */
class PagingModesTest {
  @TempDir Path dir;

  @Test
  void cursorFollowsTheBodysCursorUntilThereIsNone() {
    String yaml =
        """
        name: c
        vars: {up: {default: "http://unset.invalid"}}
        list:
          request:
            url: "#{vars.up}/things"
            query: {limit: "2"}
          items: "$.data[*]"
          paginate: {cursor: {param: after, from: "$.meta.next"}}
        parameters: {id: item.id}
        """;
    try (StubUpstream stub = new StubUpstream()) {
      stub.on(
          "GET /things",
          r ->
              switch (r.rawUri()) {
                case "/things?limit=2" ->
                    Reply.json(
                        200, "{\"data\":[{\"id\":1},{\"id\":2}],\"meta\":{\"next\":\"c2=\"}}");
                case "/things?limit=2&after=c2%3D" ->
                    Reply.json(200, "{\"data\":[{\"id\":3}],\"meta\":{\"next\":null}}");
                default -> Reply.json(400, "{\"message\":\"bad cursor " + r.rawUri() + "\"}");
              });
      try (PluginServer plugin =
          PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of(), yaml)) {
        assertThat(plugin.getparams("c", "{}").body())
            .isEqualTo(
                "{\"output\":{\"parameters\":[{\"id\":\"1\"},{\"id\":\"2\"},{\"id\":\"3\"}]}}");
      }
      assertThat(stub.calls()).isEqualTo(2);
    }
  }

  @Test
  void aGraphqlCursorInTheBodyStopsWhenUntilSaysSo() {
    String yaml =
        """
        name: gql
        vars: {up: {default: "http://unset.invalid"}}
        list:
          request:
            method: POST
            url: "#{vars.up}/graphql"
            body:
              query: "query($after: String) { repos(after: $after) { nodes { name } pageInfo { endCursor hasNextPage } } }"
              variables: {after: "#{page.cursor}", page: "#{page.number}"}
          items: "$.data.repos.nodes[*]"
          paginate:
            cursor:
              from: "$.data.repos.pageInfo.endCursor"
              until: "!response.body.data.repos.pageInfo.hasNextPage"
        parameters: {name: item.name}
        """;
    try (StubUpstream stub = new StubUpstream()) {
      stub.on(
          "POST /graphql",
          r ->
              r.bodyText().contains("\"after\":null,\"page\":1")
                  ? Reply.json(
                      200,
                      "{\"data\":{\"repos\":{\"nodes\":[{\"name\":\"a\"}],\"pageInfo\":{\"endCursor\":\"Y3Vy\",\"hasNextPage\":true}}}}")
                  : r.bodyText().contains("\"after\":\"Y3Vy\",\"page\":2")
                      ? Reply.json(
                          200,
                          "{\"data\":{\"repos\":{\"nodes\":[{\"name\":\"b\"}],\"pageInfo\":{\"endCursor\":\"end\",\"hasNextPage\":false}}}}")
                      : Reply.json(400, "{\"message\":\"unexpected " + r.bodyText() + "\"}"));
      try (PluginServer plugin =
          PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of(), yaml)) {
        Answer answer = plugin.getparams("gql", "{}");
        assertThat(answer.body())
            .isEqualTo("{\"output\":{\"parameters\":[{\"name\":\"a\"},{\"name\":\"b\"}]}}");
      }
      assertThat(stub.calls()).isEqualTo(2);
    }
  }

  @Test
  void aCursorThatDoesNotMoveIsAnError() {
    String yaml =
        """
        name: c
        vars: {up: {default: "http://unset.invalid"}}
        list:
          request: {url: "#{vars.up}/things"}
          items: "$.data[*]"
          paginate: {cursor: {param: after, from: "$.next"}}
        parameters: {id: item.id}
        """;
    try (StubUpstream stub = new StubUpstream()) {
      stub.on("GET /things", Reply.json(200, "{\"data\":[{\"id\":1}],\"next\":\"same\"}"));
      try (PluginServer plugin =
          PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of(), yaml)) {
        assertThat(plugin.getparams("c", "{}").body())
            .isEqualTo(
                "{\"error\":\"mapping 'c': list GET "
                    + stub.url()
                    + "/things?after=same: the cursor did not change ('$['next']' gave 'same'"
                    + " twice)\"}");
      }
    }
  }

  private Answer pages(String paginate, java.util.function.Function<String, Reply> byQuery) {
    String yaml =
        """
        name: p
        vars: {up: {default: "http://unset.invalid"}}
        list:
          request: {url: "#{vars.up}/projects"}
          items: "$[*]"
          paginate: PAGINATE
        parameters: {id: item}
        """
            .replace("PAGINATE", paginate);
    stub.on(
        "GET /projects",
        r -> byQuery.apply(r.rawUri().contains("?") ? r.rawUri().replaceAll(".*\\?", "") : ""));
    try (PluginServer plugin =
        PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of(), yaml)) {
      return plugin.getparams("p", "{}");
    }
  }

  private StubUpstream stub;

  @org.junit.jupiter.api.BeforeEach
  void stub() {
    stub = new StubUpstream();
  }

  @org.junit.jupiter.api.AfterEach
  void closeStub() {
    stub.close();
  }

  private static final Reply UNEXPECTED = Reply.json(400, "{\"message\":\"unexpected\"}");

  @Test
  void aShortPageIsNotTheLastWhenTheApiCapsThePageSize() {
    // GitLab caps per_page at 100: asked for 500, it answers 100 a page and says where the next is.
    Answer answer =
        pages(
            "{page: {param: page, size: 500, sizeParam: per_page}}",
            query ->
                switch (query) {
                  case "page=1&per_page=500" ->
                      Reply.json(200, "[1,2]").withHeader("X-Next-Page", "2");
                  case "page=2&per_page=500" ->
                      Reply.json(200, "[3,4]").withHeader("X-Next-Page", "3");
                  case "page=3&per_page=500" ->
                      Reply.json(200, "[5]").withHeader("X-Next-Page", "");
                  default -> UNEXPECTED;
                });
    assertThat(answer.body())
        .isEqualTo(
            "{\"output\":{\"parameters\":[{\"id\":\"1\"},{\"id\":\"2\"},{\"id\":\"3\"},{\"id\":\"4\"},{\"id\":\"5\"}]}}");
    assertThat(stub.calls()).isEqualTo(3);
  }

  @Test
  void aLinkHeaderTellsTheEndFirst() {
    Answer answer =
        pages(
            "{page: {param: page, size: 100, sizeParam: per_page}}",
            query ->
                switch (query) {
                  case "page=1&per_page=100" ->
                      Reply.json(200, "[1]")
                          .withHeader("Link", "<" + stub.url() + "/projects?page=2>; rel=\"next\"")
                          .withHeader("X-Next-Page", "");
                  case "page=2&per_page=100" ->
                      Reply.json(200, "[2]")
                          .withHeader("Link", "<" + stub.url() + "/projects?page=1>; rel=\"prev\"")
                          .withHeader("X-Next-Page", "3");
                  default -> UNEXPECTED;
                });
    assertThat(answer.body())
        .isEqualTo("{\"output\":{\"parameters\":[{\"id\":\"1\"},{\"id\":\"2\"}]}}");
  }

  @Test
  void totalPagesOrTotalRowsTellTheEnd() {
    Answer byPages =
        pages(
            "{page: {param: page}}",
            query ->
                switch (query) {
                  case "page=1" -> Reply.json(200, "[1]").withHeader("X-Total-Pages", "2");
                  case "page=2" -> Reply.json(200, "[2]").withHeader("X-Total-Pages", "2");
                  default -> UNEXPECTED;
                });
    assertThat(byPages.body())
        .isEqualTo("{\"output\":{\"parameters\":[{\"id\":\"1\"},{\"id\":\"2\"}]}}");
    Answer byRows =
        pages(
            "{page: {param: page}}",
            query ->
                switch (query) {
                  case "page=1" -> Reply.json(200, "[1,2]").withHeader("X-Total", "3");
                  case "page=2" -> Reply.json(200, "[3]").withHeader("X-Total", "3");
                  default -> UNEXPECTED;
                });
    assertThat(byRows.body())
        .isEqualTo("{\"output\":{\"parameters\":[{\"id\":\"1\"},{\"id\":\"2\"},{\"id\":\"3\"}]}}");
  }

  @Test
  void withoutHeadersTheListingEndsAtAnEmptyPageAndMaxPagesStillHolds() {
    java.util.function.Function<String, Reply> rows =
        query ->
            switch (query) {
              case "p=1" -> Reply.json(200, "[\"a\"]");
              case "p=2" -> Reply.json(200, "[\"b\"]");
              case "p=3" -> Reply.json(200, "[]");
              default -> UNEXPECTED;
            };
    assertThat(pages("{page: {param: p}, maxPages: 2}", rows).body())
        .isEqualTo(
            "{\"error\":\"mapping 'p': list GET "
                + stub.url()
                + "/projects?p=1: more than maxPages (2) pages; raise maxPages or set"
                + " onMaxPages: stop\"}");
    assertThat(pages("{page: {param: p}, maxPages: 5}", rows).body())
        .isEqualTo("{\"output\":{\"parameters\":[{\"id\":\"a\"},{\"id\":\"b\"}]}}");
  }

  @Test
  void stopOnShortPageIsTheOldRuleAsAnOptIn() {
    Answer answer =
        pages(
            "{page: {param: page, start: 0, size: 2, sizeParam: per_page, stopOnShortPage: true}}",
            query ->
                switch (query) {
                  case "page=0&per_page=2" -> Reply.json(200, "[1,2]");
                  case "page=1&per_page=2" -> Reply.json(200, "[3]");
                  default -> UNEXPECTED;
                });
    assertThat(answer.body())
        .isEqualTo("{\"output\":{\"parameters\":[{\"id\":\"1\"},{\"id\":\"2\"},{\"id\":\"3\"}]}}");
    assertThat(stub.calls()).isEqualTo(2);
  }

  @Test
  void aPageTheSameAsTheOneBeforeIsAnError() {
    // An API that clamps the page number answers its last page for every higher number.
    Answer answer =
        pages(
            "{page: {param: page}}",
            query -> query.equals("page=1") ? Reply.json(200, "[1,2]") : Reply.json(200, "[3]"));
    assertThat(answer.status()).isEqualTo(502);
    assertThat(answer.body())
        .isEqualTo(
            "{\"error\":\"mapping 'p': list GET "
                + stub.url()
                + "/projects?page=3: page 3 answered the same as page 2 (an API that repeats its"
                + " last page for any higher number?); end the listing with endStatus or"
                + " stopOnShortPage, or use linkHeader\"}");
  }

  @Test
  void a404AfterTheFirstPageIsAnErrorUnlessTheMappingSaysItIsTheEnd() {
    java.util.function.Function<String, Reply> rows =
        query ->
            switch (query) {
              case "page=1" -> Reply.json(200, "[1]");
              case "page=2" -> Reply.json(200, "[2]");
              default -> Reply.json(404, "{\"message\":\"no such page\"}");
            };
    assertThat(pages("{page: {param: page}}", rows).body())
        .isEqualTo(
            "{\"error\":\"mapping 'p': list GET "
                + stub.url()
                + "/projects?page=3: answered 404 (no such page)\"}");
    assertThat(pages("{page: {param: page, endStatus: [404]}}", rows).body())
        .isEqualTo("{\"output\":{\"parameters\":[{\"id\":\"1\"},{\"id\":\"2\"}]}}");
  }

  @Test
  void whatHoldsTheCursorMustExistWhileTheCursorMayBeAbsent() {
    String paginate = "{cursor: {param: after, from: \"$.meta.next\"}}";
    String yaml =
        """
        name: c
        vars: {up: {default: "http://unset.invalid"}}
        list:
          request: {url: "#{vars.up}/things"}
          items: "$.data[*]"
          paginate: PAGINATE
        parameters: {id: item}
        """
            .replace("PAGINATE", paginate);
    stub.on(
        "GET /things",
        r ->
            r.rawUri().contains("after=c2")
                ? Reply.json(200, "{\"data\":[3],\"meta\":{}}")
                : r.rawUri().contains("after=")
                    ? Reply.json(200, "{\"data\":[],\"message\":\"shard 2 unavailable\"}")
                    : Reply.json(200, "{\"data\":[1,2],\"meta\":{\"next\":\"c2\"}}"));
    try (PluginServer plugin =
        PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of(), yaml)) {
      assertThat(plugin.getparams("c", "{}").body())
          .isEqualTo(
              "{\"output\":{\"parameters\":[{\"id\":\"1\"},{\"id\":\"2\"},{\"id\":\"3\"}]}}");
    }
    stub.on(
        "GET /things",
        r ->
            r.rawUri().contains("after=")
                ? Reply.json(200, "{\"data\":[],\"message\":\"shard 2 unavailable\"}")
                : Reply.json(200, "{\"data\":[1,2],\"meta\":{\"next\":\"c2\"}}"));
    try (PluginServer plugin =
        PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of(), yaml)) {
      assertThat(plugin.getparams("c", "{}").body())
          .isEqualTo(
              "{\"error\":\"mapping 'c': list GET "
                  + stub.url()
                  + "/things?after=c2: cursor.from '$['meta']['next']': $['meta'] is missing or"
                  + " null\"}");
    }
  }

  @Test
  void aNextUrlMayBeAbsentOnTheLastPageButTheBodyMustHoldIt() {
    String yaml =
        """
        name: n
        vars: {up: {default: "http://unset.invalid"}}
        list:
          request: {url: "#{vars.up}/values"}
          items: "$.values[*]"
          paginate: {next: "$.next"}
        parameters: {id: item}
        """;
    stub.on(
        "GET /values",
        r ->
            r.rawUri().contains("page=2")
                ? Reply.json(200, "{\"values\":[2]}")
                : Reply.json(
                    200, "{\"values\":[1],\"next\":\"" + stub.url() + "/values?page=2\"}"));
    try (PluginServer plugin =
        PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of(), yaml)) {
      assertThat(plugin.getparams("n", "{}").body())
          .isEqualTo("{\"output\":{\"parameters\":[{\"id\":\"1\"},{\"id\":\"2\"}]}}");
    }
  }

  @Test
  void aNextLinkBackToAPageAlreadyFetchedIsALoop() {
    String yaml =
        """
        name: l
        vars: {up: {default: "http://unset.invalid"}}
        list:
          request: {url: "#{vars.up}/loop"}
          items: "$[*]"
          paginate: {linkHeader: next, maxPages: 50}
        parameters: {id: item}
        """;
    stub.on(
        "GET /loop",
        r ->
            Reply.json(200, r.rawUri().contains("p=2") ? "[2]" : "[1]")
                .withHeader(
                    "Link",
                    "<"
                        + stub.url()
                        + (r.rawUri().contains("p=2") ? "/loop" : "/loop?p=2")
                        + ">; rel=\"next\""));
    try (PluginServer plugin =
        PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of(), yaml)) {
      assertThat(plugin.getparams("l", "{}").body())
          .isEqualTo(
              "{\"error\":\"mapping 'l': list GET "
                  + stub.url()
                  + "/loop?p=2: the next page is one already fetched ("
                  + stub.url()
                  + "/loop), a loop\"}");
    }
    assertThat(stub.calls()).isEqualTo(2);
  }

  @Test
  void eachEnrichRowPagesOnItsOwn() {
    String yaml =
        """
        name: e
        concurrency: 4
        vars: {up: {default: "http://unset.invalid"}}
        list:
          request: {url: "#{vars.up}/repos"}
          items: "$[*]"
        enrich:
          tags:
            request: {url: "#{vars.up}/repos/#{item}/tags"}
            select: "$.tags[*]"
            paginate: {cursor: {param: last, from: "$.last"}}
        parameters: {repo: item, tags: tags}
        keepTypes: true
        """;
    try (StubUpstream stub = new StubUpstream()) {
      stub.on("GET /repos", Reply.json(200, "[\"a\",\"b\",\"c\"]"));
      stub.otherwise(
          r -> {
            String repo = r.rawUri().split("/")[2];
            // repo a has 3 pages, b 2, c 1: the cursors interleave while rows run in parallel.
            int pages = repo.equals("a") ? 3 : repo.equals("b") ? 2 : 1;
            int page =
                r.rawUri().contains("last=")
                    ? Integer.parseInt(r.rawUri().replaceAll(".*last=" + repo, ""))
                    : 0;
            String next = page + 1 < pages ? "\"" + repo + (page + 1) + "\"" : "null";
            return Reply.json(200, "{\"tags\":[\"" + repo + page + "\"],\"last\":" + next + "}")
                .delayed(30);
          });
      try (PluginServer plugin =
          PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of(), yaml)) {
        assertThat(plugin.getparams("e", "{}").body())
            .isEqualTo(
                "{\"output\":{\"parameters\":[{\"repo\":\"a\",\"tags\":[\"a0\",\"a1\",\"a2\"]},"
                    + "{\"repo\":\"b\",\"tags\":[\"b0\",\"b1\"]},{\"repo\":\"c\",\"tags\":[\"c0\"]}]}}");
      }
      assertThat(stub.calls()).isEqualTo(1 + 3 + 2 + 1);
    }
  }
}
