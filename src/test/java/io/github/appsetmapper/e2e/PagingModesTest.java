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
                    + "/things?after=same: the cursor did not change ('$['next']' gave the same"
                    + " value twice)\"}");
      }
    }
  }

  @Test
  void pageNumbersUntilAShortPageWithThePageSizeSent() {
    String yaml =
        """
        name: p
        vars: {up: {default: "http://unset.invalid"}}
        list:
          request: {url: "#{vars.up}/projects"}
          items: "$[*]"
          paginate: {page: {param: page, start: 0, size: 2, sizeParam: per_page}, maxPages: 5}
        parameters: {id: item}
        """;
    try (StubUpstream stub = new StubUpstream()) {
      stub.on(
          "GET /projects",
          r ->
              switch (r.rawUri()) {
                case "/projects?page=0&per_page=2" -> Reply.json(200, "[1,2]");
                case "/projects?page=1&per_page=2" -> Reply.json(200, "[3,4]");
                case "/projects?page=2&per_page=2" -> Reply.json(200, "[5]");
                default -> Reply.json(400, "{\"message\":\"unexpected\"}");
              });
      try (PluginServer plugin =
          PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of(), yaml)) {
        assertThat(plugin.getparams("p", "{}").body())
            .isEqualTo(
                "{\"output\":{\"parameters\":[{\"id\":\"1\"},{\"id\":\"2\"},{\"id\":\"3\"},{\"id\":\"4\"},{\"id\":\"5\"}]}}");
      }
      assertThat(stub.calls()).isEqualTo(3);
    }
  }

  @Test
  void withoutASizeAnEmptyPageIsTheLastAndMaxPagesStillHolds() {
    String yaml =
        """
        name: p
        vars: {up: {default: "http://unset.invalid"}}
        list:
          request: {url: "#{vars.up}/projects"}
          items: "$[*]"
          paginate: {page: {param: p}, maxPages: 2}
        parameters: {id: item}
        """;
    try (StubUpstream stub = new StubUpstream()) {
      stub.on("GET /projects", r -> Reply.json(200, r.rawUri().endsWith("p=3") ? "[]" : "[\"x\"]"));
      try (PluginServer plugin =
          PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of(), yaml)) {
        assertThat(plugin.getparams("p", "{}").body())
            .isEqualTo(
                "{\"error\":\"mapping 'p': list GET "
                    + stub.url()
                    + "/projects?p=1: more than maxPages (2) pages; raise maxPages or set"
                    + " onMaxPages: stop\"}");
      }
      try (PluginServer plugin =
          PluginServer.withYaml(
              dir,
              Map.of("up", stub.url()),
              Map.of(),
              yaml.replace("maxPages: 2", "maxPages: 5"))) {
        assertThat(plugin.getparams("p", "{}").body())
            .isEqualTo("{\"output\":{\"parameters\":[{\"id\":\"x\"},{\"id\":\"x\"}]}}");
      }
    }
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
