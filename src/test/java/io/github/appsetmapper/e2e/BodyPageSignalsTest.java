package io.github.appsetmapper.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.PluginServer.Answer;
import io.github.appsetmapper.testing.StubUpstream;
import io.github.appsetmapper.testing.StubUpstream.Reply;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A next page named in the body as the common APIs name it (Azure's nextLink, Kubernetes' continue,
 * Stripe's has_more, Slack's next_cursor, AWS's NextToken and IsTruncated, Laravel's next_page_url,
 * a pagination object's next, GraphQL's hasNextPage...): without 'paginate' a 502 naming a mode
 * that reads it, and with that mode every page; the last page spelled as each API spells it is a
 * 200. A paginated mode that ends while the body names a next page is a 502; a listing read through
 * 'value' or a whole body is checked as one read through 'select'.
 */
class BodyPageSignalsTest {
  /** A listing of `id`s: name, path, items, a paginate line (NextPageReferencesTest too). */
  static final String YAML =
      """
      name: %s
      vars: {up: {default: "http://unset.invalid"}}
      list:
        request: {url: "#{vars.up}/%s"}
        items: "%s"
        %s
      parameters: {id: item.id}
      """;

  /**
   * One API: its items path, its first page (NEXT: the URL of page 2), its second (the last) and
   * what the 502 names.
   */
  private record Api(
      String name, String items, String first, String second, String said, String mode) {}

