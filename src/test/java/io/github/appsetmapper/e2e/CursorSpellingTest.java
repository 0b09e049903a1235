package io.github.appsetmapper.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.StubUpstream;
import io.github.appsetmapper.testing.StubUpstream.Reply;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A cursor is opaque: a number the upstream wrote as {@code 1E+2} was sent back as {@code 100} (and
 * {@code -0} as {@code 0}), which the upstream need not know as the same cursor. The token is sent
 * back exactly as written, in the query parameter and in {@code page.cursor}.
 */
class CursorSpellingTest {
  @TempDir Path dir;

  private static final String MAPPING =
      """
      name: c
      vars: {up: {default: "http://unset.invalid"}}
      list:
        request:
          url: "#{vars.up}/things"
          headers: {X-Cursor: "#{page.cursor ?: 'none'}"}
        items: "$.data[*]"
        paginate: {cursor: {param: after, from: "$.meta['next']"}}
      parameters: {id: item.id}
      """;

  /**
   * A cursor of only whitespace is no cursor: it ends the listing as an empty one does (the rule
   * the reference states; kept, not changed: a hostile upstream can end a listing with null).
   */
  @ParameterizedTest
  @ValueSource(strings = {"\"\"", "\" \"", "\"\\t \""})
  void aBlankCursorEndsTheListingAsAnEmptyOne(String blank) {
    try (StubUpstream stub = new StubUpstream()) {
      stub.on(
          "GET /things",
          Reply.json(200, "{\"data\":[{\"id\":1}],\"meta\":{\"next\":" + blank + "}}"));
      try (PluginServer plugin =
          PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of(), MAPPING)) {
        assertThat(plugin.getparams("c", "{}").body())
            .isEqualTo("{\"output\":{\"parameters\":[{\"id\":\"1\"}]}}");
      }
      assertThat(stub.calls()).isEqualTo(1);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"1E+2", "1e2", "-0", "1.0e-3", "12.50", "100000000000000000000000"})
  void aNumberCursorIsSentBackAsWritten(String spelling) {
    String query = "/things?after=" + URLEncoder.encode(spelling, StandardCharsets.UTF_8);
    try (StubUpstream stub = new StubUpstream()) {
      stub.on(
          "GET /things",
          r ->
              r.rawUri().equals("/things")
                  ? Reply.json(200, "{\"data\":[{\"id\":1}],\"meta\":{\"next\":" + spelling + "}}")
                  : r.rawUri().equals(query) && spelling.equals(r.header("X-Cursor"))
                      ? Reply.json(200, "{\"data\":[{\"id\":2}],\"meta\":{\"next\":null}}")
                      : Reply.json(400, "{\"message\":\"unknown cursor " + r.rawUri() + "\"}"));
      try (PluginServer plugin =
          PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of(), MAPPING)) {
        assertThat(plugin.getparams("c", "{}").body())
            .isEqualTo("{\"output\":{\"parameters\":[{\"id\":\"1\"},{\"id\":\"2\"}]}}");
      }
    }
  }
}
