package io.github.appsetmapper.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.StubUpstream;
import io.github.appsetmapper.testing.StubUpstream.Reply;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A status that came from a redirect's target names that target: "answered 401" after the first URL
 * blamed a server that had only redirected (an outside tester's find).
 */
class RedirectAttributionTest {
  private static final String MAPPING =
      "name: r\nvars:\n  up: {default: 'http://unset.invalid'}\n"
          + "list:\n  request: {url: \"#{vars.up}/items\"}\n  items: \"$[*]\"\n"
          + "parameters:\n  id: item.id\n";

  @Test
  void aStatusFromARedirectsTargetNamesTheTarget(@TempDir Path dir) {
    try (StubUpstream first = new StubUpstream();
        StubUpstream target = new StubUpstream()) {
      first.on("GET /items", Reply.status(302).withHeader("Location", target.url() + "/moved"));
      target.on("GET /moved", Reply.json(401, "{\"message\":\"Bad credentials\"}"));
      try (PluginServer plugin =
          PluginServer.withYaml(dir, Map.of("up", first.url()), Map.of(), MAPPING)) {
        PluginServer.Answer answer = plugin.getparams("r", "{}");
        assertThat(answer.status()).isEqualTo(502);
        assertThat(answer.body())
            .startsWith(
                "{\"error\":\"mapping 'r': list GET "
                    + first.url()
                    + "/items: was redirected to "
                    + target.url()
                    + "/moved, which answered 401");
      }
      // Without a redirect, the message is as it was.
      first.on("GET /items", Reply.json(401, "{\"message\":\"Bad credentials\"}"));
      try (PluginServer plugin =
          PluginServer.withYaml(dir, Map.of("up", first.url()), Map.of(), MAPPING)) {
        assertThat(plugin.getparams("r", "{}").body())
            .startsWith(
                "{\"error\":\"mapping 'r': list GET " + first.url() + "/items: answered 401");
      }
    }
  }
}
