package io.github.appsetmapper.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.PluginServer.Answer;
import io.github.appsetmapper.testing.StubUpstream;
import io.github.appsetmapper.testing.StubUpstream.Reply;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The next page as APIs also name it: a relative reference ({@code items?page=2}, {@code ?page=2},
 * {@code page/2}, {@code //host/items?page=2}) in any URL-valued field, a number or a flag written
 * as a string ({@code "2"}, {@code "true"}), a GraphQL connection read on an empty page, through
 * {@code edges}, or beside an equal sibling, and the headers a cursor walk ends beside. Without
 * 'paginate' each is a 502 naming the mode that reads it, and that mode reads every page (a
 * relative reference resolved as RFC 3986 says); what only looks like one is the last page.
 */
class NextPageReferencesTest {
  private static final String YAML = BodyPageSignalsTest.YAML;

  /**
   * A URL-valued field: its keys from the top, as the 502 writes it, and the mode that reads it.
   */
  private record Field(List<String> keys, String path, String mode) {}

  private static final List<Field> FIELDS =
      List.of(
          new Field(List.of("next"), "$.next", "next: \"$.next\""),
          new Field(List.of("links", "next"), "$.links.next", "next: \"$.links.next\""),
          new Field(
              List.of("links", "next", "href"), "$.links.next.href", "next: \"$.links.next.href\""),
          new Field(List.of("next_page"), "$.next_page", "next: \"$.next_page\""),
          new Field(
              List.of("hydra:view", "hydra:next"),
              "$['hydra:view']['hydra:next']",
              "next: \"$['hydra:view']['hydra:next']\""),
          new Field(
              List.of("meta", "pagination", "links", "next"),
              "$.meta.pagination.links.next",
              "next: \"$.meta.pagination.links.next\""));

  /** {@code {"data": [{"id": id}], keys...: value}}: value is JSON. */
  private static String body(int id, List<String> keys, String value) {
    String nested = value;
    for (int i = keys.size() - 1; i >= 0; i--) {
      nested = "{\"" + keys.get(i) + "\":" + nested + "}";
    }
    return "{\"data\":[{\"id\":" + id + "}]," + nested.substring(1);
  }

  @Test
  void aRelativeNextIsA502WithoutPaginateAndItsModeFollowsItToTheRightPage(@TempDir Path dir) {
    try (StubUpstream stub = new StubUpstream()) {
      String host = stub.url().substring("http:".length());
      // Each reference, written on page 1 of /<name>/items, and the path page 2 is served at.
      Map<String, String> forms = new LinkedHashMap<>();
      forms.put("sibling", "items?page=2");
      forms.put("query", "?page=2");
      forms.put("segments", "page/2");
      forms.put("hostonly", "%s/%s/items?page=2");
      List<String> yamls = new ArrayList<>();
      Map<String, Field> fields = new LinkedHashMap<>();
      for (int f = 0; f < FIELDS.size(); f++) {
        Field field = FIELDS.get(f);
        for (Map.Entry<String, String> form : forms.entrySet()) {
          String name = form.getKey() + f;
          fields.put(name, field);
          String reference = form.getValue().formatted(host, name);
          String first = body(1, field.keys(), "\"" + reference + "\"");
          String second = body(2, field.keys(), "null");
          Reply page2 = Reply.json(200, second);
          stub.on(
              "GET /" + name + "/items",
              r -> r.rawUri().contains("page=2") ? page2 : Reply.json(200, first));
          stub.on("GET /" + name + "/page/2", page2);
          yamls.add(YAML.formatted(name, name + "/items", "$.data[*]", ""));
          yamls.add(
              YAML.formatted(
                  name + "-paged",
                  name + "/items",
                  "$.data[*]",
                  "paginate: {" + field.mode() + "}"));
        }
      }
      try (PluginServer plugin =
          PluginServer.withYaml(
              dir, Map.of("up", stub.url()), Map.of(), yamls.toArray(String[]::new))) {
        fields.forEach(
            (name, field) -> {
              Answer single = plugin.getparams(name, "{}");
              assertThat(single.status()).as(name + ": " + single.body()).isEqualTo(502);
              assertThat(single.body())
                  .as(name)
                  .contains("(its body has a next URL at " + quoted(field.path()) + ")")
                  .contains("add 'paginate: {" + quoted(field.mode()) + "}' to read them all");
              Answer paged = plugin.getparams(name + "-paged", "{}");
              assertThat(paged.status()).as(name + "-paged: " + paged.body()).isEqualTo(200);
              assertThat(paged.body())
                  .as(name)
                  .isEqualTo("{\"output\":{\"parameters\":[{\"id\":\"1\"},{\"id\":\"2\"}]}}");
            });
      }
    }
  }

  @Test
  void whatOnlyLooksLikeANextPageIsTheLastPage(@TempDir Path dir) {
    List<String> lasts =
        List.of(
            "\"next\":\"\"",
            "\"next\":null",
            "\"next\":\"v2.0.0\"",
            "\"next\":\"2\"",
            "\"next\":\"true\"",
            "\"next\":\"page two\"",
            "\"next\":\"#top\"",
            "\"next\":\"?\"",
            "\"next\":\"mailto:ops@example.com?subject=x/y\"",
            "\"links\":{\"next\":{\"href\":null}}",
            "\"next_page\":\"none\"",
            "\"has_more\":\"false\",\"isLast\":\"true\"",
            "\"has_more\":\"yes\",\"IsTruncated\":\"1\"",
            "\"meta\":{\"next_page\":\"0\"},\"pagination\":{\"next_page\":\"2.5\"}",
            "\"paging\":{\"next_page\":\"-3\"}");
    List<String> yamls = new ArrayList<>();
    for (int i = 0; i < lasts.size(); i++) {
      yamls.add(YAML.formatted("last" + i, "last" + i, "$.values[*]", ""));
    }
    try (StubUpstream stub = new StubUpstream();
        PluginServer plugin =
            PluginServer.withYaml(
                dir, Map.of("up", stub.url()), Map.of(), yamls.toArray(String[]::new))) {
      for (int i = 0; i < lasts.size(); i++) {
        stub.on("GET /last" + i, Reply.json(200, "{\"values\":[{\"id\":1}]," + lasts.get(i) + "}"));
        Answer answer = plugin.getparams("last" + i, "{}");
        assertThat(answer.status()).as(lasts.get(i) + ": " + answer.body()).isEqualTo(200);
      }
    }
  }

  @Test
  void aNumberOrAFlagWrittenAsAStringNamesTheNextPage(@TempDir Path dir) {
    Map<String, String> said = new LinkedHashMap<>();
    said.put("\"meta\":{\"next_page\":\"2\"}", "its body names a next page at $.meta.next_page)");
    said.put(
        "\"pagination\":{\"next_page\":\" 3 \"}", "names a next page at $.pagination.next_page)");
    said.put("\"has_more\":\"true\"", "its body says $.has_more: true)");
    said.put("\"IsTruncated\":\"True\"", "its body says $.IsTruncated: true)");
    said.put("\"isLast\":\"false\"", "its body says $.isLast: false)");
    said.put("\"paging\":{\"has_next_page\":\"true\"}", "says $.paging.has_next_page: true)");
    // A flag as PHP and SQL write it (an outside tester's F6).
    said.put("\"has_more\":1", "its body says $.has_more: true)");
    said.put("\"isLastPage\":0", "its body says $.isLastPage: false)");
    List<String> yamls = new ArrayList<>();
    for (int i = 0; i < said.size(); i++) {
      yamls.add(YAML.formatted("string" + i, "string" + i, "$.values[*]", ""));
    }
    try (StubUpstream stub = new StubUpstream();
        PluginServer plugin =
            PluginServer.withYaml(
                dir, Map.of("up", stub.url()), Map.of(), yamls.toArray(String[]::new))) {
      int i = 0;
      for (Map.Entry<String, String> each : said.entrySet()) {
        String name = "string" + i++;
        stub.on("GET /" + name, Reply.json(200, "{\"values\":[{\"id\":1}]," + each.getKey() + "}"));
        Answer answer = plugin.getparams(name, "{}");
        assertThat(answer.status()).as(each.getKey() + ": " + answer.body()).isEqualTo(502);
        assertThat(answer.body()).as(each.getKey()).contains(each.getValue());
      }
    }
  }

  @Test
  void aGraphQlConnectionIsReadOnAnEmptyPageThroughEdgesAndNotInAnEqualSibling(@TempDir Path dir) {
    String connection = "{\"%s\":[%s],\"pageInfo\":{\"endCursor\":\"c\",\"hasNextPage\":%s}}";
    Map<String, String> bodies = new LinkedHashMap<>();
    bodies.put("empty", "{\"org\":{\"repos\":" + connection.formatted("nodes", "", "true") + "}}");
    bodies.put(
        "emptylast", "{\"org\":{\"repos\":" + connection.formatted("nodes", "", "false") + "}}");
    bodies.put(
        "edges",
        "{\"search\":"
            + connection.formatted("edges", "{\"cursor\":\"a\",\"node\":{\"id\":1}}", "true")
            + "}");
    String siblings =
        "{\"open\":"
            + connection.formatted("nodes", "{\"id\":1}", "true")
            + ",\"closed\":"
            + connection.formatted("nodes", "{\"id\":1}", "false")
            + "}";
    bodies.put("open", siblings);
    bodies.put("closed", siblings);
    // The orgs connection says more orgs follow: more repos under them.
    bodies.put(
        "outer",
        "{\"orgs\":"
            + connection.formatted(
                "nodes",
                "{\"repos\":" + connection.formatted("nodes", "{\"id\":1}", "false") + "}",
                "true")
            + "}");
    // A repos connection under the listing's elements, the rows: its hasNextPage is the listing's.
    bodies.put(
        "inner",
        "{\"orgs\":"
            + connection.formatted(
                "nodes",
                "{\"repos\":" + connection.formatted("nodes", "{\"id\":1}", "true") + "}",
                "false")
            + "}");
    // Each row's labels: about the row, not the listing.
    bodies.put(
        "labels",
        "{\"repos\":"
            + connection.formatted(
                "nodes",
                "{\"id\":1,\"labels\":" + connection.formatted("nodes", "\"a\"", "true") + "}",
                "false")
            + "}");
    bodies.put(
        "flag",
        "{\"org\":{\"repos\":" + connection.formatted("nodes", "{\"id\":1}", "\"true\"") + "}}");
    Map<String, String> items =
        Map.of(
            "empty", "$.data.org.repos.nodes[*]",
            "emptylast", "$.data.org.repos.nodes[*]",
            "edges", "$.data.search.edges[*].node",
            "open", "$.data.open.nodes[*]",
            "closed", "$.data.closed.nodes[*]",
            "outer", "$.data.orgs.nodes[*].repos.nodes[*]",
            "flag", "$.data.org.repos.nodes[*]",
            "inner", "$.data.orgs.nodes[*].repos.nodes[*]",
            "labels", "$.data.repos.nodes[*]");
    Map<String, String> said = new LinkedHashMap<>();
    said.put(
        "empty",
        "(its body says $.data.org.repos.pageInfo.hasNextPage: true) and the listing has no"
            + " 'paginate', so every row after its first page would be missing; add 'paginate:"
            + " {cursor: {from: \\\"$.data.org.repos.pageInfo.endCursor\\\", until:"
            + " \\\"!response.body.data.org.repos.pageInfo.hasNextPage\\\"}}'");
    said.put("emptylast", null);
    said.put("edges", "(its body says $.data.search.pageInfo.hasNextPage: true)");
    said.put("open", "(its body says $.data.open.pageInfo.hasNextPage: true)");
    said.put("closed", null);
    said.put(
        "outer", "(its body says $.data.orgs.pageInfo.hasNextPage: true) and the listing has no");
    said.put("flag", "(its body says $.data.org.repos.pageInfo.hasNextPage: true)");
    said.put(
        "inner",
        "(its body says $.data.orgs.nodes[0].repos.pageInfo.hasNextPage: true) and the listing"
            + " has no 'paginate', so every row after its first page would be missing; no paginate"
            + " mode reads this API's next page");
    said.put("labels", null);
    eachAnswers(dir, items, bodies, said);
  }

  /**
   * The connections read are those the items path walks through, found from the path (an outside
   * tester's F2 and F5): each org's repos whose nodes are all filtered out, or empty, still say
   * more repos follow; a count-only sibling the path does not name is not read.
   */
  @Test
  void theConnectionsTheItemsPathWalksThroughAreReadWhateverTheirRows(@TempDir Path dir) {
    String connection = "{\"%s\":[%s],\"pageInfo\":{\"endCursor\":\"c\",\"hasNextPage\":%s}}";
    String archived = "{\"id\":1,\"arch\":true}";
    String org = "{\"login\":\"%s\",\"repos\":" + connection.replace("%s", "%%s") + "}";
    Map<String, String> bodies = new LinkedHashMap<>();
    bodies.put(
        "allfiltered",
        "{\"orgs\":"
            + connection.formatted(
                "nodes", org.formatted("a").formatted("nodes", archived, "true"), "false")
            + "}");
    bodies.put(
        "onefiltered",
        "{\"orgs\":"
            + connection.formatted(
                "nodes",
                org.formatted("a").formatted("nodes", archived, "true")
                    + ","
                    + org.formatted("b").formatted("nodes", "{\"id\":2,\"arch\":false}", "false"),
                "false")
            + "}");
    bodies.put(
        "innerempty",
        "{\"orgs\":"
            + connection.formatted(
                "nodes", org.formatted("a").formatted("nodes", "", "true"), "false")
            + "}");
    // A count-only connection (first: 0) beside the listing's: its hasNextPage is about issues.
    bodies.put(
        "countonly",
        "{\"viewer\":{\"repositories\":"
            + connection.formatted("nodes", "", "false")
            + ",\"issues\":{\"totalCount\":5,\"nodes\":[],\"pageInfo\":{\"hasNextPage\":true}}}}");
    String filtered = "$.data.orgs.nodes[*].repos.nodes[?(@.arch==false)]";
    Map<String, String> items =
        Map.of(
            "allfiltered",
            filtered,
            "onefiltered",
            filtered,
            "innerempty",
            "$.data.orgs.nodes[*].repos.nodes[*]",
            "countonly",
            "$.data.viewer.repositories.nodes[*]");
    Map<String, String> said = new LinkedHashMap<>();
    said.put(
        "allfiltered", "(its body says $.data.orgs.nodes[0].repos.pageInfo.hasNextPage: true)");
    said.put(
        "onefiltered", "(its body says $.data.orgs.nodes[0].repos.pageInfo.hasNextPage: true)");
    said.put("innerempty", "(its body says $.data.orgs.nodes[0].repos.pageInfo.hasNextPage: true)");
    said.put("countonly", null);
    eachAnswers(dir, items, bodies, said);
  }

  @Test
  void aCursorWalkThatEndsBesideAHeaderNamingANextPageIsA502(@TempDir Path dir) {
    String paged = "paginate: {cursor: {param: after, from: \"$.cursor\"}}";
    try (StubUpstream stub = new StubUpstream();
        PluginServer plugin =
            PluginServer.withYaml(
                dir,
                Map.of("up", stub.url()),
                Map.of(),
                YAML.formatted("linked", "linked", "$.data[*]", paged),
                YAML.formatted("numbered", "numbered", "$.data[*]", paged),
                YAML.formatted(
                    "stopped",
                    "linked",
                    "$.data[*]",
                    "paginate: {cursor: {param: after, from: \"$.cursor\"}, maxPages: 1,"
                        + " onMaxPages: stop}"))) {
      stub.on(
          "GET /linked",
          Reply.json(200, "{\"data\":[{\"id\":1}],\"cursor\":null}")
              .withHeader("Link", "<" + stub.url() + "/linked?page=2>; rel=\"next\""));
      stub.on(
          "GET /numbered",
          Reply.json(200, "{\"data\":[{\"id\":1}],\"cursor\":\"\"}")
              .withHeader("X-Next-Page", "2"));
      Answer linked = plugin.getparams("linked", "{}");
      linked.expect(
          502,
          "the listing ends at page 1 (no cursor) while its Link header has a"
              + " rel=\\\"next\\\" link");
      Answer numbered = plugin.getparams("numbered", "{}");
      numbered.expect(502, "the listing ends at page 1 (no cursor) while it says X-Next-Page: 2");
      Answer stopped = plugin.getparams("stopped", "{}");
      stopped.expect(200);
    }
  }

  @Test
  void aLinkOrARedirectThatIsAQueryAloneKeepsThePath(@TempDir Path dir) {
    try (StubUpstream stub = new StubUpstream();
        PluginServer plugin =
            PluginServer.withYaml(
                dir,
                Map.of("up", stub.url()),
                Map.of(),
                YAML.formatted("linked", "api/linked", "$.data[*]", "paginate: {linkHeader: next}"),
                YAML.formatted("moved", "api/moved", "$.data[*]", ""))) {
      stub.on(
          "GET /api/linked",
          r ->
              r.rawUri().contains("page=2")
                  ? Reply.json(200, "{\"data\":[{\"id\":2}]}")
                  : Reply.json(200, "{\"data\":[{\"id\":1}]}")
                      .withHeader("Link", "<?page=2>; rel=\"next\""));
      stub.on(
          "GET /api/moved",
          r ->
              r.rawUri().contains("v=2")
                  ? Reply.json(200, "{\"data\":[{\"id\":3}]}")
                  : Reply.status(302).withHeader("Location", "?v=2"));
      Answer linked = plugin.getparams("linked", "{}");
      linked.expect(200);
      assertThat(linked.body())
          .isEqualTo("{\"output\":{\"parameters\":[{\"id\":\"1\"},{\"id\":\"2\"}]}}");
      Answer moved = plugin.getparams("moved", "{}");
      moved.expect(200);
      assertThat(moved.body()).isEqualTo("{\"output\":{\"parameters\":[{\"id\":\"3\"}]}}");
    }
  }

  private static String quoted(String text) {
    return text.replace("\"", "\\\"");
  }

  /**
   * Each named listing (its items path, its body under {@code data}) answers a 502 holding the line
   * {@code said} gives, or a 200 where it gives null.
   */
  private static void eachAnswers(
      Path dir, Map<String, String> items, Map<String, String> bodies, Map<String, String> said) {
    String[] yamls =
        said.keySet().stream()
            .map(n -> YAML.formatted(n, n, items.get(n), ""))
            .toArray(String[]::new);
    try (StubUpstream stub = new StubUpstream();
        PluginServer plugin =
            PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of(), yamls)) {
      SoftAssertions.assertSoftly(
          softly ->
              said.forEach(
                  (name, expected) -> {
                    stub.on("GET /" + name, Reply.json(200, "{\"data\":" + bodies.get(name) + "}"));
                    Answer answer = plugin.getparams(name, "{}");
                    softly
                        .assertThat(answer.status())
                        .as(name + ": " + answer.body())
                        .isEqualTo(expected == null ? 200 : 502);
                    if (expected != null) {
                      softly.assertThat(answer.body()).as(name).contains(expected);
                    }
                  }));
    }
  }
}
