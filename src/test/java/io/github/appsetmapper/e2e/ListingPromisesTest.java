package io.github.appsetmapper.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.PluginServer.Answer;
import io.github.appsetmapper.testing.StubUpstream;
import io.github.appsetmapper.testing.StubUpstream.Reply;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What any page of a walk promised (a total of elements, a total of pages, a {@code rel="last"}
 * link, in page mode a next page) is remembered until the walk ends, and the walk ending before it
 * is kept is a 502, never a 200 with rows lost (red team round 5, HIGH); and no mode reads a page,
 * cursor or link twice in one walk (MEDIUM).
 */
class ListingPromisesTest {
  private static final String TOKEN = "promise-token-2b7e9c41d0";

  private static String mapping(String name, String items, String paginate) {
    return """
        name: %s
        vars: {up: {default: "http://unset.invalid"}}
        secrets: {api: {env: PROMISE_TOKEN}}
        list:
          request:
            url: "#{vars.up}/%s"
            auth: {bearer: {secret: api}}
          items: "%s"
          paginate: %s
        parameters: {id: item}
        """
        .formatted(name, name, items, paginate);
  }

  private static PluginServer serve(Path dir, StubUpstream stub, String... yamls) {
    return PluginServer.withYaml(
        dir, Map.of("up", stub.url()), Map.of("PROMISE_TOKEN", TOKEN), yamls);
  }

  private static String answer(Answer answer) {
    return answer.status() + " " + answer.body();
  }

  /** GitLab's first page of five merge requests, two a page: every signal it has. */
  private static Reply gitlabFirst(StubUpstream stub, String path) {
    return Reply.json(200, "[\"a\",\"b\"]")
        .withHeader("X-Total", "5")
        .withHeader("X-Total-Pages", "3")
        .withHeader("X-Next-Page", "2")
        .withHeader(
            "Link",
            "<"
                + stub.url()
                + path
                + "?page=2>; rel=\"next\", <"
                + stub.url()
                + path
                + "?page=3>; rel=\"last\"");
  }

  /** Page 1 as GitLab answers it, and every later page as {@code later} says (by its query). */
  private static Function<StubUpstream.Received, Reply> gitlab(
      StubUpstream stub, String path, Function<String, Reply> later) {
    return r -> {
      String uri = r.rawUri();
      int q = uri.indexOf('?');
      String query = q < 0 ? "" : uri.substring(q + 1);
      return query.isEmpty() || query.equals("page=1")
          ? gitlabFirst(stub, path)
          : later.apply(query);
    };
  }

  @Test
  void anEmptyPageWithoutHeadersDoesNotEndWhatPageOnePromised(@TempDir Path dir) {
    try (StubUpstream stub = new StubUpstream();
        PluginServer plugin = serve(dir, stub, mapping("mrs", "$[*]", "{page: {param: page}}"))) {
      stub.on("GET /mrs", gitlab(stub, "/mrs", query -> Reply.json(200, "[]")));
      Answer answer = plugin.getparams("mrs", "{}");
      assertThat(answer.status()).as(answer.body()).isEqualTo(502);
      assertThat(answer.body())
          .contains(
              "page 2 is empty while page 1's Link header has a rel=\\\"last\\\" link to page 3,"
                  + " beyond page 2; the listing would be cut short")
          .doesNotContain(TOKEN);
    }
  }

  @Test
  void aLaterPageThatOnlySaysItIsTheLastGoesOnToWhatPageOnePromised(@TempDir Path dir) {
    // Page 2 carries only an empty X-Next-Page, or only a rel="first" link: read alone, the last
    // page, and a 200 with 4 of 5 rows.
    Reply[] seconds = {
      Reply.json(200, "[\"c\",\"d\"]").withHeader("X-Next-Page", ""),
      Reply.json(200, "[\"c\",\"d\"]")
          .withHeader("Link", "<http://x.invalid/mrs?page=1>; rel=\"first\"")
    };
    for (Reply second : seconds) {
      try (StubUpstream stub = new StubUpstream();
          PluginServer plugin = serve(dir, stub, mapping("mrs", "$[*]", "{page: {param: page}}"))) {
        stub.on(
            "GET /mrs",
            gitlab(stub, "/mrs", query -> query.equals("page=2") ? second : Reply.json(200, "[]")));
        Answer answer = plugin.getparams("mrs", "{}");
        assertThat(answer.status()).as(answer.body()).isEqualTo(502);
        assertThat(answer.body())
            .contains(
                "page 3 is empty while page 1's X-Total says 5 elements, 4 were read; the listing"
                    + " would be cut short");
        // The page it promised comes: the whole listing, a 200.
        stub.on(
            "GET /mrs",
            gitlab(
                stub,
                "/mrs",
                query -> query.equals("page=2") ? second : Reply.json(200, "[\"e\"]")));
        assertThat(answer(plugin.getparams("mrs", "{}")))
            .isEqualTo(
                "200 {\"output\":{\"parameters\":[{\"id\":\"a\"},{\"id\":\"b\"},{\"id\":\"c\"},"
                    + "{\"id\":\"d\"},{\"id\":\"e\"}]}}");
      }
    }
  }