  private static List<Api> apis() {
    List<Api> apis = new ArrayList<>();
    apis.add(
        new Api(
            "azure",
            "$.value[*]",
            "{\"value\":[{\"id\":1}],\"nextLink\":\"NEXT\"}",
            "{\"value\":[{\"id\":2}]}",
            "its body has a next URL at $.nextLink",
            "next: \"$.nextLink\""));
    apis.add(
        new Api(
            "kubernetes",
            "$.items[*]",
            "{\"metadata\":{\"continue\":\"tok2\"},\"items\":[{\"id\":1}]}",
            "{\"metadata\":{\"continue\":\"\"},\"items\":[{\"id\":2}]}",
            "its body has a non-empty $.metadata.continue",
            "cursor: {param: continue, from: \"$.metadata.continue\"}"));
    apis.add(
        new Api(
            "stripe",
            "$.data[*]",
            "{\"object\":\"list\",\"data\":[{\"id\":\"tok2\"}],\"has_more\":true}",
            "{\"object\":\"list\",\"data\":[{\"id\":\"cus_9\"}],\"has_more\":false}",
            "its body says $.has_more: true",
            "cursor: {param: starting_after, from: \"$.data[-1].id\", until:"
                + " \"!response.body.has_more\"}"));
    apis.add(
        new Api(
            "slack",
            "$.channels[*]",
            "{\"ok\":true,\"channels\":[{\"id\":1}],\"response_metadata\":{\"next_cursor\":\"tok2\"}}",
            "{\"ok\":true,\"channels\":[{\"id\":2}],\"response_metadata\":{\"next_cursor\":\"\"}}",
            "its body has a non-empty $.response_metadata.next_cursor",
            "cursor: {param: cursor, from: \"$.response_metadata.next_cursor\"}"));
    for (String token : List.of("NextToken", "nextToken", "NextMarker")) {
      String param = token.equals("NextMarker") ? "Marker" : token;
      apis.add(
          new Api(
              "aws-"
                  + (token.equals("nextToken") ? "lower-" : "")
                  + token.toLowerCase(java.util.Locale.ROOT),
              "$.Items[*]",
              "{\"Items\":[{\"id\":1}],\"" + token + "\":\"tok2\"}",
              "{\"Items\":[{\"id\":2}]}",
              "its body has a non-empty $." + token,
              "cursor: {param: " + param + ", from: \"$." + token + "\"}"));
    }
    apis.add(
        new Api(
            "aws-truncated",
            "$.Users[*]",
            "{\"Users\":[{\"id\":1}],\"IsTruncated\":true,\"Marker\":\"tok2\"}",
            "{\"Users\":[{\"id\":2}],\"IsTruncated\":false}",
            "its body says $.IsTruncated: true",
            "cursor: {param: Marker, from: \"$.Marker\", until: \"!response.body.IsTruncated\"}"));
    apis.add(
        new Api(
            "aws-s3-v2",
            "$.Contents[*]",
            "{\"Contents\":[{\"id\":1}],\"IsTruncated\":true,\"NextContinuationToken\":\"tok2\"}",
            "{\"Contents\":[{\"id\":2}],\"IsTruncated\":false}",
            "its body has a non-empty $.NextContinuationToken",
            "cursor: {param: continuation-token, from: \"$.NextContinuationToken\"}"));
    apis.add(
        new Api(
            "jira-next-page",
            "$.values[*]",
            "{\"startAt\":0,\"isLast\":false,\"values\":[{\"id\":1}],\"nextPage\":\"NEXT\"}",
            "{\"startAt\":1,\"isLast\":true,\"values\":[{\"id\":2}]}",
            "its body has a next URL at $.nextPage",
            "next: \"$.nextPage\""));
    apis.add(
        new Api(
            "google-snake",
            "$.items[*]",
            "{\"items\":[{\"id\":1}],\"next_page_token\":\"tok2\"}",
            "{\"items\":[{\"id\":2}],\"next_page_token\":\"\"}",
            "its body has a non-empty $.next_page_token",
            "cursor: {param: page_token, from: \"$.next_page_token\"}"));
    apis.add(
        new Api(
            "laravel",
            "$.data[*]",
            "{\"data\":[{\"id\":1}],\"next_page_url\":\"NEXT\"}",
            "{\"data\":[{\"id\":2}],\"next_page_url\":null}",
            "its body has a next URL at $.next_page_url",
            "next: \"$.next_page_url\""));
    for (String holder : List.of("pagination", "meta", "page_info", "paging")) {
      String field = holder.equals("pagination") ? "next_url" : "next";
      apis.add(
          new Api(
              holder.replace('_', '-'),
              "$.data[*]",
              "{\"data\":[{\"id\":1}],\"" + holder + "\":{\"" + field + "\":\"NEXT\"}}",
              "{\"data\":[{\"id\":2}],\"" + holder + "\":{\"" + field + "\":null}}",
              "its body has a next URL at $." + holder + "." + field,
              "next: \"$." + holder + "." + field + "\""));
    }
    apis.add(
        new Api(
            "meta-number",
            "$.data[*]",
            "{\"data\":[{\"id\":1}],\"meta\":{\"next_page\":2}}",
            "{\"data\":[{\"id\":2}],\"meta\":{\"next_page\":null}}",
            "its body names a next page at $.meta.next_page",
            "page: {param: page}"));
    apis.add(
        new Api(
            "has-next-page",
            "$.data[*]",
            "{\"data\":[{\"id\":1}],\"pagination\":{\"has_next_page\":true}}",
            "{\"data\":[{\"id\":2}],\"pagination\":{\"has_next_page\":false}}",
            "its body says $.pagination.has_next_page: true",
            "page: {param: page}"));
    // An outside tester's F6: real spellings that were a 200 with page 1 alone.
    apis.add(
        new Api(
            "confluence",
            "$.results[*]",
            "{\"results\":[{\"id\":1}],\"_links\":{\"base\":\"b\",\"next\":\"NEXT\"}}",
            "{\"results\":[{\"id\":2}],\"_links\":{\"base\":\"b\"}}",
            "its body has a next URL at $._links.next",
            "next: \"$._links.next\""));
    apis.add(
        new Api(
            "hubspot",
            "$.results[*]",
            "{\"results\":[{\"id\":1}],\"paging\":{\"next\":{\"after\":\"2\",\"link\":\"NEXT\"}}}",
            // An API in HubSpot's style writing a null link; HubSpot itself leaves 'paging' out
            // of its last page (hubspot-real, below): the next mode ends at either.
            "{\"results\":[{\"id\":2}],\"paging\":{\"next\":{\"link\":null}}}",
            "its body has a next URL at $.paging.next.link",
            "next: \"$.paging.next.link\""));
    // HubSpot's real last page: no 'paging' member at all.
    apis.add(
        new Api(
            "hubspot-real",
            "$.results[*]",
            "{\"results\":[{\"id\":1}],\"paging\":{\"next\":{\"after\":\"2\",\"link\":\"NEXT\"}}}",
            "{\"results\":[{\"id\":2}]}",
            "its body has a next URL at $.paging.next.link",
            "next: \"$.paging.next.link\""));
    apis.add(
        new Api(
            "digitalocean",
            "$.droplets[*]",
            "{\"droplets\":[{\"id\":1}],\"links\":{\"pages\":{\"next\":\"NEXT\"}}}",
            "{\"droplets\":[{\"id\":2}],\"links\":{\"pages\":{\"prev\":\"x\"}}}",
            "its body has a next URL at $.links.pages.next",
            "next: \"$.links.pages.next\""));
    apis.add(
        new Api(
            "salesforce",
            "$.records[*]",
            "{\"done\":false,\"records\":[{\"id\":1}],\"nextRecordsUrl\":\"NEXT\"}",
            "{\"done\":true,\"records\":[{\"id\":2}]}",
            "its body has a next URL at $.nextRecordsUrl",
            "next: \"$.nextRecordsUrl\""));
    apis.add(
        new Api(
            "twilio",
            "$.calls[*]",
            "{\"calls\":[{\"id\":1}],\"next_page_uri\":\"NEXT\"}",
            "{\"calls\":[{\"id\":2}],\"next_page_uri\":null}",
            "its body has a next URL at $.next_page_uri",
            "next: \"$.next_page_uri\""));
    apis.add(
        new Api(
            "twilio-meta",
            "$.calls[*]",
            "{\"calls\":[{\"id\":1}],\"meta\":{\"next_page_url\":\"NEXT\"}}",
            "{\"calls\":[{\"id\":2}],\"meta\":{\"next_page_url\":null}}",
            "its body has a next URL at $.meta.next_page_url",
            "next: \"$.meta.next_page_url\""));
    apis.add(
        new Api(
            "spring",
            "$.content[*]",
            "{\"content\":[{\"id\":1}],\"last\":false,\"number\":0}",
            "{\"content\":[{\"id\":2}],\"last\":true,\"number\":1}",
            "its body says $.last: false",
            "page: {param: page, start: 0}"));
    apis.add(
        new Api(
            "nexus",
            "$.items[*]",
            "{\"items\":[{\"id\":1}],\"continuationToken\":\"tok2\"}",
            "{\"items\":[{\"id\":2}],\"continuationToken\":null}",
            "its body has a non-empty $.continuationToken",
            "cursor: {param: continuationToken, from: \"$.continuationToken\"}"));
    apis.add(
        new Api(
            "quay",
            "$.repositories[*]",
            "{\"repositories\":[{\"id\":1}],\"has_additional\":true,\"next_page\":\"tok2\"}",
            "{\"repositories\":[{\"id\":2}],\"has_additional\":false}",
            "its body says $.has_additional: true",
            "cursor: {param: next_page, from: \"$.next_page\", until:"
                + " \"!response.body.has_additional\"}"));
    apis.add(
        new Api(
            "zendesk-cursor",
            "$.tickets[*]",
            "{\"tickets\":[{\"id\":1}],\"meta\":{\"has_more\":true,\"after_cursor\":\"tok2\"}}",
            "{\"tickets\":[{\"id\":2}],\"meta\":{\"has_more\":false,\"after_cursor\":\"z\"}}",
            "its body says $.meta.has_more: true",
            "cursor: {param: \"page[after]\", from: \"$.meta.after_cursor\", until:"
                + " \"!response.body.meta.has_more\"}"));
    apis.add(
        new Api(
            "page-number",
            "$.data[*]",
            "{\"data\":[{\"id\":1}],\"next_page\":2}",
            "{\"data\":[{\"id\":2}],\"next_page\":null}",
            "its body names a next page at $.next_page",
            "page: {param: page}"));
    apis.add(
        new Api(
            "graphql",
            "$.data.org.repos.nodes[*]",
            "{\"data\":{\"org\":{\"repos\":{\"nodes\":[{\"id\":1,\"labels\":{\"pageInfo\":"
                + "{\"hasNextPage\":false}}}],\"pageInfo\":{\"endCursor\":\"tok2\","
                + "\"hasNextPage\":true}}}}}",
            "{\"data\":{\"org\":{\"repos\":{\"nodes\":[{\"id\":2}],\"pageInfo\":{\"endCursor\":"
                + "\"end\",\"hasNextPage\":false}}}}}",
            "its body says $.data.org.repos.pageInfo.hasNextPage: true",
            "cursor: {from: \"$.data.org.repos.pageInfo.endCursor\", until:"
                + " \"!response.body.data.org.repos.pageInfo.hasNextPage\"}"));
    return apis;
  }

