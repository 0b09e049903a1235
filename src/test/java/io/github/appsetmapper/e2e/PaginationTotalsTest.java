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
 * A total counts a page's elements (the list the path starts from), never the matches of a path
 * that descends into each element; and an empty page that contradicts a total is a 502 at that page
 * (issue 21, items 1 and 2). Every mode, list and enrich alike.
 */
class PaginationTotalsTest {
  @TempDir Path dir;

  private static final Reply UNEXPECTED = Reply.json(500, "{\"message\":\"unexpected page\"}");

  private static String listing(String items, String paginate) {
    return """
        name: tags
        vars: {up: {default: "http://unset.invalid"}}
        list:
          request: {url: "#{vars.up}/repos"}
          items: "%s"
          paginate: %s
        parameters: {tag: item}
        """
        .formatted(items, paginate);
  }

  /** The answer of mapping {@code tags} over pages that {@code pages} gives by query. */
  private Answer answer(String yaml, Function<String, Reply> pages, int calls) {
    try (StubUpstream stub = new StubUpstream()) {
      stub.on(
          "GET /repos",
          r -> pages.apply(r.rawUri().contains("?") ? r.rawUri().split("\\?", 2)[1] : ""));
      try (PluginServer plugin =
          PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of(), yaml)) {
        Answer answer = plugin.getparams("tags", "{}");
        assertThat(stub.calls()).as(answer.body()).isEqualTo(calls);
        return answer;
      }
    }
  }

  private static String tags(String... tags) {
    StringBuilder out = new StringBuilder("{\"output\":{\"parameters\":[");
    for (int i = 0; i < tags.length; i++) {
      out.append(i == 0 ? "" : ",").append("{\"tag\":\"").append(tags[i]).append("\"}");
    }
    return out.append("]}}").toString();
  }

  @Test
  void aTotalCountsElementsNotTheMatchesOfAPathIntoEachElement() {
    // Three repositories, two on page 1 with three tags between them: counting matches, page 1
    // "held" all three and the third repository was lost, a 200 with rows missing.
    Function<String, Reply> pages =
        query ->
            switch (query) {
              case "page=1" ->
                  Reply.json(200, "[{\"tags\":[\"a\",\"b\"]},{\"tags\":[\"c\"]}]")
                      .withHeader("X-Total", "3");
              case "page=2" -> Reply.json(200, "[{\"tags\":[\"d\"]}]").withHeader("X-Total", "3");
              default -> UNEXPECTED;
            };
    Answer more = answer(listing("$[*].tags[*]", "{page: {param: page}}"), pages, 2);
    assertThat(more.status() + " " + more.body()).isEqualTo("200 " + tags("a", "b", "c", "d"));

    // Fewer matches than elements (a repository without tags): the total is met at page 2, not
    // failed at an empty page 3 with "X-Total says 3 rows, 2 were read".
    Function<String, Reply> fewer =
        query ->
            switch (query) {
              case "page=1" ->
                  Reply.json(200, "[{\"tags\":[]},{\"tags\":[\"x\"]}]")
                      .withHeader("X-Total-Count", "3");
              case "page=2" ->
                  Reply.json(200, "[{\"tags\":[\"y\"]}]").withHeader("X-Total-Count", "3");
              default -> UNEXPECTED;
            };
    Answer less = answer(listing("$[*].tags[*]", "{page: {param: page}}"), fewer, 2);
    assertThat(less.status() + " " + less.body()).isEqualTo("200 " + tags("x", "y"));
  }

  @Test
  void aShortPageIsShortByItsElements() {
    // size 2, two repositories on page 1 but one tag between them: not a short page.
    Function<String, Reply> pages =
        query ->
            switch (query) {
              case "page=1&per_page=2" -> Reply.json(200, "[{\"tags\":[]},{\"tags\":[\"a\"]}]");
              case "page=2&per_page=2" -> Reply.json(200, "[{\"tags\":[\"b\",\"c\"]}]");
              default -> UNEXPECTED;
            };
    Answer answer =
        answer(
            listing(
                "$[*].tags[*]",
                "{page: {param: page, size: 2, sizeParam: per_page, stopOnShortPage: true}}"),
            pages,
            2);
    assertThat(answer.status() + " " + answer.body()).isEqualTo("200 " + tags("a", "b", "c"));
  }

  @Test
  void linkAndCursorModesCountElementsAgainstTheTotalToo() {
    // The last page (no next link) while X-Total says 3 and 2 repositories were read: a 502, where
    // these modes did not count at all before.
    Function<String, Reply> cut =
        query ->
            query.isEmpty()
                ? Reply.json(200, "[{\"tags\":[\"a\",\"b\",\"c\"]},{\"tags\":[]}]")
                    .withHeader("X-Total", "3")
                : UNEXPECTED;
    Answer link = answer(listing("$[*].tags[*]", "{linkHeader: next}"), cut, 1);
    assertThat(link.status()).as(link.body()).isEqualTo(502);
    assertThat(link.body())
        .contains(
            "the listing ends at page 1 (no next link) while X-Total says 3 elements, 2 were"
                + " read");
    // Harbor and Gitea say it as X-Total-Count: the same 502 (an outside tester's short 200).
    Function<String, Reply> cutCount =
        query ->
            query.isEmpty()
                ? Reply.json(200, "[{\"tags\":[\"a\",\"b\",\"c\"]},{\"tags\":[]}]")
                    .withHeader("X-Total-Count", "3")
                : UNEXPECTED;
    Answer counted = answer(listing("$[*].tags[*]", "{linkHeader: next}"), cutCount, 1);
    assertThat(counted.status()).as(counted.body()).isEqualTo(502);
    assertThat(counted.body()).contains("X-Total-Count says 3 elements, 2 were read");
    // Two repositories, the total two: whole, though the tags are three or one.
    Function<String, Reply> whole =
        query ->
            query.isEmpty()
                ? Reply.json(200, "{\"items\":[{\"tags\":[\"a\"]},{\"tags\":[]}],\"next\":null}")
                    .withHeader("X-Total", "2")
                : UNEXPECTED;
    Answer cursor =
        answer(
            listing("$.items[*].tags[*]", "{cursor: {param: after, from: \"$.next\"}}"), whole, 1);
    assertThat(cursor.status() + " " + cursor.body()).isEqualTo("200 " + tags("a"));
  }

  @Test
  void anEnrichSelectCountsElementsAsTheListDoes() {
    String yaml =
        """
        name: tags
        vars: {up: {default: "http://unset.invalid"}}
        list:
          request: {url: "#{vars.up}/one"}
          items: "$[*]"
        enrich:
          versions:
            request: {url: "#{vars.up}/repos"}
            select: "$[*].versions[*]"
            paginate: {page: {param: page}}
        parameters: {tag: "#json(versions)"}
        """;
    try (StubUpstream stub = new StubUpstream()) {
      stub.on("GET /one", Reply.json(200, "[1]"));
      stub.on(
          "GET /repos",
          r ->
              switch (r.rawUri()) {
                case "/repos?page=1" ->
                    Reply.json(200, "[{\"versions\":[1,2]},{\"versions\":[3]}]")
                        .withHeader("X-Total", "3");
                case "/repos?page=2" ->
                    Reply.json(200, "[{\"versions\":[4]}]").withHeader("X-Total", "3");
                default -> UNEXPECTED;
              });
      try (PluginServer plugin =
          PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of(), yaml)) {
        Answer answer = plugin.getparams("tags", "{}");
        assertThat(answer.status() + " " + answer.body()).isEqualTo("200 " + tags("[1,2,3,4]"));
      }
    }
  }

  @Test
  void anEmptyPageThatContradictsATotalIsA502AtThatPage() {
    // X-Total says 5, two were read, then empty pages without a Link header: walked on to maxPages
    // before (and a 200 of two rows with onMaxPages: stop).
    Function<String, Reply> pages =
        query ->
            switch (query) {
              case "page=1" -> Reply.json(200, "[\"a\",\"b\"]").withHeader("X-Total", "5");
              default -> Reply.json(200, "[]").withHeader("X-Total", "5");
            };
    for (String limits : new String[] {"maxPages: 4", "maxPages: 4, onMaxPages: stop"}) {
      Answer answer = answer(listing("$[*]", "{page: {param: page}, " + limits + "}"), pages, 2);
      assertThat(answer.status()).as(answer.body()).isEqualTo(502);
      assertThat(answer.body())
          .contains(
              "page 2 is empty while X-Total says 5 elements, 2 were read; the listing would be"
                  + " cut short")
          .doesNotContain("onMaxPages");
    }
    // A page count it contradicts, the same.
    Function<String, Reply> counted =
        query ->
            switch (query) {
              case "page=1" -> Reply.json(200, "[\"a\"]").withHeader("X-Total-Pages", "3");
              default -> Reply.json(200, "[]").withHeader("X-Total-Pages", "3");
            };
    Answer answer = answer(listing("$[*]", "{page: {param: page}, maxPages: 4}"), counted, 2);
    assertThat(answer.status()).as(answer.body()).isEqualTo(502);
    assertThat(answer.body())
        .contains("page 2 is empty while X-Total-Pages says 3 pages, 2 were read");
  }

  /**
   * A first page of two rows whose headers repeat {@code name}: {@code first}, then {@code then}.
   */
  private static Reply twice(String name, String first, String then) {
    return Reply.custom(
        exchange -> {
          exchange.setStatusCode(200);
          exchange
              .getResponseHeaders()
              .add(io.undertow.util.Headers.CONTENT_TYPE, "application/json");
          exchange.getResponseHeaders().add(new io.undertow.util.HttpString(name), first);
          exchange.getResponseHeaders().add(new io.undertow.util.HttpString(name), then);
          exchange.getResponseSender().send("[\"a\",\"b\"]");
        });
  }

  @Test
  void aSignalSentTwiceIsReadWholeNeverByItsFirstLine() {
    // An outside tester's short 200: "X-Total: 2" then "X-Total: 6" was read as 2 (2 rows of 6).
    String[][] cases = {
      {"X-Total", "2", "6"},
      {"X-Total-Count", "2", "6"},
      {"X-Total-Pages", "1", "3"},
      {"X-Next-Page", "", "2"}
    };
    for (String[] c : cases) {
      Function<String, Reply> pages =
          query -> query.equals("page=1") ? twice(c[0], c[1], c[2]) : UNEXPECTED;
      Answer answer = answer(listing("$[*]", "{page: {param: page}}"), pages, 1);
      assertThat(answer.status()).as(c[0] + ": " + answer.body()).isEqualTo(502);
      assertThat(answer.body()).contains("the " + c[0] + " header does not parse");
    }
    // Both totals given and disagreeing: neither is believed.
    Function<String, Reply> both =
        query ->
            query.equals("page=1")
                ? Reply.json(200, "[\"a\",\"b\"]")
                    .withHeader("X-Total", "2")
                    .withHeader("X-Total-Count", "6")
                : UNEXPECTED;
    Answer answer = answer(listing("$[*]", "{page: {param: page}}"), both, 1);
    assertThat(answer.status()).as(answer.body()).isEqualTo(502);
    assertThat(answer.body()).contains("X-Total and X-Total-Count disagree");
  }

  @Test
  void twoLinksOfOneRelationToDifferentPagesAreRefused() {
    // An outside tester's short 200 (two rel="last", the first believed) and skipped page (two
    // rel="next", the first followed), in separate Link lines and in one.
    for (String rel : new String[] {"last", "next"}) {
      Function<String, Reply> separate =
          query ->
              query.startsWith("page=1&")
                  ? Reply.custom(
                      exchange -> {
                        exchange.setStatusCode(200);
                        exchange
                            .getResponseHeaders()
                            .add(
                                new io.undertow.util.HttpString("Link"),
                                "<?page=1>; rel=\"" + rel + "\"");
                        exchange
                            .getResponseHeaders()
                            .add(
                                new io.undertow.util.HttpString("Link"),
                                "<?page=3>; rel=\"" + rel + "\"");
                        exchange.getResponseSender().send("[\"a\",\"b\"]");
                      })
                  : UNEXPECTED;
      Answer answer =
          answer(
              listing("$[*]", "{page: {param: page, size: 2, sizeParam: per_page}}"), separate, 1);
      assertThat(answer.status()).as(rel + ": " + answer.body()).isEqualTo(502);
      assertThat(answer.body()).contains("two different rel=\\\"" + rel + "\\\" links");
      Function<String, Reply> oneLine =
          query ->
              query.isEmpty()
                  ? Reply.json(200, "[\"a\",\"b\"]")
                      .withHeader(
                          "Link", "<?page=3>; rel=\"" + rel + "\", <?page=2>; rel=\"" + rel + "\"")
                  : UNEXPECTED;
      Answer joined = answer(listing("$[*]", "{linkHeader: next}"), oneLine, 1);
      assertThat(joined.status()).as(rel + ": " + joined.body()).isEqualTo(502);
    }
  }
}