  @Test
  void linkAndCursorModesRememberWhatAnEarlierPagePromised(@TempDir Path dir) {
    try (StubUpstream stub = new StubUpstream();
        PluginServer plugin =
            serve(
                dir,
                stub,
                mapping("linked", "$[*]", "{linkHeader: next}"),
                mapping("cursored", "$.data[*]", "{cursor: {param: after, from: \"$.next\"}}"))) {
      stub.on("GET /linked", gitlab(stub, "/linked", query -> Reply.json(200, "[]")));
      Answer linked = plugin.getparams("linked", "{}");
      assertThat(linked.status()).as(linked.body()).isEqualTo(502);
      assertThat(linked.body())
          .contains(
              "the listing ends at page 2 (no next link) while page 1's Link header has a"
                  + " rel=\\\"last\\\" link to page 3, beyond page 2");
      stub.on(
          "GET /cursored",
          r ->
              r.rawUri().contains("after=")
                  ? Reply.json(200, "{\"data\":[\"c\"],\"next\":null}")
                  : Reply.json(200, "{\"data\":[\"a\",\"b\"],\"next\":\"B\"}")
                      .withHeader("X-Total-Count", "5"));
      Answer cursored = plugin.getparams("cursored", "{}");
      assertThat(cursored.status()).as(cursored.body()).isEqualTo(502);
      assertThat(cursored.body())
          .contains(
              "the listing ends at page 2 (no cursor) while page 1's X-Total-Count says 5"
                  + " elements, 3 were read");
    }
  }

  @Test
  void aTotalThatShrinksBetweenPagesIsA502NamingBoth(@TempDir Path dir) {
    try (StubUpstream stub = new StubUpstream();
        PluginServer plugin =
            serve(dir, stub, mapping("shrink", "$[*]", "{page: {param: page}, maxPages: 5}"))) {
      // An item removed while the listing was read: with numbered pages a row can move onto a
      // page already read, lost unseen. The larger promise holds.
      stub.on(
          "GET /shrink",
          r ->
              switch (r.rawUri().substring(r.rawUri().indexOf('?') + 1)) {
                case "page=1" -> Reply.json(200, "[\"a\",\"b\"]").withHeader("X-Total", "5");
                case "page=2" ->
                    Reply.json(200, "[\"d\",\"e\"]")
                        .withHeader("X-Total", "4")
                        .withHeader("X-Next-Page", "");
                default -> Reply.json(200, "[]").withHeader("X-Total", "4");
              });
      Answer answer = plugin.getparams("shrink", "{}");
      assertThat(answer.status()).as(answer.body()).isEqualTo(502);
      assertThat(answer.body())
          .contains(
              "page 1's X-Total says 5 elements and page 2's X-Total says 4 elements: the listing"
                  + " changed while it was read");
      // A total that grows moves rows onto later numbered pages: b read twice (an outside
      // tester's find: a 200 with a duplicate row). A 502 too, naming both counts.
      stub.on(
          "GET /shrink",
          r ->
              switch (r.rawUri().substring(r.rawUri().indexOf('?') + 1)) {
                case "page=1" -> Reply.json(200, "[\"a\",\"b\"]").withHeader("X-Total", "4");
                case "page=2" -> Reply.json(200, "[\"b\",\"c\"]").withHeader("X-Total", "5");
                default ->
                    Reply.json(200, "[\"d\"]")
                        .withHeader("X-Total", "5")
                        .withHeader("X-Next-Page", "");
              });
      Answer grew = plugin.getparams("shrink", "{}");
      assertThat(grew.status()).as(grew.body()).isEqualTo(502);
      assertThat(grew.body())
          .contains(
              "page 1's X-Total says 4 elements and page 2's X-Total says 5 elements: the listing"
                  + " changed while it was read");
    }
  }

