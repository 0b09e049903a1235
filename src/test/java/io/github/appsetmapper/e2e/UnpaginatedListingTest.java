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
 * A listing without {@code paginate} is its first page, and must be all of it: a page that says
 * more follow is a 502 naming the signal and the fix, never a 200 missing every row after it
 * (GitHub answers 30 pull requests and a rel="next" link; read as one page, Argo CD deleted the
 * Applications of the 31st and after). A mapping that wants the first page alone says so.
 */
class UnpaginatedListingTest {
  private static final String TOKEN = "unpaged-token-7c41d9e2a0";

  private static String list(String name, String paginate) {
    return """
        name: %s
        vars: {up: {default: "http://unset.invalid"}}
        secrets: {api: {env: UNPAGED_TOKEN}}
        list:
          request:
            url: "#{vars.up}/%s?per_page=2"
            auth: {bearer: {secret: api}}
          items: "$[*]"
          %s
        parameters: {number: item.number}
        """
        .formatted(name, name, paginate);
  }

  private static PluginServer serve(Path dir, StubUpstream stub, String... yamls) {
    return PluginServer.withYaml(
        dir, Map.of("up", stub.url()), Map.of("UNPAGED_TOKEN", TOKEN), yamls);
  }

  private static final String PAGE_ONE = "[{\"number\":41},{\"number\":40}]";

  private static Reply githubFirstPage(StubUpstream stub, String path) {
    // As GitHub sends it: a next and a last link, the token never in them.
    return Reply.json(200, PAGE_ONE)
        .withHeader(
            "Link",
            "<"
                + stub.url()
                + path
                + "?per_page=2&page=2>; rel=\"next\", <"
                + stub.url()
                + path
                + "?per_page=2&page=3>; rel=\"last\"");
  }

  @Test
  void aNextLinkOnAListWithoutPaginateIsA502NamingTheFix(@TempDir Path dir) {
    try (StubUpstream stub = new StubUpstream();
        PluginServer plugin = serve(dir, stub, list("pulls", ""))) {
      stub.on("GET /pulls", githubFirstPage(stub, "/pulls"));
      Answer answer = plugin.getparams("pulls", "{}");
      assertThat(answer.status()).as(answer.body()).isEqualTo(502);
      assertThat(answer.body())
          .contains("the upstream has more than this page (its Link header has a rel=\\\"next\\\"")
          .contains("the listing has no 'paginate'")
          .contains("add 'paginate: {linkHeader: next}' to read them all")
          .contains("'paginate: {linkHeader: next, maxPages: 1, onMaxPages: stop}'")
          .doesNotContain(TOKEN);
      assertThat(stub.calls()).isEqualTo(1);
      assertThat(plugin.send("GET", "/metrics", null, null, null).body().lines())
          .contains(
              "appset_mapper_upstream_refused_total{mapping=\"pulls\",reason=\"unpaginated\"} 1.0");
    }
  }

  @Test
  void theFirstPageOnPurposeIsSaidInPaginate(@TempDir Path dir) {
    try (StubUpstream stub = new StubUpstream();
        PluginServer plugin =
            serve(
                dir,
                stub,
                list("newest", "paginate: {linkHeader: next, maxPages: 1, onMaxPages: stop}"))) {
      stub.on("GET /newest", githubFirstPage(stub, "/newest"));
      Answer answer = plugin.getparams("newest", "{}");
      assertThat(answer.status()).as(answer.body()).isEqualTo(200);
      assertThat(answer.body())
          .isEqualTo("{\"output\":{\"parameters\":[{\"number\":\"41\"},{\"number\":\"40\"}]}}");
      assertThat(stub.calls()).isEqualTo(1);
    }
  }

  @Test
  void aWholeListingAndItsLastPageAnswer200(@TempDir Path dir) {
    try (StubUpstream stub = new StubUpstream();
        PluginServer plugin = serve(dir, stub, list("whole", ""), list("lastpage", ""))) {
      // No Link header at all: one page is the whole listing.
      stub.on("GET /whole", Reply.json(200, PAGE_ONE).withHeader("X-Total", "2"));
      assertThat(plugin.getparams("whole", "{}").status()).isEqualTo(200);
      // The last page of a listing: prev and first links only, nothing follows it.
      stub.on(
          "GET /lastpage",
          Reply.json(200, PAGE_ONE)
              .withHeader(
                  "Link",
                  "<"
                      + stub.url()
                      + "/lastpage?page=1>; rel=\"prev\", <"
                      + stub.url()
                      + "/lastpage?page=1>; rel=\"first\""));
      Answer last = plugin.getparams("lastpage", "{}");
      assertThat(last.status()).as(last.body()).isEqualTo(200);
    }
  }

