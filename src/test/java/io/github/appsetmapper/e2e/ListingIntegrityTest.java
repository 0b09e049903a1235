package io.github.appsetmapper.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.PluginServer.Answer;
import io.github.appsetmapper.testing.StubUpstream;
import io.github.appsetmapper.testing.StubUpstream.Reply;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A paginated listing is one moment of the upstream: its pages are cached, shared and stood in for
 * whole, never page by page, and its credentials never follow a next link to another origin.
 */
class ListingIntegrityTest {
  /**
   * An upstream listing of ids, two per page, that a test can change between getparams: page mode
   * ({@code ?page=N}, {@code X-Next-Page}) and cursor mode ({@code ?after=ID}) over the same rows.
   */
  private static final class Rows {
    final List<Integer> ids = new CopyOnWriteArrayList<>(List.of(1, 2, 3, 4));

    Reply page(StubUpstream.Received r) {
      String query = r.rawUri().contains("?") ? r.rawUri().substring(r.rawUri().indexOf('?')) : "";
      int from = 0;
      if (query.contains("page=")) {
        from = (Integer.parseInt(query.replaceAll(".*page=(\\d+).*", "$1")) - 1) * 2;
      } else if (query.contains("after=")) {
        from = ids.indexOf(Integer.parseInt(query.replaceAll(".*after=(\\d+).*", "$1"))) + 1;
      }
      List<Integer> page = ids.subList(Math.min(from, ids.size()), Math.min(from + 2, ids.size()));
      boolean more = from + 2 < ids.size();
      String body =
          "{\"data\":"
              + page
              + ",\"meta\":{\"after\":"
              + (more ? page.get(page.size() - 1) : "null")
              + "}}";
      return Reply.json(200, body)
          .withHeader("X-Next-Page", more ? String.valueOf(from / 2 + 2) : "");
    }
  }

  private static String mapping(String paginate) {
    return """
        name: pages
        vars: {up: {default: "http://unset.invalid"}}
        list:
          request:
            url: "#{vars.up}/items"
            cache: {ttl: 10m, staleIfError: 1h}
          items: "$.data[*]"
          paginate: PAGINATE
        parameters: {id: item}
        """
        .replace("PAGINATE", paginate);
  }

