package io.github.appsetmapper.boundary;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.testing.LogCapture;
import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.StubUpstream;
import io.github.appsetmapper.testing.StubUpstream.Reply;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Boundary cases known to fail on this branch's base, each fixed on another branch of issue 21: the
 * lead re-enables them after merging that branch. Each fails today (checked by running it with
 * {@code -Djunit.jupiter.conditions.deactivate=org.junit.*DisabledCondition}).
 */
class KnownHolesTest {
  private static final String TOKEN = "Zq7-derived-9f3a7c2e-token";

  private static String body(String value) {
    return "{\"applicationSetName\":\"boundary\",\"input\":{\"parameters\":{\"case\":\""
        + value
        + "\"}}}";
  }

  @Test
  void aSecretTransformedByAMethodNeverShows(@TempDir Path dir) throws Exception {
    Path cred = dir.resolve("cred");
    Files.writeString(cred, "user:" + TOKEN);
    String mapping =
        """
        name: derived
        input: {case: {required: true}}
        vars: {up: {default: "http://unset.invalid"}}
        secrets: {cred: {file: %s}}
        list:
          request:
            url: "#{vars.up}/derived"
            query: {token: "#{secret.cred.split(':')[1]}"}
          items: "$[*]"
        parameters: {id: item.id}
        """
            .formatted(cred);
    try (StubUpstream stub = new StubUpstream();
        LogCapture logs = new LogCapture()) {
      stub.on(
          "GET /derived", r -> Reply.json(503, "{\"message\":\"down for " + r.rawUri() + "\"}"));
      try (PluginServer plugin =
          PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of(), mapping)) {
        PluginServer.Answer answer = plugin.getparams("derived", body("x"));
        assertThat(answer.status()).isEqualTo(502);
        PluginServer.Answer explained =
            plugin.send(
                "POST",
                "/mappings/derived/api/v1/getparams.explain",
                body("x"),
                "Bearer " + PluginServer.TOKEN,
                "application/json");
        for (String text :
            new String[] {answer.body(), explained.body(), String.join("\n", logs.rendered())}) {
          assertThat(text).doesNotContain(TOKEN.substring(0, 12));
        }
      }
    }
  }

  @Test
  void textExplainOverHttpEscapesUpstreamControlCharacters(@TempDir Path dir) throws Exception {
    try (StubUpstream stub = new StubUpstream()) {
      HostileUpstreams.install(stub, HostileUpstreams.all());
      Path secret = dir.resolve("api-key");
      Files.writeString(secret, HostileUpstreams.SECRET);
      try (PluginServer plugin =
          PluginServer.withYaml(
              dir, Map.of("up", stub.url()), Map.of(), HostileUpstreams.mapping(secret, "30s"))) {
        PluginServer.Answer explained =
            plugin.send(
                "POST",
                "/mappings/hostile/api/v1/getparams.explain?format=text",
                body("control-characters"),
                "Bearer " + PluginServer.TOKEN,
                "application/json");
        assertThat(explained.body()).doesNotContain("\u001b", "\r", "\u0000", "\u202e");
      }
    }
  }

  @Test
  void aPresentNullAtADefiniteSelectIsNeverAShort2xx(@TempDir Path dir) {
    String mapping =
        """
        name: cpu
        vars: {up: {default: "http://unset.invalid"}}
        list:
          request: {url: "#{vars.up}/nodes"}
          items: "$[*]"
        enrich:
          cpu:
            request: {url: "#{vars.up}/nodes/#{item.id}"}
            select: "$.cpuFree"
        filter: "cpu >= 4"
        parameters: {id: item.id}
        """;
    try (StubUpstream stub = new StubUpstream()) {
      stub.on("GET /nodes", Reply.json(200, "[{\"id\":\"a\"},{\"id\":\"b\"}]"));
      stub.on("GET /nodes/a", Reply.json(200, "{\"cpuFree\":8}"));
      stub.on("GET /nodes/b", Reply.json(200, "{\"cpuFree\":null}"));
      try (PluginServer plugin =
          PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of(), mapping)) {
        PluginServer.Answer answer = plugin.getparams("cpu", "{}");
        // Node b said null, not "no CPU free": its row cannot be decided, so no 2xx at all.
        assertThat(answer.status()).as(answer.body()).isGreaterThanOrEqualTo(500);
      }
    }
  }
}
