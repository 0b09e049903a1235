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
 * What a page says about the pages after it is read strictly and believed: a pagination signal that
 * does not parse is a 502 naming it (red team C5), and a listing never ends with a 200 while a
 * signal says more pages remain: page mode goes on, the other modes fail (red team H2).
 */
class PaginationSignalsTest {
  private static final String TOKEN = "sig-token-4f0c1e9a7b";

  private static String mapping(String name, String paginate) {
    return """
        name: %s
        vars: {up: {default: "http://unset.invalid"}}
        secrets: {api: {env: SIG_TOKEN}}
        list:
          request:
            url: "#{vars.up}/%s"
            auth: {bearer: {secret: api}}
          items: "$.data[*]"
          paginate: %s
        parameters: {id: item}
        """
        .formatted(name, name, paginate);
  }

  private static PluginServer serve(Path dir, StubUpstream stub, String... yamls) {
    return PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of("SIG_TOKEN", TOKEN), yamls);
  }

  private static String ids(Answer answer) {
    return answer.status() + " " + answer.body();
  }

  @Test
  void aLinkHeaderThatDoesNotParseIsA502NamingItRedacted(@TempDir Path dir) {
    try (StubUpstream stub = new StubUpstream();
        PluginServer plugin = serve(dir, stub, mapping("links", "{linkHeader: next}"))) {
      // No angle brackets: read loosely this was "no next link", a 200 with page 1 only.
      stub.on(
          "GET /links",
          Reply.json(200, "{\"data\":[1,2]}")
              .withHeader("Link", stub.url() + "/links?page=2&t=" + TOKEN + "; rel=\"next\""));
      Answer answer = plugin.getparams("links", "{}");
      assertThat(answer.status()).as(answer.body()).isEqualTo(502);
      assertThat(answer.body())
          .contains(
              "the Link header does not parse (a link does not start with '<' at character 1)")
          .contains("the listing cannot tell whether more pages remain")
          .doesNotContain(TOKEN);
    }
  }

  @Test
  void aCountThatIsNotANonNegativeIntegerIsA502(@TempDir Path dir) {
    try (StubUpstream stub = new StubUpstream();
        PluginServer plugin =
            serve(
                dir,
                stub,
                mapping(
                    "counted",
                    "{page: {param: page, size: 10, sizeParam: per_page, stopOnShortPage: true}}"))) {
      // A short page ends the listing only when no total says otherwise: a total that cannot be
      // read must not be taken as no total.
      stub.on(
          "GET /counted",
          Reply.json(200, "{\"data\":[1,2]}").withHeader("X-Total-Pages", "3 pages"));
      Answer answer = plugin.getparams("counted", "{}");
      assertThat(answer.status()).as(answer.body()).isEqualTo(502);
      assertThat(answer.body())
          .contains(
              "the X-Total-Pages header does not parse (not a non-negative integer): '3 pages'");
      stub.on("GET /counted", Reply.json(200, "{\"data\":[1,2]}").withHeader("X-Next-Page", "-1"));
      assertThat(plugin.getparams("counted", "{}").body())
          .contains("the X-Next-Page header does not parse");
    }
  }

  @Test
  void aCursorThatIsAnObjectIsA502(@TempDir Path dir) {
    try (StubUpstream stub = new StubUpstream();
        PluginServer plugin =
            serve(
                dir, stub, mapping("cursor", "{cursor: {param: after, from: \"$.meta.next\"}}"))) {
      stub.on(
          "GET /cursor",
          r ->
              r.rawUri().contains("after=")
                  ? Reply.json(200, "{\"data\":[],\"meta\":{}}")
                  : Reply.json(200, "{\"data\":[1],\"meta\":{\"next\":{\"id\":5}}}"));
      Answer answer = plugin.getparams("cursor", "{}");
      assertThat(answer.status()).as(answer.body()).isEqualTo(502);
      assertThat(answer.body())
          .contains("cursor.from '$['meta']['next']' gave an object, not a string or a number");
      assertThat(stub.calls()).isEqualTo(1);
    }
  }

  @Test
  void aLastLinkBeyondThisPageWithoutANextLinkIsA502(@TempDir Path dir) {
    try (StubUpstream stub = new StubUpstream();
        PluginServer plugin = serve(dir, stub, mapping("lastlink", "{linkHeader: next}"))) {
      stub.on(
          "GET /lastlink",
          Reply.json(200, "{\"data\":[1,2]}")
              .withHeader("Link", "<" + stub.url() + "/lastlink?page=3>; rel=\"last\""));
      Answer answer = plugin.getparams("lastlink", "{}");
      assertThat(answer.status()).as(answer.body()).isEqualTo(502);
      assertThat(answer.body())
          .contains(
              "the listing ends at page 1 (no next link) while its Link header has a rel=\\\"last\\\""
                  + " page beyond this one");
      // A last link to this very page (its query in another order) is the end.
      stub.on(
          "GET /lastlink",
          Reply.json(200, "{\"data\":[1,2]}")
              .withHeader("Link", "<" + stub.url() + "/lastlink>; rel=\"last\""));
      assertThat(ids(plugin.getparams("lastlink", "{}")))
          .isEqualTo("200 {\"output\":{\"parameters\":[{\"id\":\"1\"},{\"id\":\"2\"}]}}");
    }
  }

  @Test
  void pageModeGoesOnWhileASignalSaysMoreRemain(@TempDir Path dir) {
    try (StubUpstream stub = new StubUpstream();
        PluginServer plugin = serve(dir, stub, mapping("numbered", "{page: {param: page}}"))) {
      // Page 1 has first and last links but no next (read as "the last page" before), and page 2
      // an empty X-Next-Page while X-Total says 5 elements and 3 were read.
      String links =
          "<"
              + stub.url()
              + "/numbered?page=1>; rel=\"first\", <"
              + stub.url()
              + "/numbered?page=3>; rel=\"last\"";
      stub.on(
          "GET /numbered",
          r -> {
            if (r.rawUri().endsWith("page=1")) {
              return Reply.json(200, "{\"data\":[1,2]}").withHeader("Link", links);
            }
            if (r.rawUri().endsWith("page=2")) {
              return Reply.json(200, "{\"data\":[3]}")
                  .withHeader("X-Next-Page", "")
                  .withHeader("X-Total", "5");
            }
            return Reply.json(200, "{\"data\":[4,5]}").withHeader("X-Next-Page", "");
          });
      assertThat(ids(plugin.getparams("numbered", "{}")))
          .isEqualTo(
              "200 {\"output\":{\"parameters\":[{\"id\":\"1\"},{\"id\":\"2\"},{\"id\":\"3\"},"
                  + "{\"id\":\"4\"},{\"id\":\"5\"}]}}");
      // An empty page that says more remain contradicts itself: never a short 200.
      stub.on(
          "GET /numbered",
          r ->
              r.rawUri().endsWith("page=1")
                  ? Reply.json(200, "{\"data\":[1]}")
                  : Reply.json(200, "{\"data\":[]}")
                      .withHeader("X-Next-Page", "")
                      .withHeader("X-Total-Pages", "4"));
      Answer cut = plugin.getparams("numbered", "{}");
      assertThat(cut.status()).as(cut.body()).isEqualTo(502);
      assertThat(cut.body())
          .contains("page 2 is empty while X-Total-Pages says 4 pages, 2 were read");
    }
  }

  @Test
  void aCursorListingThatEndsWhileTheTotalsSayMoreIsA502(@TempDir Path dir) {
    try (StubUpstream stub = new StubUpstream();
        PluginServer plugin =
            serve(dir, stub, mapping("cursored", "{cursor: {param: after, from: \"$.next\"}}"))) {
      stub.on(
          "GET /cursored",
          Reply.json(200, "{\"data\":[1],\"next\":null}").withHeader("X-Total-Pages", "3"));
      Answer answer = plugin.getparams("cursored", "{}");
      assertThat(answer.status()).as(answer.body()).isEqualTo(502);
      assertThat(answer.body())
          .contains(
              "the listing ends at page 1 (no cursor) while X-Total-Pages says 3 pages, 1 was"
                  + " read");
    }
  }
}
