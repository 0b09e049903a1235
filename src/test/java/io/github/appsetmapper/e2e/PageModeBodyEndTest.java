package io.github.appsetmapper.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.PluginServer.Answer;
import io.github.appsetmapper.testing.StubUpstream;
import io.github.appsetmapper.testing.StubUpstream.Received;
import io.github.appsetmapper.testing.StubUpstream.Reply;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code page} mode ends where the body says plainly that no page follows, in every row of the
 * next-page table the mode is suggested for and every spelling the table reads ({@code
 * has_next_page: false}, {@code "false"}, {@code 0}; Spring Data's {@code last: true}; {@code
 * next_page: null}): a real API answers the page after its last with a 404 or its last page again,
 * which made a healthy two-page listing a 502. Where the body says more follow, the walk goes on,
 * and every end check is kept.
 */
class PageModeBodyEndTest {
  private static final String YAML =
      """
      name: %s
      vars: {up: {default: "http://unset.invalid"}}
      list:
        request: {url: "#{vars.up}/%s"}
        items: "$.data[*]"
        paginate: {page: {param: page%s}}
      parameters: {id: item.id}
      """;

  private static final String TWO = "{\"output\":{\"parameters\":[{\"id\":\"1\"},{\"id\":\"2\"}]}}";

  /** One listing: its name, its first page number, what page 1 and page 2 say. */
  private record Case(String name, int start, String more, String end) {}

  private static void add(
      List<Case> cases, String row, int start, List<String> more, List<String> end) {
    for (int i = 0; i < Math.max(more.size(), end.size()); i++) {
      cases.add(new Case(row + "-" + i, start, more.get(i % more.size()), end.get(i % end.size())));
    }
  }

  private static String at(String holder, String member, String value) {
    return holder == null
        ? "\"" + member + "\":" + value
        : "\"" + holder + "\":{\"current_page\":1,\"" + member + "\":" + value + "}";
  }

  private static List<Case> cases() {
    List<Case> cases = new ArrayList<>();
    List<String> flagsTrue = List.of("true", "\"true\"", "1");
    List<String> flagsFalse = List.of("false", "\"false\"", "0");
    add(
        cases,
        "spring",
        0,
        // Words alone: "last" as a number is a page number or an index (see below).
        List.of(at(null, "last", "false"), at(null, "last", "\"false\"")),
        List.of(at(null, "last", "true"), at(null, "last", "\"True\"")));
    add(
        cases,
        "number",
        1,
        List.of(at(null, "next_page", "2"), at(null, "next_page", "\"2\"")),
        List.of(at(null, "next_page", "null"), at(null, "next_page", "\"\"")));
    for (String holder : List.of("pagination", "meta", "page_info", "paging")) {
      add(
          cases,
          holder.replace('_', '-') + "-number",
          1,
          List.of(at(holder, "next_page", "2"), at(holder, "next_page", "\"2\"")),
          List.of(at(holder, "next_page", "null"), at(holder, "next_page", "\"\"")));
      for (String flag : List.of("has_next_page", "hasNextPage")) {
        add(
            cases,
            holder.replace('_', '-')
                + "-"
                + flag.toLowerCase(java.util.Locale.ROOT).replace('_', '-'),
            1,
            flagsTrue.stream().map(v -> at(holder, flag, v)).toList(),
            flagsFalse.stream().map(v -> at(holder, flag, v)).toList());
      }
    }
    return cases;
  }

  private static final Pattern PAGE = Pattern.compile("[?&]page=(-?[0-9]+)");

  /** The page a request asks for, counted from 1, given the first page's number. */
  private static int page(Received request, int start) {
    Matcher m = PAGE.matcher(request.rawUri());
    return m.find() ? Integer.parseInt(m.group(1)) - start + 1 : 1;
  }

  private static String body(int id, String said) {
    return "{\"data\":[{\"id\":" + id + "}]," + said + "}";
  }