  /**
   * A listing that grows while it is read, told by its rel="last" link or X-Total-Pages rather than
   * X-Total, moved GitHub's page 1's last row onto page 2: a 200 with it twice (an outside tester's
   * HIGH). Every count of the listing is held as X-Total is, in link and page mode, and the line
   * names each page's own header.
   */
  @Test
  void aListingThatGrowsByItsLastLinkOrPageCountIsA502(@TempDir Path dir) {
    try (StubUpstream stub = new StubUpstream();
        PluginServer plugin =
            serve(
                dir,
                stub,
                mapping("grows", "$[*]", "{linkHeader: next}"),
                mapping("pages", "$[*]", "{page: {param: page}, maxPages: 5}"),
                mapping("mixed", "$[*]", "{page: {param: page}, maxPages: 5}"))) {
      String base = stub.url() + "/grows?per_page=2&page=";
      stub.on(
          "GET /grows",
          r ->
              switch (r.rawUri().substring(r.rawUri().lastIndexOf("page=") + 5)) {
                case "2" ->
                    Reply.json(200, "[2,3]")
                        .withHeader(
                            "Link", "<" + base + "3>; rel=\"next\", <" + base + "3>; rel=\"last\"");
                case "3" ->
                    Reply.json(200, "[4]").withHeader("Link", "<" + base + "2>; rel=\"prev\"");
                default ->
                    Reply.json(200, "[1,2]")
                        .withHeader(
                            "Link", "<" + base + "2>; rel=\"next\", <" + base + "2>; rel=\"last\"");
              });
      Answer grew = plugin.getparams("grows", "{}");
      assertThat(grew.status()).as(grew.body()).isEqualTo(502);
      assertThat(grew.body())
          .contains(
              "page 1's Link header has rel=\\\"last\\\" at page 2 and page 2's Link header has"
                  + " rel=\\\"last\\\" at page 3: the listing changed while it was read");
      stub.on(
          "GET /pages",
          r ->
              switch (r.rawUri().substring(r.rawUri().indexOf('?') + 1)) {
                case "page=1" -> Reply.json(200, "[1,2]").withHeader("X-Total-Pages", "2");
                case "page=2" -> Reply.json(200, "[2,3]").withHeader("X-Total-Pages", "3");
                default -> Reply.json(200, "[4]").withHeader("X-Total-Pages", "3");
              });
      Answer pages = plugin.getparams("pages", "{}");
      assertThat(pages.status()).as(pages.body()).isEqualTo(502);
      assertThat(pages.body())
          .contains(
              "page 1's X-Total-Pages says 2 pages and page 2's X-Total-Pages says 3 pages: the"
                  + " listing changed");
      // Each page's own header is named (page 1 said X-Total, page 2 X-Total-Count).
      stub.on(
          "GET /mixed",
          r ->
              switch (r.rawUri().substring(r.rawUri().indexOf('?') + 1)) {
                case "page=1" -> Reply.json(200, "[1,2]").withHeader("X-Total", "4");
                default -> Reply.json(200, "[2,3]").withHeader("X-Total-Count", "5");
              });
      assertThat(plugin.getparams("mixed", "{}").body())
          .contains("page 1's X-Total says 4 elements and page 2's X-Total-Count says 5 elements");
    }
  }