  @Test
  void everyHeaderThatSaysMorePagesFollowIsRead(@TempDir Path dir) {
    try (StubUpstream stub = new StubUpstream();
        PluginServer plugin =
            serve(
                dir,
                stub,
                list("gitlab", ""),
                list("pages", ""),
                list("total", ""),
                list("last", ""))) {
      // GitLab's own: X-Next-Page (its Link header aside).
      stub.on("GET /gitlab", Reply.json(200, PAGE_ONE).withHeader("X-Next-Page", "2"));
      // A count of pages, of elements, and a last link, each beyond this page.
      stub.on("GET /pages", Reply.json(200, PAGE_ONE).withHeader("X-Total-Pages", "3"));
      stub.on("GET /total", Reply.json(200, PAGE_ONE).withHeader("X-Total-Count", "5"));
      stub.on(
          "GET /last",
          Reply.json(200, PAGE_ONE)
              .withHeader("Link", "<" + stub.url() + "/last?per_page=2&page=4>; rel=\"last\""));
      Map<String, String> said =
          Map.of(
              "gitlab", "it says X-Next-Page: 2",
              "pages", "X-Total-Pages",
              "total", "X-Total-Count",
              "last", "rel=\\\"last\\\"");
      said.forEach(
          (name, signal) -> {
            Answer answer = plugin.getparams(name, "{}");
            assertThat(answer.status()).as(name + ": " + answer.body()).isEqualTo(502);
            assertThat(answer.body())
                .as(name)
                .contains("the upstream has more than this page (")
                .contains(signal)
                .contains("the listing has no 'paginate'");
          });
    }
  }

  @Test
  void aNextPageTheBodyNamesAsTheCommonApisDoIsRead(@TempDir Path dir) {
    String yaml =
        """
        name: %s
        vars: {up: {default: "http://unset.invalid"}}
        list:
          request: {url: "#{vars.up}/%s"}
          items: "$.values[*]"
        parameters: {id: item.id}
        """;
    Map<String, String[]> bodies =
        Map.of(
            "bitbucket",
            new String[] {
              "\"next\":\"https://api.example.com/2.0/x?page=2\"", "next: \\\"$.next\\\""
            },
            "odata",
            new String[] {"\"@odata.nextLink\":\"/x?$skip=2\"", "@odata.nextLink"},
            "google",
            new String[] {"\"nextPageToken\":\"Cg4\"", "from: \\\"$.nextPageToken\\\""},
            "server",
            new String[] {
              "\"isLastPage\":false,\"nextPageStart\":2", "from: \\\"$.nextPageStart\\\""
            },
            "jsonapi",
            new String[] {"\"links\":{\"next\":\"/x?page[number]=2\"}", "$.links.next"},
            "hal",
            new String[] {"\"_links\":{\"next\":{\"href\":\"/x?page=2\"}}", "$._links.next.href"},
            "release",
            new String[] {"\"next\":\"v2.0.0\",\"isLastPage\":true,\"links\":{}", null});
    String[] yamls = bodies.keySet().stream().map(n -> yaml.formatted(n, n)).toArray(String[]::new);
    try (StubUpstream stub = new StubUpstream();
        PluginServer plugin = serve(dir, stub, yamls)) {
      bodies.forEach(
          (name, said) -> {
            stub.on("GET /" + name, Reply.json(200, "{\"values\":[{\"id\":1}]," + said[0] + "}"));
            Answer answer = plugin.getparams(name, "{}");
            if (said[1] == null) {
              // A next that is no URL, the last page said, an empty links: the whole listing.
              assertThat(answer.status()).as(name + ": " + answer.body()).isEqualTo(200);
              return;
            }
            assertThat(answer.status()).as(name + ": " + answer.body()).isEqualTo(502);
            assertThat(answer.body())
                .as(name)
                .contains("the upstream has more than this page (its body")
                .contains(said[1]);
          });
    }
  }

  @Test
  void oneValueADefinitePathNamesAndCountsThatDoNotParseAreNotAListingCut(@TempDir Path dir) {
    String newest =
        """
        name: newest
        vars: {up: {default: "http://unset.invalid"}}
        list:
          request: {url: "#{vars.up}/newest"}
          items: "$[0]"
        parameters: {number: item.number}
        """;
    try (StubUpstream stub = new StubUpstream();
        PluginServer plugin = serve(dir, stub, newest, list("odd", ""), list("oddnext", ""))) {
      // The newest of a listing sorted newest first: one value, whatever pages follow it.
      stub.on("GET /newest", githubFirstPage(stub, "/newest"));
      Answer one = plugin.getparams("newest", "{}");
      assertThat(one.status()).as(one.body()).isEqualTo(200);
      assertThat(one.body()).isEqualTo("{\"output\":{\"parameters\":[{\"number\":\"41\"}]}}");
      // A count that does not parse on a page that names no next page: answered as before.
      stub.on("GET /odd", Reply.json(200, PAGE_ONE).withHeader("X-Total-Count", "-1"));
      Answer odd = plugin.getparams("odd", "{}");
      assertThat(odd.status()).as(odd.body()).isEqualTo(200);
      // ... and with a next link beside it, still refused.
      stub.on("GET /oddnext", githubFirstPage(stub, "/oddnext").withHeader("X-Total-Count", "-1"));
      assertThat(plugin.getparams("oddnext", "{}").status()).isEqualTo(502);
    }
  }

