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
 * An enrich that finds nothing is "missing", whatever shape the nothing takes: an empty header, a
 * JSON null body. Missing follows the step's onMissing (error: a 502), never a blank parameter nor
 * an internal error (red team C6).
 */
class EnrichMissingTest {
  private static String mapping(String name, String enrich) {
    return """
        name: %s
        vars: {up: {default: "http://unset.invalid"}}
        list:
          request: {url: "#{vars.up}/rows"}
          items: "$[*]"
        enrich:
          found:
            request: {url: "#{vars.up}/detail/#{item.id}"}
            %s
        parameters: {id: item.id, found: found}
        """
        .formatted(name, enrich.replace("\n", "\n    "));
  }

  @Test
  void anEmptyHeaderIsMissingNotABlankParameter(@TempDir Path dir) {
    try (StubUpstream stub = new StubUpstream();
        PluginServer plugin =
            PluginServer.withYaml(
                dir,
                Map.of("up", stub.url()),
                Map.of(),
                mapping("digest", "value: \"response.headers['Docker-Content-Digest']\""),
                mapping(
                    "dropping",
                    "value: \"response.headers['Docker-Content-Digest']\"\nonMissing: drop"))) {
      stub.on("GET /rows", Reply.json(200, "[{\"id\":1},{\"id\":2}]"));
      stub.on(
          "GET /detail/1", Reply.json(200, "{}").withHeader("Docker-Content-Digest", "sha256:aaa"));
      stub.on("GET /detail/2", Reply.json(200, "{}").withHeader("Docker-Content-Digest", ""));
      Answer answer = plugin.getparams("digest", "{}");
      assertThat(answer.status()).as(answer.body()).isEqualTo(502);
      assertThat(answer.body())
          .isEqualTo(
              "{\"error\":\"mapping 'digest': enrich.found GET "
                  + stub.url()
                  + "/detail/2: value 'response.headers['Docker-Content-Digest']' is null\"}");
      assertThat(plugin.getparams("dropping", "{}").body())
          .isEqualTo("{\"output\":{\"parameters\":[{\"id\":\"1\",\"found\":\"sha256:aaa\"}]}}");
    }
  }

  @Test
  void aJsonNullBodyIsMissingNotAnInternalError(@TempDir Path dir) {
    try (StubUpstream stub = new StubUpstream();
        PluginServer plugin =
            PluginServer.withYaml(
                dir,
                Map.of("up", stub.url()),
                Map.of(),
                mapping("selected", "select: \"$.sha\""),
                mapping("valued", "value: \"response.body.sha\""),
                mapping("nulled", "select: \"$.sha\"\nonMissing: \"null\""))) {
      stub.on("GET /rows", Reply.json(200, "[{\"id\":1}]"));
      stub.on("GET /detail/1", Reply.json(200, "null"));
      for (String name : new String[] {"selected", "valued"}) {
        Answer answer = plugin.getparams(name, "{}");
        assertThat(answer.status()).as(name + " " + answer.body()).isEqualTo(502);
        assertThat(answer.body())
            .as(name)
            .startsWith(
                "{\"error\":\"mapping '"
                    + name
                    + "': enrich.found GET "
                    + stub.url()
                    + "/detail/1: the answer is JSON null");
      }
      assertThat(plugin.getparams("nulled", "{}").body())
          .isEqualTo("{\"output\":{\"parameters\":[{\"id\":\"1\",\"found\":null}]}}");
    }
  }
}