  /**
   * In next mode the Link header is read too (a fourth outsider's HIGH: a rel="last" that moved
   * repeated a row with a 200), and no mode ends its listing while the page says a next page exists
   * in another style (a rel="next" beside a null body next, X-Next-Page in link mode).
   */
  @Test
  void everyModeReadsEveryStylesSignals(@TempDir Path dir) {
    try (StubUpstream stub = new StubUpstream();
        PluginServer plugin =
            serve(
                dir,
                stub,
                mapping("bodynext", "$.v[*]", "{next: \"$.next\"}"),
                mapping("bodyend", "$.v[*]", "{next: \"$.next\"}"),
                mapping("linkend", "$[*]", "{linkHeader: next}"))) {
      String base = stub.url() + "/bodynext?page=";
      stub.on(
          "GET /bodynext",
          r ->
              r.rawUri().endsWith("page=2")
                  ? Reply.json(200, "{\"v\":[2,3],\"next\":\"" + base + "3\"}")
                      .withHeader("Link", "<" + base + "3>; rel=\"last\"")
                  : r.rawUri().endsWith("page=3")
                      ? Reply.json(200, "{\"v\":[4],\"next\":null}")
                      : Reply.json(200, "{\"v\":[1,2],\"next\":\"" + base + "2\"}")
                          .withHeader("Link", "<" + base + "2>; rel=\"last\""));
      Answer grew = plugin.getparams("bodynext", "{}");
      assertThat(grew.status()).as(grew.body()).isEqualTo(502);
      assertThat(grew.body()).contains("the listing changed while it was read");
      stub.on(
          "GET /bodyend",
          Reply.json(200, "{\"v\":[1],\"next\":null}")
              .withHeader("Link", "<" + stub.url() + "/bodyend?page=2>; rel=\"next\""));
      Answer bodyEnd = plugin.getparams("bodyend", "{}");
      assertThat(bodyEnd.status()).as(bodyEnd.body()).isEqualTo(502);
      assertThat(bodyEnd.body()).contains("its Link header has a rel=\\\"next\\\" link");
      stub.on("GET /linkend", Reply.json(200, "[1,2]").withHeader("X-Next-Page", "2"));
      Answer linkEnd = plugin.getparams("linkend", "{}");
      assertThat(linkEnd.status()).as(linkEnd.body()).isEqualTo(502);
      assertThat(linkEnd.body()).contains("it says X-Next-Page: 2");
    }
  }

  /**
   * A page is told by its elements, not by the rows a path selects from them: two pages of
   * different pull requests on the same two clusters are two pages (an outside tester's MEDIUM, a
   * spurious 502 this round); and a page read again with its elements in another order is the same
   * page (a 200 with each row six times).
   */
  @Test
  void aPageIsToldByItsElementsInAnyOrder(@TempDir Path dir) {
    try (StubUpstream stub = new StubUpstream();
        PluginServer plugin =
            serve(
                dir,
                stub,
                mapping("clusters", "$[*].cluster", "{linkHeader: next}"),
                mapping(
                    "shuffled",
                    "$.values[*]",
                    "{next: \"$.next\", maxPages: 6, onMaxPages: stop}"))) {
      stub.on(
          "GET /clusters",
          r ->
              r.rawUri().contains("page=2")
                  ? Reply.json(
                      200, "[{\"id\":3,\"cluster\":\"prod\"},{\"id\":4,\"cluster\":\"dev\"}]")
                  : Reply.json(
                          200, "[{\"id\":1,\"cluster\":\"prod\"},{\"id\":2,\"cluster\":\"dev\"}]")
                      .withHeader("Link", "<" + stub.url() + "/clusters?page=2>; rel=\"next\""));
      Answer clusters = plugin.getparams("clusters", "{}");
      assertThat(clusters.status()).as(clusters.body()).isEqualTo(200);
      assertThat(clusters.body())
          .isEqualTo(
              "{\"output\":{\"parameters\":[{\"id\":\"prod\"},{\"id\":\"dev\"},"
                  + "{\"id\":\"prod\"},{\"id\":\"dev\"}]}}");
      stub.on(
          "GET /shuffled",
          r -> {
            int n = r.rawUri().split("x=1", -1).length - 1;
            String values =
                n % 2 == 0 ? "[{\"a\":1,\"b\":2},{\"a\":3}]" : "[{\"a\":3},{\"b\":2,\"a\":1}]";
            return Reply.json(
                200,
                "{\"values\":"
                    + values
                    + ",\"next\":\""
                    + stub.url()
                    + "/shuffled?"
                    + "x=1&".repeat(n + 1)
                    + "\"}");
          });
      Answer shuffled = plugin.getparams("shuffled", "{}");
      assertThat(shuffled.status()).as(shuffled.body()).isEqualTo(502);
      assertThat(shuffled.body()).contains("page 2 answered the same as page 1");
    }
  }