  /** The first page, the second (asked for by URL, cursor or number), then an empty third. */
  private static Reply answer(StubUpstream.Received request, Api api, StubUpstream stub) {
    String uri = request.rawUri();
    if (uri.contains("page=3") || api.name().equals("spring") && uri.contains("page=2")) {
      return Reply.json(200, api.second().replace("[{\"id\":2}]", "[]"));
    }
    if (uri.contains("p=2")
        || uri.contains("tok2")
        || uri.contains("page=2")
        || api.name().equals("spring") && uri.contains("page=1")) {
      return Reply.json(200, api.second());
    }
    return Reply.json(200, api.first().replace("NEXT", stub.url() + "/" + api.name() + "?p=2"));
  }

  private static String quoted(String text) {
    return text.replace("\"", "\\\"");
  }

  @Test
  void eachBodySignalIsA502WithoutPaginateAndTheModeItNamesReadsEveryPage(@TempDir Path dir) {
    List<String> yamls = new ArrayList<>();
    for (Api api : apis()) {
      yamls.add(YAML.formatted(api.name(), api.name(), api.items(), ""));
      String mode = api.mode();
      String url = api.name().equals("graphql") ? "graphql?after=#{page.cursor}" : api.name();
      yamls.add(
          YAML.formatted(api.name() + "-paged", url, api.items(), "paginate: {" + mode + "}"));
    }
    try (StubUpstream stub = new StubUpstream();
        PluginServer plugin =
            PluginServer.withYaml(
                dir, Map.of("up", stub.url()), Map.of(), yamls.toArray(String[]::new))) {
      for (Api api : apis()) {
        stub.on("GET /" + api.name(), r -> answer(r, api, stub));
        Answer single = plugin.getparams(api.name(), "{}");
        assertThat(single.status()).as(api.name() + ": " + single.body()).isEqualTo(502);
        assertThat(single.body())
            .as(api.name())
            .contains("the upstream has more than this page (" + quoted(api.said()) + ")")
            .contains("add 'paginate: {" + quoted(api.mode()) + "}' to read them all");
      }
      for (Api api : apis()) {
        Answer paged = plugin.getparams(api.name() + "-paged", "{}");
        assertThat(paged.status()).as(api.name() + "-paged: " + paged.body()).isEqualTo(200);
        assertThat(paged.body())
            .as(api.name())
            .matches(".*\\{\"id\":\"(1|tok2)\"},\\{\"id\":\"(2|cus_9)\"}]}}");
      }
    }
  }

