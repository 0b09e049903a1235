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
 * A hostile upstream can give the page parameter twice in a URL we read a pagination signal from
 * ({@code <...?page=1&page=3>; rel="last"}): read by its first value, the listing stopped early and
 * answered 200 with fewer rows. Two different values are a 502 naming them, in every mode and for
 * every URL a signal is read from (last and next links, a next URL in the body); the same value
 * twice is harmless.
 */
class RepeatedPageParameterTest {
  private static String mapping(String name, String items, String paginate) {
    return """
        name: %s
        vars: {up: {default: "http://unset.invalid"}}
        list:
          request: {url: "#{vars.up}/%s"}
          items: "%s"
          paginate: %s
        parameters: {id: item}
        """
        .formatted(name, name, items, paginate);
  }

  private static PluginServer serve(Path dir, StubUpstream stub, String... yamls) {
    return PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of(), yamls);
  }

  private static String lastLink(StubUpstream stub, String path, String query) {
    return "<" + stub.url() + "/" + path + "?" + query + ">; rel=\"last\"";
  }

  /**
   * Each query as the {@code rel="last"} link of a first page of two rows, in linkHeader and page
   * modes: every answer is a 502 whose body holds {@code says} (null: any 502).
   */
  private static void assertLastLinksRefused(Path dir, String says, String... queries) {
    try (StubUpstream stub = new StubUpstream();
        PluginServer plugin =
            serve(
                dir,
                stub,
                mapping("links", "$.data[*]", "{linkHeader: next}"),
                mapping("pages", "$.data[*]", "{page: {param: page}}"))) {
      for (String query : queries) {
        for (String name : new String[] {"links", "pages"}) {
          stub.on(
              "GET /" + name,
              Reply.json(200, "{\"data\":[1,2]}").withHeader("Link", lastLink(stub, name, query)));
          Answer answer = plugin.getparams(name, "{}");
          assertThat(answer.status()).as(name + " " + query + ": " + answer.body()).isEqualTo(502);
          if (says != null) {
            assertThat(answer.body()).contains(says);
          }
        }
      }
    }
  }

  @Test
  void aLastLinkGivingThePageTwiceIsA502InLinkAndPageModes(@TempDir Path dir) {
    assertLastLinksRefused(dir, "rel=\\\"last\\\" gives page twice: 1 and 3", "page=1&page=3");
  }

  /**
   * A last page past what an int holds still names a page beyond this one: read as "not a number",
   * it let the listing answer its first page with a 200 (an outside tester's find).
   */
  @Test
  void aLastPageBeyondAnIntIsStillALaterPage(@TempDir Path dir) {
    assertLastLinksRefused(dir, null, "page=2147483648", "page=99999999999999999999999");
  }

  /**
   * A last link whose page is there but is not a number (`5e0`, `5.0`, `0x10`, `Infinity`) was
   * taken as no signal: the listing stopped at its first page with a 200 (an outside tester's
   * find). It is a 502 naming the value; a last link with no page parameter still says nothing.
   */
  @Test
  void aLastPageThatIsNotANumberIsA502(@TempDir Path dir) {
    assertLastLinksRefused(
        dir,
        "not a page number",
        "page=5e0",
        "page=5.0",
        "page=0x10",
        "page=Infinity",
        "page=-",
        "page=5%3Bx");
  }

  @Test
  void theSameValueTwiceIsHarmless(@TempDir Path dir) {
    try (StubUpstream stub = new StubUpstream();
        PluginServer plugin =
            serve(dir, stub, mapping("same", "$.data[*]", "{linkHeader: next}"))) {
      stub.on(
          "GET /same",
          Reply.json(200, "{\"data\":[1,2]}")
              .withHeader("Link", lastLink(stub, "same", "page=1&page=1")));
      Answer answer = plugin.getparams("same", "{}");
      assertThat(answer.status() + " " + answer.body())
          .isEqualTo("200 {\"output\":{\"parameters\":[{\"id\":\"1\"},{\"id\":\"2\"}]}}");
    }
  }

  @Test
  void aNextLinkOrANextUrlGivingThePageTwiceIsA502(@TempDir Path dir) {
    try (StubUpstream stub = new StubUpstream();
        PluginServer plugin =
            serve(
                dir,
                stub,
                mapping("nextlink", "$.data[*]", "{linkHeader: next}"),
                mapping("numbered", "$.data[*]", "{page: {param: page}}"),
                mapping("body", "$.data[*]", "{next: \"$.next\"}"))) {
      stub.on(
          "GET /nextlink",
          r ->
              r.rawUri().contains("page=")
                  ? Reply.json(200, "{\"data\":[]}")
                  : Reply.json(200, "{\"data\":[1]}")
                      .withHeader(
                          "Link", "<" + stub.url() + "/nextlink?page=2&page=5>; rel=\"next\""));
      Answer link = plugin.getparams("nextlink", "{}");
      assertThat(link.status()).as(link.body()).isEqualTo(502);
      assertThat(link.body()).contains("rel=\\\"next\\\" gives page twice: 2 and 5");
      stub.on(
          "GET /numbered",
          r ->
              r.rawUri().contains("page=2")
                  ? Reply.json(200, "{\"data\":[]}")
                  : Reply.json(200, "{\"data\":[1]}")
                      .withHeader(
                          "Link", "<" + stub.url() + "/numbered?page=2&page=5>; rel=\"next\""));
      Answer numbered = plugin.getparams("numbered", "{}");
      assertThat(numbered.status()).as(numbered.body()).isEqualTo(502);
      assertThat(numbered.body()).contains("rel=\\\"next\\\" gives page twice: 2 and 5");
      stub.on(
          "GET /body",
          r ->
              r.rawUri().contains("page=")
                  ? Reply.json(200, "{\"data\":[],\"next\":null}")
                  : Reply.json(
                      200, "{\"data\":[1],\"next\":\"" + stub.url() + "/body?page=2&page=4\"}"));
      Answer body = plugin.getparams("body", "{}");
      assertThat(body.status()).as(body.body()).isEqualTo(502);
      assertThat(body.body()).contains("gives page twice: 2 and 4");
    }
  }
}