  /**
   * With a cursor a page starts after a row, so a row removed while the walk reads loses nothing:
   * the latest total is the one kept (the largest made it a 502 this round, an outside tester saw).
   */
  @Test
  void aCursorListingKeepsItsLatestTotal(@TempDir Path dir) {
    try (StubUpstream stub = new StubUpstream();
        PluginServer plugin =
            serve(
                dir,
                stub,
                mapping("keyset", "$.values[*]", "{cursor: {param: after, from: '$.after'}}"))) {
      stub.on(
          "GET /keyset",
          r ->
              r.rawUri().contains("after=")
                  ? Reply.json(200, "{\"values\":[\"c\"]}").withHeader("X-Total-Count", "3")
                  : Reply.json(200, "{\"values\":[\"a\",\"b\"],\"after\":\"b\"}")
                      .withHeader("X-Total-Count", "4"));
      assertThat(answer(plugin.getparams("keyset", "{}")))
          .isEqualTo(
              "200 {\"output\":{\"parameters\":[{\"id\":\"a\"},{\"id\":\"b\"},{\"id\":\"c\"}]}}");
      // Fewer than the latest total is still a 502.
      stub.on(
          "GET /keyset",
          r ->
              r.rawUri().contains("after=")
                  ? Reply.json(200, "{\"values\":[\"c\"]}").withHeader("X-Total-Count", "4")
                  : Reply.json(200, "{\"values\":[\"a\",\"b\"],\"after\":\"b\"}")
                      .withHeader("X-Total-Count", "4"));
      assertThat(plugin.getparams("keyset", "{}").status()).isEqualTo(502);
    }
  }

  @Test
  void aNextPageAPagePromisedMustNotBeAnEndStatusNorEmpty(@TempDir Path dir) {
    try (StubUpstream stub = new StubUpstream();
        PluginServer plugin =
            serve(dir, stub, mapping("ended", "$[*]", "{page: {param: page, endStatus: [404]}}"))) {
      stub.on(
          "GET /ended",
          r ->
              r.rawUri().endsWith("page=1")
                  ? Reply.json(200, "[\"a\",\"b\"]").withHeader("X-Next-Page", "2")
                  : Reply.json(404, "{\"message\":\"404 Not found\"}"));
      Answer gone = plugin.getparams("ended", "{}");
      assertThat(gone.status()).as(gone.body()).isEqualTo(502);
      assertThat(gone.body())
          .contains("page 2 answered 404 while page 1 said a page follows (X-Next-Page: 2)");
      stub.on(
          "GET /ended",
          r ->
              r.rawUri().endsWith("page=1")
                  ? Reply.json(200, "[\"a\",\"b\"]")
                      .withHeader("Link", "<" + stub.url() + "/ended?page=2>; rel=\"next\"")
                  : Reply.json(200, "[]"));
      Answer empty = plugin.getparams("ended", "{}");
      assertThat(empty.status()).as(empty.body()).isEqualTo(502);
      assertThat(empty.body())
          .contains(
              "page 2 is empty while page 1 said a page follows (a rel=\\\"next\\\" link); the"
                  + " listing would be cut short");
      // Without a promise, the end status is the end.
      stub.on(
          "GET /ended",
          r ->
              r.rawUri().endsWith("page=1")
                  ? Reply.json(200, "[\"a\",\"b\"]")
                  : Reply.json(404, "{\"message\":\"404 Not found\"}"));
      assertThat(answer(plugin.getparams("ended", "{}")))
          .isEqualTo("200 {\"output\":{\"parameters\":[{\"id\":\"a\"},{\"id\":\"b\"}]}}");
    }
  }

  @Test
  void aCursorSeenEarlierInTheWalkIsALoopNamedRedacted(@TempDir Path dir) {
    for (String limits : new String[] {"maxPages: 7", "maxPages: 7, onMaxPages: stop"}) {
      try (StubUpstream stub = new StubUpstream();
          PluginServer plugin =
              serve(
                  dir,
                  stub,
                  mapping(
                      "loop",
                      "$.data[*]",
                      "{cursor: {param: after, from: \"$.next\"}, " + limits + "}"))) {
        String a = "A-" + TOKEN;
        stub.on(
            "GET /loop",
            r -> {
              if (r.rawUri().contains("after=A")) {
                return Reply.json(200, "{\"data\":[\"A\"],\"next\":\"B\"}");
              }
              if (r.rawUri().contains("after=B")) {
                return Reply.json(200, "{\"data\":[\"B\"],\"next\":\"" + a + "\"}");
              }
              return Reply.json(200, "{\"data\":[\"first\"],\"next\":\"" + a + "\"}");
            });
        Answer answer = plugin.getparams("loop", "{}");
        assertThat(answer.status()).as(answer.body()).isEqualTo(502);
        assertThat(answer.body())
            .contains("cursor.from '$['next']' gave 'A-")
            .contains("' at page 3, as page 1 did: a loop")
            .doesNotContain(TOKEN)
            .doesNotContain("onMaxPages");
        assertThat(stub.calls()).isEqualTo(3);
      }
    }
  }