  private static List<String> ids(Answer answer) {
    assertThat(answer.status()).as(answer.body()).isEqualTo(200);
    return List.of(answer.body().replaceAll("[^0-9,]", "").split(","));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"{page: {param: page}}", "{cursor: {param: after, from: \"$.meta.after\"}}"})
  void aRowInsertedAtTheFrontBetweenTwoGetparamsIsNeverLost(String paginate, @TempDir Path dir) {
    Rows rows = new Rows();
    try (StubUpstream stub = new StubUpstream()) {
      stub.on("GET /items", rows::page);
      try (PluginServer plugin =
          PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of(), mapping(paginate))) {
        assertThat(ids(plugin.getparams("pages", "{}"))).containsExactly("1", "2", "3", "4");
        rows.ids.add(0, 0);
        // Either the whole listing kept a minute ago or the whole listing now: never a fresh page 1
        // joined to a kept page 2, which would lose row 2 (pushed from page 1 to page 2).
        assertThat(ids(plugin.getparams("pages", "{\"applicationSetName\":\"other\"}")))
            .containsExactly("1", "2", "3", "4");
        int calls = stub.calls();
        plugin.send(
            "POST", "/mappings/pages/cache/invalidate", "", "Bearer " + PluginServer.TOKEN, null);
        assertThat(ids(plugin.getparams("pages", "{}"))).containsExactly("0", "1", "2", "3", "4");
        assertThat(stub.calls()).isEqualTo(calls + 3);
      }
    }
  }

  @Test
  void aCachedListingIsKeptWholeAndServedWithoutACall(@TempDir Path dir) {
    String yaml =
        """
        name: pages
        vars: {up: {default: "http://unset.invalid"}}
        list:
          request:
            url: "#{vars.up}/items"
            cache: {ttl: 10m, staleIfError: 1h}
          items: "$[*]"
          paginate: {linkHeader: next}
        parameters: {id: item.id}
        """;
    try (StubUpstream stub = new StubUpstream()) {
      stub.on(
          "GET /items",
          r ->
              r.rawUri().contains("page=2")
                  ? Reply.json(200, "[{\"id\":2}]")
                  : Reply.json(200, "[{\"id\":1}]")
                      .withHeader("Link", "<" + stub.url() + "/items?page=2>; rel=\"next\""));
      try (PluginServer plugin =
          PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of(), yaml)) {
        String expected = "{\"output\":{\"parameters\":[{\"id\":\"1\"},{\"id\":\"2\"}]}}";
        assertThat(plugin.getparams("pages", "{}").body()).isEqualTo(expected);
        assertThat(plugin.getparams("pages", "{\"applicationSetName\":\"b\"}").body())
            .isEqualTo(expected);
        assertThat(stub.calls()).isEqualTo(2);
      }
    }
  }

  @Test
  void aFailingPageLetsTheLastGoodListingStandInWhole(@TempDir Path dir) {
    Rows rows = new Rows();
    boolean[] down = {false};
    try (StubUpstream stub = new StubUpstream()) {
      stub.on(
          "GET /items",
          r -> down[0] && r.rawUri().contains("page=2") ? Reply.status(503) : rows.page(r));
      try (PluginServer plugin =
          PluginServer.withYaml(
              dir, Map.of("up", stub.url()), Map.of(), mapping("{page: {param: page}}"))) {
        assertThat(ids(plugin.getparams("pages", "{}"))).containsExactly("1", "2", "3", "4");
        rows.ids.add(0, 0);
        down[0] = true;
        plugin.send(
            "POST", "/mappings/pages/cache/invalidate", "", "Bearer " + PluginServer.TOKEN, null);
        // Page 1 is fresh and shows row 0, page 2 fails: the whole listing kept before answers,
        // not the fresh page 1 with the kept page 2 (which would lose row 2).
        Answer answer = plugin.getparams("pages", "{}");
        assertThat(ids(answer)).containsExactly("1", "2", "3", "4");
        assertThat(answer.headers().get("x-appset-mapper-stale")).containsExactly("true");
      }
    }
  }

  @Test
  void aListingItsOwnFailWhenRefusesIsNotKept(@TempDir Path dir) {
    String yaml =
        """
        name: gql
        vars: {up: {default: "http://unset.invalid"}}
        list:
          request:
            url: "#{vars.up}/graphql"
            cache: {ttl: 10m}
            failWhen: "response.body['errors'] != null"
          items: "$.data[*]"
        parameters: {id: item}
        """;
    boolean[] failing = {true};
    try (StubUpstream stub = new StubUpstream()) {
      stub.on(
          "GET /graphql",
          r ->
              failing[0]
                  ? Reply.json(200, "{\"data\":[],\"errors\":[{\"message\":\"timeout\"}]}")
                  : Reply.json(200, "{\"data\":[1]}"));
      try (PluginServer plugin =
          PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of(), yaml)) {
        assertThat(plugin.getparams("gql", "{}").status()).isEqualTo(502);
        failing[0] = false;
        assertThat(plugin.getparams("gql", "{}").body())
            .isEqualTo("{\"output\":{\"parameters\":[{\"id\":\"1\"}]}}");
      }
    }
  }

  @Test
  void credentialsNeverFollowANextLinkToAnotherOrigin(@TempDir Path dir) {
    try (StubUpstream stub = new StubUpstream();
        StubUpstream other = new StubUpstream()) {
      String yaml =
          """
          name: linked
          allowedHosts: ["127.0.0.1"]
          vars: {up: {default: "http://unset.invalid"}}
          secrets: {api: {env: API_TOKEN}}
          list:
            request:
              url: "#{vars.up}/items"
              auth: {bearer: {secret: api}}
            items: "$[*]"
            paginate: {linkHeader: next}
          parameters: {id: item.id}
          """;
      stub.on(
          "GET /items",
          Reply.json(200, "[{\"id\":1}]")
              .withHeader("Link", "<" + other.url() + "/items>; rel=\"next\""));
      try (PluginServer plugin =
          PluginServer.withYaml(
              dir, Map.of("up", stub.url()), Map.of("API_TOKEN", "tok-abcdef"), yaml)) {
        Answer answer = plugin.getparams("linked", "{}");
        assertThat(answer.status()).isEqualTo(502);
        assertThat(answer.body())
            .isEqualTo(
                "{\"error\":\"mapping 'linked': list GET "
                    + stub.url()
                    + "/items: next page on another origin '"
                    + other.url()
                    + "' refused: the request carries credentials (auth)\"}");
        assertThat(other.calls()).isZero();
      }
    }
  }
}