  @Test
  void thePageModeEndsWhereTheBodySaysNoPageFollowsInEveryRowAndSpelling(@TempDir Path dir) {
    List<Case> cases = cases();
    List<String> yamls = new ArrayList<>();
    for (Case c : cases) {
      yamls.add(YAML.formatted(c.name(), c.name(), c.start() == 0 ? ", start: 0" : ""));
    }
    try (StubUpstream stub = new StubUpstream();
        PluginServer plugin =
            PluginServer.withYaml(
                dir, Map.of("up", stub.url()), Map.of(), yamls.toArray(String[]::new))) {
      int i = 0;
      for (Case c : cases) {
        // Past the last page as real APIs answer it: a 404, or the last page again.
        boolean repeats = i++ % 2 == 1;
        stub.on(
            "GET /" + c.name(),
            r ->
                switch (page(r, c.start())) {
                  case 1 -> Reply.json(200, body(1, c.more()));
                  case 2 -> Reply.json(200, body(2, c.end()));
                  default ->
                      repeats
                          ? Reply.json(200, body(2, c.end()))
                          : Reply.json(404, "{\"message\":\"no such page\"}");
                });
        Answer answer = plugin.getparams(c.name(), "{}");
        assertThat(answer.status())
            .as(c.name() + " (" + c.more() + ", then " + c.end() + "): " + answer.body())
            .isEqualTo(200);
        assertThat(answer.body()).as(c.name()).isEqualTo(TWO);
      }
      assertThat(stub.received())
          .as("no page after the last is asked for")
          .hasSize(2 * cases.size());
    }
  }

  @Test
  void aBodyThatSaysMoreFollowKeepsTheWalkGoingAndEveryEndCheckHolds(@TempDir Path dir) {
    try (StubUpstream stub = new StubUpstream();
        PluginServer plugin =
            PluginServer.withYaml(
                dir,
                Map.of("up", stub.url()),
                Map.of(),
                YAML.formatted("short", "short", ", size: 5, stopOnShortPage: true"),
                YAML.formatted("promised", "promised", ", endStatus: [404]"),
                YAML.formatted("unread", "unread", ""))) {
      // A short page that says more follow is not the last.
      stub.on(
          "GET /short",
          r ->
              page(r, 1) == 1
                  ? Reply.json(200, body(1, at("pagination", "has_next_page", "true")))
                  : Reply.json(200, body(2, at("pagination", "has_next_page", "false"))));
      // A page that said more follow, then an end status: the listing would be cut short.
      stub.on(
          "GET /promised",
          r ->
              page(r, 1) <= 2
                  ? Reply.json(200, body(page(r, 1), at("meta", "hasNextPage", "\"true\"")))
                  : Reply.json(404, "{}"));
      // The last page by its flag, naming a next page by a URL the page mode cannot read.
      stub.on(
          "GET /unread",
          r ->
              page(r, 1) == 1
                  ? Reply.json(200, body(1, at(null, "last", "false")))
                  : Reply.json(
                      200, body(2, at(null, "last", "true") + ",\"nextLink\":\"/unread?skip=2\"")));
      Answer shortPage = plugin.getparams("short", "{}");
      assertThat(shortPage.status()).as(shortPage.body()).isEqualTo(200);
      assertThat(shortPage.body()).isEqualTo(TWO);
      Answer promised = plugin.getparams("promised", "{}");
      assertThat(promised.status()).as(promised.body()).isEqualTo(502);
      assertThat(promised.body())
          .contains(
              "page 3 answered 404 while page 2 said a page follows"
                  + " ($.meta.hasNextPage: \\\"true\\\")");
      Answer unread = plugin.getparams("unread", "{}");
      assertThat(unread.status()).as(unread.body()).isEqualTo(502);
      assertThat(unread.body())
          .contains("the listing ends at page 2")
          .contains("its body has a next URL at $.nextLink");
    }
  }