  @Test
  void aNextLinkToAPageFetchedIsALoopWhateverTheOrderOfItsQuery(@TempDir Path dir) {
    try (StubUpstream stub = new StubUpstream();
        PluginServer plugin =
            serve(dir, stub, mapping("spun", "$[*]", "{linkHeader: next, onMaxPages: stop}"))) {
      stub.on(
          "GET /spun",
          r -> {
            boolean first = !r.rawUri().contains("b=");
            return Reply.json(200, first ? "[\"a\"]" : "[\"b\"]")
                .withHeader(
                    "Link",
                    "<"
                        + stub.url()
                        + (first ? "/spun?b=2&a=1" : "/spun?a=1&b=2#again")
                        + ">; rel=\"next\"");
          });
      Answer answer = plugin.getparams("spun", "{}");
      assertThat(answer.status()).as(answer.body()).isEqualTo(502);
      assertThat(answer.body()).contains("the next page is one already fetched (");
      assertThat(stub.calls()).isEqualTo(2);
    }
  }

  /**
   * A next link or a cursor spelled anew each time (here the same page's URL with {@code &x=1}
   * added) that leads back to a page already read: the page's body is the same, a loop in every
   * mode (an outside tester's find: one row six times, a 200 with {@code onMaxPages: stop}).
   */
  @Test
  void aPageReadAgainThroughALinkOrCursorSpelledAnewIsALoop(@TempDir Path dir) {
    try (StubUpstream stub = new StubUpstream();
        PluginServer plugin =
            serve(
                dir,
                stub,
                mapping(
                    "respelled", "$.values[*]", "{next: '$.next', maxPages: 6, onMaxPages: stop}"),
                mapping(
                    "cursor",
                    "$.values[*]",
                    "{cursor: {param: after, from: '$.after'}, maxPages: 6, onMaxPages: stop}"))) {
      stub.on(
          "GET /respelled",
          r ->
              Reply.json(
                  200,
                  "{\"values\":[{\"id\":1}],\"next\":\""
                      + stub.url()
                      + r.rawUri()
                      + (r.rawUri().contains("?") ? "&" : "?")
                      + "x=1\"}"));
      Answer link = plugin.getparams("respelled", "{}");
      assertThat(link.status()).as(link.body()).isEqualTo(502);
      assertThat(link.body())
          .contains("page 2 answered the same as page 1 (a next link spelled another way");
      stub.on(
          "GET /cursor",
          r ->
              Reply.json(
                  200, "{\"values\":[{\"id\":1}],\"after\":\"c" + r.rawUri().length() + "\"}"));
      Answer cursor = plugin.getparams("cursor", "{}");
      assertThat(cursor.status()).as(cursor.body()).isEqualTo(502);
      assertThat(cursor.body())
          .contains("page 2 answered the same as page 1 (a cursor spelled another way");
    }
  }

  @Test
  void aNumberedPageTheSameAsAnyEarlierOneIsAnError(@TempDir Path dir) {
    try (StubUpstream stub = new StubUpstream();
        PluginServer plugin =
            serve(
                dir,
                stub,
                mapping("cycle", "$[*]", "{page: {param: page}, maxPages: 6, onMaxPages: stop}"))) {
      // An API that answers page 3 as page 1 (numbers taken modulo 2): rows twice before.
      stub.on(
          "GET /cycle",
          r -> {
            int page = Integer.parseInt(r.rawUri().substring(r.rawUri().indexOf("page=") + 5));
            return Reply.json(200, page % 2 == 1 ? "[\"a\"]" : "[\"b\"]");
          });
      Answer answer = plugin.getparams("cycle", "{}");
      assertThat(answer.status()).as(answer.body()).isEqualTo(502);
      assertThat(answer.body())
          .contains("page 3 answered the same as page 1 (an API that cycles its pages?)");
      assertThat(stub.calls()).isEqualTo(3);
    }
  }
}
