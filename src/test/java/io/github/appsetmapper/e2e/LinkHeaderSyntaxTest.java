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
 * {@code Link} headers are parsed as RFC 8288 (with RFC 9110's quoted-string) says: a valid header
 * is read whole, whatever its quoted parameters hold (commas, semicolons, escapes); one that is
 * malformed is a 502 naming what is wrong, never a link dropped (which ends a listing early with a
 * 200) or taken loosely.
 */
class LinkHeaderSyntaxTest {
  private static final String MAPPING =
      """
      name: links
      vars: {up: {default: "http://unset.invalid"}}
      list:
        request: {url: "#{vars.up}/links"}
        items: "$.data[*]"
        paginate: {linkHeader: next}
      parameters: {id: item}
      """;

  private static void pageOneLinks(StubUpstream stub, String afterTarget) {
    stub.on(
        "GET /links",
        r ->
            r.rawUri().contains("page=2")
                ? Reply.json(200, "{\"data\":[3]}")
                : Reply.json(200, "{\"data\":[1,2]}")
                    .withHeader("Link", "<" + stub.url() + "/links?page=2>" + afterTarget));
  }

  private static String both(Answer answer) {
    return answer.status() + " " + answer.body();
  }

  @Test
  void validQuotedParametersAreReadWhole(@TempDir Path dir) {
    try (StubUpstream stub = new StubUpstream();
        PluginServer plugin =
            PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of(), MAPPING)) {
      String whole =
          "200 {\"output\":{\"parameters\":[{\"id\":\"1\"},{\"id\":\"2\"},{\"id\":\"3\"}]}}";
      for (String params :
          new String[] {
            "; rel=\"next\"; title=\"a, b\"",
            "; rel=\"next\"; title=\"an \\\"escaped, quote\"",
            "; title=\"a; rel=last, b\"; rel=\"next\"",
            "; rel=\"next\"; title=\"say \\\"hi\\\", \\\\ok\"",
            ";rel=next;type=\"application/json\"",
            " ; REL = \"prefetch next\" ; hreflang=en",
            "; rel=\"next\", <" + "/other>; rel=\"alternate\"; title=\"x, y\"",
          }) {
        pageOneLinks(stub, params);
        assertThat(both(plugin.getparams("links", "{}"))).as(params).isEqualTo(whole);
      }
    }
  }

  @Test
  void aMalformedLinkValueIsA502NamingWhatIsWrong(@TempDir Path dir) {
    try (StubUpstream stub = new StubUpstream();
        PluginServer plugin =
            PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of(), MAPPING)) {
      String[][] cases = {
        {"; rel=\"next\" garbage", "expected ';' or ',' after a parameter"},
        {"; rel=\"next", "a quoted parameter is never closed"},
        {"; rel=", "a parameter's value is missing"},
        {"; =next", "a parameter has no name"},
        {"; rel=\"next\"; title=a b", "expected ';' or ',' after a parameter"},
        {" rel=\"next\"", "expected ';' or ',' after a link's '>'"},
      };
      for (String[] c : cases) {
        pageOneLinks(stub, c[0]);
        Answer answer = plugin.getparams("links", "{}");
        assertThat(answer.status()).as(c[0] + ": " + answer.body()).isEqualTo(502);
        assertThat(answer.body()).as(c[0]).contains("the Link header does not parse (" + c[1]);
      }
    }
  }
}