  @Test
  void theGraphQlHintSaysTheQueryMustSendThePageCursor(@TempDir Path dir) {
    String note =
        "; the request must also send the cursor: the query's after: variable reads"
            + " '#{page.cursor}' (variables: {after: \\\"#{page.cursor}\\\"}, and after: $after on"
            + " the connection), or every page asks for the first again";
    try (StubUpstream stub = new StubUpstream();
        PluginServer plugin =
            PluginServer.withYaml(
                dir,
                Map.of("up", stub.url()),
                Map.of(),
                YAML.formatted("gql", "graphql", "$.data.org.repos.nodes[*]", ""),
                YAML.formatted(
                    "gql-wrong",
                    "graphql",
                    "$.data.org.repos.nodes[*]",
                    "paginate: {cursor: {param: after, from: \"$.data.cursor\"}}"),
                YAML.formatted("stripe", "stripe", "$.data[*]", ""))) {
      stub.on(
          "GET /graphql",
          Reply.json(
              200,
              "{\"data\":{\"org\":{\"repos\":{\"nodes\":[{\"id\":1}],\"pageInfo\":"
                  + "{\"endCursor\":\"c2\",\"hasNextPage\":true}}}}}"));
      stub.on("GET /stripe", Reply.json(200, "{\"data\":[{\"id\":1}],\"has_more\":true}"));
      Answer single = plugin.getparams("gql", "{}");
      assertThat(single.status()).as(single.body()).isEqualTo(502);
      assertThat(single.body()).contains("to read only the first page on purpose" + note + "\"}");
      Answer wrong = plugin.getparams("gql-wrong", "{}");
      assertThat(wrong.status()).as(wrong.body()).isEqualTo(502);
      assertThat(wrong.body()).contains("pageInfo.hasNextPage\\\"}}' reads it" + note + "\"}");
      // A cursor mode with a param sends the cursor itself: no note.
      Answer stripe = plugin.getparams("stripe", "{}");
      assertThat(stripe.status()).as(stripe.body()).isEqualTo(502);
      assertThat(stripe.body()).doesNotContain("page.cursor");
    }
  }