  /**
   * {@code last} as a number is no flag: a pagination object's last page number or an item's index
   * ({@code "first": 1, "last": 1}), which read as Spring Data's {@code last: true} ended a page
   * walk at page 1 (a 200 with a third of the rows), and {@code "last": 0} on a single page read as
   * {@code last: false} made it a 502.
   */
  @Test
  void aNumericLastIsNoFlag(@TempDir Path dir) {
    try (StubUpstream stub = new StubUpstream();
        PluginServer plugin =
            PluginServer.withYaml(
                dir,
                Map.of("up", stub.url()),
                Map.of(),
                YAML.formatted("index", "index", ""),
                YAML.formatted("single", "single", "")
                    .replace("  paginate: {page: {param: page}}\n", ""))) {
      stub.on(
          "GET /index",
          r -> {
            int n = page(r, 1);
            return n <= 3
                ? Reply.json(200, body(n, "\"first\":" + n + ",\"last\":" + n + ",\"total\":3"))
                : Reply.json(200, "{\"data\":[]}");
          });
      stub.on("GET /single", Reply.json(200, body(1, "\"first\":0,\"last\":0")));
      Answer index = plugin.getparams("index", "{}");
      assertThat(index.status()).as(index.body()).isEqualTo(200);
      assertThat(index.body())
          .isEqualTo(
              "{\"output\":{\"parameters\":[{\"id\":\"1\"},{\"id\":\"2\"},{\"id\":\"3\"}]}}");
      Answer single = plugin.getparams("single", "{}");
      assertThat(single.status()).as(single.body()).isEqualTo(200);
      assertThat(single.body()).isEqualTo("{\"output\":{\"parameters\":[{\"id\":\"1\"}]}}");
    }
  }

  /**
   * Every row of the next-page table speaks to the page mode, not only the rows that suggest it:
   * StackExchange numbers its pages and writes {@code has_more}, so {@code has_more: false} (and a
   * top-level {@code has_next_page: false}) is the last page, where the walk asked for one more and
   * the 404 made it a 502; and a page saying more follow in another API's spelling ({@code
   * has_more: true}, {@code isLastPage: false}, a next URL) is a promise: an end status after it
   * was a 200 with fewer rows.
   */
  @Test
  void everyRowOfTheTableEndsOrPromisesInThePageMode(@TempDir Path dir) {
    Map<String, String[]> ends = new java.util.LinkedHashMap<>();
    ends.put("stackexchange", new String[] {"\"has_more\":true", "\"has_more\":false"});
    ends.put("top-has-next", new String[] {"\"has_next_page\":true", "\"has_next_page\":false"});
    ends.put("top-camel", new String[] {"\"hasNextPage\":\"true\"", "\"hasNextPage\":\"false\""});
    Map<String, String> promises = new java.util.LinkedHashMap<>();
    promises.put("p-has-more", "\"has_more\":true");
    promises.put("p-is-last-page", "\"isLastPage\":false");
    promises.put("p-next-url", "\"next\":\"/p-next-url?page=3\"");
    promises.put("p-top-has-next", "\"has_next_page\":true");
    List<String> yamls = new ArrayList<>();
    ends.keySet().forEach(n -> yamls.add(YAML.formatted(n, n, "")));
    promises.keySet().forEach(n -> yamls.add(YAML.formatted(n, n, ", endStatus: [404]")));
    try (StubUpstream stub = new StubUpstream();
        PluginServer plugin =
            PluginServer.withYaml(
                dir, Map.of("up", stub.url()), Map.of(), yamls.toArray(String[]::new))) {
      ends.forEach(
          (name, said) ->
              stub.on(
                  "GET /" + name,
                  r ->
                      switch (page(r, 1)) {
                        case 1 -> Reply.json(200, body(1, said[0]));
                        case 2 -> Reply.json(200, body(2, said[1]));
                        default -> Reply.json(404, "{}");
                      }));
      promises.forEach(
          (name, said) ->
              stub.on(
                  "GET /" + name,
                  r ->
                      page(r, 1) <= 2
                          ? Reply.json(200, body(page(r, 1), said))
                          : Reply.json(404, "{}")));
      for (String name : ends.keySet()) {
        Answer answer = plugin.getparams(name, "{}");
        assertThat(answer.status()).as(name + ": " + answer.body()).isEqualTo(200);
        assertThat(answer.body()).as(name).isEqualTo(TWO);
      }
      for (String name : promises.keySet()) {
        Answer answer = plugin.getparams(name, "{}");
        assertThat(answer.status()).as(name + ": " + answer.body()).isEqualTo(502);
        assertThat(answer.body()).as(name).contains("page 3 answered 404 while page 2 said");
      }
    }
  }
}