  @Test
  void anEnrichListingIsCheckedAndADefiniteSelectIsNot(@TempDir Path dir) {
    String yaml =
        """
        name: checks
        vars: {up: {default: "http://unset.invalid"}}
        list:
          request: {url: "#{vars.up}/repos"}
          items: "$[*]"
        enrich:
          state:
            request: {url: "#{vars.up}/status/#{item.name}"}
            select: "$.state"
          runs:
            request: {url: "#{vars.up}/runs/#{item.name}"}
            select: "$.runs[*].id"
        parameters: {name: item.name, state: state, runs: "runs.size()"}
        """;
    try (StubUpstream stub = new StubUpstream();
        PluginServer plugin = serve(dir, stub, yaml)) {
      stub.on("GET /repos", Reply.json(200, "[{\"name\":\"api\"}]"));
      // A combined status is one value, whatever pages its statuses span.
      stub.on(
          "GET /status/api",
          Reply.json(200, "{\"state\":\"success\",\"statuses\":[]}")
              .withHeader("Link", "<" + stub.url() + "/status/api?page=2>; rel=\"next\""));
      stub.on(
          "GET /runs/api",
          Reply.json(200, "{\"runs\":[{\"id\":1}]}")
              .withHeader("Link", "<" + stub.url() + "/runs/api?page=2>; rel=\"next\""));
      Answer answer = plugin.getparams("checks", "{}");
      assertThat(answer.status()).as(answer.body()).isEqualTo(502);
      assertThat(answer.body())
          .contains("enrich.runs")
          .contains("its Link header has a rel=\\\"next\\\" link")
          .doesNotContain("enrich.state");
      stub.on("GET /runs/api", Reply.json(200, "{\"runs\":[{\"id\":1}]}"));
      Answer whole = plugin.getparams("checks", "{}");
      assertThat(whole.status()).as(whole.body()).isEqualTo(200);
      assertThat(whole.body()).contains("\"state\":\"success\"").contains("\"runs\":\"1\"");
    }
  }

  @Test
  void entriesAreCountedAsTheRowsTheyMake(@TempDir Path dir) {
    // list.entries reads an object's entries: its pages held entries, and a count of them, never
    // a list at items (which is an object).
    String yaml =
        """
        name: charts
        vars: {up: {default: "http://unset.invalid"}}
        list:
          request: {url: "#{vars.up}/index"}
          items: "$.entries"
          entries: "$[*]"
          %s
        parameters: {chart: item.key, version: item.value.version}
        """;
    try (StubUpstream stub = new StubUpstream();
        PluginServer plugin =
            serve(
                dir,
                stub,
                yaml.formatted("").replace("name: charts", "name: single"),
                yaml.formatted("paginate: {linkHeader: next}"))) {
      stub.on(
          "GET /index",
          r ->
              r.rawUri().contains("page=2")
                  ? Reply.json(200, "{\"entries\":{\"web\":[{\"version\":\"2.0.0\"}]}}")
                      .withHeader("X-Total-Count", "3")
                  : Reply.json(
                          200,
                          "{\"entries\":{\"api\":[{\"version\":\"1.0.0\"},{\"version\":\"1.1.0\"}]}}")
                      .withHeader("X-Total-Count", "3")
                      .withHeader("Link", "<" + stub.url() + "/index?page=2>; rel=\"next\""));
      Answer paged = plugin.getparams("charts", "{}");
      assertThat(paged.status()).as(paged.body()).isEqualTo(200);
      assertThat(paged.body())
          .isEqualTo(
              "{\"output\":{\"parameters\":[{\"chart\":\"api\",\"version\":\"1.0.0\"},"
                  + "{\"chart\":\"api\",\"version\":\"1.1.0\"},"
                  + "{\"chart\":\"web\",\"version\":\"2.0.0\"}]}}");
      Answer single = plugin.getparams("single", "{}");
      assertThat(single.status()).as(single.body()).isEqualTo(502);
      assertThat(single.body()).contains("the listing has no 'paginate'");
    }
  }
}