  @Test
  void theLastPageAsEachApiSpellsItIsA200(@TempDir Path dir) {
    Map<String, String> bodies =
        Map.ofEntries(
            Map.entry("a", "\"nextLink\":null"),
            Map.entry("b", "\"metadata\":{\"continue\":\"\"}"),
            Map.entry("c", "\"has_more\":false"),
            Map.entry("d", "\"response_metadata\":{\"next_cursor\":\"\"}"),
            Map.entry("e", "\"NextToken\":null,\"nextToken\":\"\",\"IsTruncated\":false"),
            Map.entry("f", "\"isLast\":true,\"next_page_token\":\"\""),
            Map.entry("g", "\"next_page_url\":null,\"meta\":{\"next_page\":null,\"next\":\"2\"}"),
            Map.entry("h", "\"pagination\":{\"has_next_page\":false,\"hasNextPage\":\"yes\"}"),
            // Not the listing's connection: a nested one's hasNextPage is about its labels.
            Map.entry(
                "i",
                "\"org\":{\"pageInfo\":{\"hasNextPage\":false},\"labels\":{\"pageInfo\":"
                    + "{\"hasNextPage\":true}}}"),
            Map.entry("j", "\"next\":2,\"nextLink\":\"page two\",\"NextMarker\":7"),
            // Flags as numbers: 0 and 1 alone.
            Map.entry("k", "\"has_more\":0,\"isLastPage\":1,\"IsTruncated\":2,\"more\":\"1\""));
    String[] yamls =
        bodies.keySet().stream()
            .map(n -> YAML.formatted(n, n, "$.values[*]", ""))
            .toArray(String[]::new);
    try (StubUpstream stub = new StubUpstream();
        PluginServer plugin =
            PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of(), yamls)) {
      bodies.forEach(
          (name, said) -> {
            stub.on("GET /" + name, Reply.json(200, "{\"values\":[{\"id\":1}]," + said + "}"));
            Answer answer = plugin.getparams(name, "{}");
            assertThat(answer.status()).as(name + ": " + answer.body()).isEqualTo(200);
          });
    }
  }

  @Test
  void aSignalNoModeReadsNamesNoModeAndTheFirstPageOnPurposeIsA200(@TempDir Path dir) {
    try (StubUpstream stub = new StubUpstream();
        PluginServer plugin =
            PluginServer.withYaml(
                dir,
                Map.of("up", stub.url()),
                Map.of(),
                YAML.formatted("jira", "jira", "$.values[*]", ""),
                YAML.formatted("devops", "devops", "$.value[*]", ""),
                YAML.formatted(
                    "jira-first",
                    "jira",
                    "$.values[*]",
                    "paginate: {linkHeader: next, maxPages: 1, onMaxPages: stop}"))) {
      stub.on(
          "GET /jira",
          Reply.json(
              200, "{\"startAt\":0,\"maxResults\":1,\"isLast\":false,\"values\":[{\"id\":1}]}"));
      stub.on(
          "GET /devops",
          Reply.json(200, "{\"count\":1,\"value\":[{\"id\":1}]}")
              .withHeader("x-ms-continuationtoken", "2;3"));
      Answer jira = plugin.getparams("jira", "{}");
      assertThat(jira.status()).as(jira.body()).isEqualTo(502);
      assertThat(jira.body())
          .contains("(its body says $.isLast: false)")
          .contains("no paginate mode reads this API's next page");
      Answer devops = plugin.getparams("devops", "{}");
      assertThat(devops.status()).as(devops.body()).isEqualTo(502);
      assertThat(devops.body()).contains("it sends a non-empty x-ms-continuationtoken header");
      Answer first = plugin.getparams("jira-first", "{}");
      assertThat(first.status()).as(first.body()).isEqualTo(200);
      assertThat(first.body()).isEqualTo("{\"output\":{\"parameters\":[{\"id\":\"1\"}]}}");
    }
  }

  @Test
  void aModeThatEndsWhileTheBodyNamesANextPageIsA502(@TempDir Path dir) {
    try (StubUpstream stub = new StubUpstream();
        PluginServer plugin =
            PluginServer.withYaml(
                dir,
                Map.of("up", stub.url()),
                Map.of(),
                YAML.formatted("links", "azure", "$.value[*]", "paginate: {linkHeader: next}"),
                YAML.formatted(
                    "cursors",
                    "stripe",
                    "$.data[*]",
                    "paginate: {cursor: {param: after, from: \"$.cursor\"}}"),
                YAML.formatted("pages", "pages", "$.data[*]", "paginate: {page: {param: page}}"),
                YAML.formatted(
                    "stopped",
                    "azure",
                    "$.value[*]",
                    "paginate: {linkHeader: next, maxPages: 1, onMaxPages: stop}"))) {
      stub.on(
          "GET /azure",
          Reply.json(200, "{\"value\":[{\"id\":1}],\"nextLink\":\"" + stub.url() + "/azure2\"}"));
      stub.on("GET /stripe", Reply.json(200, "{\"data\":[{\"id\":1}],\"has_more\":true}"));
      // Page mode ends at an empty page, which still says a next page follows.
      stub.on(
          "GET /pages",
          r ->
              r.rawUri().contains("page=2")
                  ? Reply.json(200, "{\"data\":[],\"meta\":{\"next_page\":3}}")
                  : Reply.json(200, "{\"data\":[{\"id\":1}],\"meta\":{\"next_page\":2}}"));
      Answer links = plugin.getparams("links", "{}");
      assertThat(links.status()).as(links.body()).isEqualTo(502);
      assertThat(links.body())
          .contains(
              "the listing ends at page 1 (no next link) while its body has a next URL at"
                  + " $.nextLink");
      Answer cursors = plugin.getparams("cursors", "{}");
      assertThat(cursors.status()).as(cursors.body()).isEqualTo(502);
      assertThat(cursors.body())
          .contains("the listing ends at page 1 (no cursor) while its body says $.has_more: true");
      Answer pages = plugin.getparams("pages", "{}");
      assertThat(pages.status()).as(pages.body()).isEqualTo(502);
      assertThat(pages.body()).contains("its body names a next page at $.meta.next_page");
      Answer stopped = plugin.getparams("stopped", "{}");
      assertThat(stopped.status()).as(stopped.body()).isEqualTo(200);
      assertThat(plugin.send("GET", "/metrics", null, null, null).body().lines())
          .contains(
              "appset_mapper_upstream_refused_total{mapping=\"links\",reason=\"listing-cut\"} 1.0");
    }
  }

  @Test
  void aListingReadThroughValueOrTheWholeBodyIsCheckedAndOneValueIsNot(@TempDir Path dir) {
    String yaml =
        """
        name: reads
        vars: {up: {default: "http://unset.invalid"}}
        list:
          request: {url: "#{vars.up}/repos"}
          items: "$[*]"
        enrich:
          %s
        parameters: {name: item.name, got: "%s"}
        """;
    try (StubUpstream stub = new StubUpstream();
        PluginServer plugin =
            PluginServer.withYaml(
                dir,
                Map.of("up", stub.url()),
                Map.of(),
                yaml.formatted(
                        "tags: {request: {url: \"#{vars.up}/tags\"}, value: \"response.body.size()\"}",
                        "tags")
                    .replace("name: reads", "name: value"),
                yaml.formatted("tags: {request: {url: \"#{vars.up}/tags\"}}", "tags.size()")
                    .replace("name: reads", "name: whole"),
                yaml.formatted(
                        "tags: {request: {url: \"#{vars.up}/runs\"}, select: \"$.runs\"}",
                        "tags.size()")
                    .replace("name: reads", "name: definite"),
                yaml.formatted(
                        "tags: {request: {url: \"#{vars.up}/runs\"}, select: \"$.total\"}", "tags")
                    .replace("name: reads", "name: one"),
                yaml.formatted(
                        "tags: {request: {url: \"#{vars.up}/runs\"}, value: \"response.body.runs\"}",
                        "tags.size()")
                    .replace("name: reads", "name: envelope"),
                yaml.formatted(
                        "tags: {request: {url: \"#{vars.up}/runs\"}, value: \"response.body.total\"}",
                        "tags")
                    .replace("name: reads", "name: count"))) {
      stub.on("GET /repos", Reply.json(200, "[{\"name\":\"api\"}]"));
      String next = "<" + stub.url() + "/tags?page=2>; rel=\"next\"";
      stub.on("GET /tags", Reply.json(200, "[\"v1\",\"v2\"]").withHeader("Link", next));
      stub.on(
          "GET /runs",
          Reply.json(200, "{\"total\":3,\"runs\":[{\"id\":1}]}").withHeader("Link", next));
      // "envelope": a value that reads the list out of an object (an outside tester's HIGH).
      for (String name : List.of("value", "whole", "definite", "envelope")) {
        Answer answer = plugin.getparams(name, "{}");
        assertThat(answer.status()).as(name + ": " + answer.body()).isEqualTo(502);
        assertThat(answer.body())
            .as(name)
            .contains("enrich.tags")
            .contains("its Link header has a rel=\\\"next\\\" link");
      }
      // One value (a count) read from a page of something else: no listing, no check.
      Answer one = plugin.getparams("one", "{}");
      assertThat(one.status()).as(one.body()).isEqualTo(200);
      assertThat(one.body()).contains("\"got\":\"3\"");
      Answer count = plugin.getparams("count", "{}");
      assertThat(count.status()).as(count.body()).isEqualTo(200);
      assertThat(count.body()).contains("\"got\":\"3\"");
    }
  }

  @Test
  void aCountThatDoesNotParseIsCountedOnlyWhenItIsTheRefusal(@TempDir Path dir) {
    String list = YAML.formatted("%s", "%s", "$.values[*]", "");
    try (StubUpstream stub = new StubUpstream();
        PluginServer plugin =
            PluginServer.withYaml(
                dir,
                Map.of("up", stub.url()),
                Map.of(),
                list.formatted("odd", "odd"),
                list.formatted("oddbody", "oddbody"),
                list.formatted("oddpages", "oddpages"))) {
      stub.on(
          "GET /odd",
          Reply.json(200, "{\"values\":[{\"id\":1}]}").withHeader("X-Total-Count", "-1"));
      stub.on(
          "GET /oddbody",
          Reply.json(200, "{\"values\":[{\"id\":1}],\"next\":\"/oddbody?page=2\"}")
              .withHeader("X-Total-Count", "-1"));
      // A count that parses beside one that does not is still read.
      stub.on(
          "GET /oddpages",
          Reply.json(200, "{\"values\":[{\"id\":1}]}")
              .withHeader("X-Total-Count", "-1")
              .withHeader("X-Total-Pages", "3"));
      assertThat(plugin.getparams("odd", "{}").status()).isEqualTo(200);
      // Answered 200: no refusal happened, and none is counted.
      assertThat(plugin.send("GET", "/metrics", null, null, null).body().lines())
          .noneMatch(line -> line.contains("reason=\"malformed-signal\""));
      Answer body = plugin.getparams("oddbody", "{}");
      assertThat(body.status()).as(body.body()).isEqualTo(502);
      assertThat(body.body()).contains("its body has a next URL at $.next");
      Answer pages = plugin.getparams("oddpages", "{}");
      assertThat(pages.status()).as(pages.body()).isEqualTo(502);
      assertThat(pages.body()).contains("X-Total-Pages says 3 pages");
      List<String> metrics =
          plugin.send("GET", "/metrics", null, null, null).body().lines().toList();
      assertThat(metrics)
          .contains(
              "appset_mapper_upstream_refused_total{mapping=\"oddbody\",reason=\"unpaginated\"}"
                  + " 1.0")
          .contains(
              "appset_mapper_upstream_refused_total{mapping=\"oddpages\",reason=\"unpaginated\"}"
                  + " 1.0");
      assertThat(metrics).noneMatch(line -> line.contains("malformed-signal"));
    }
  }
}
