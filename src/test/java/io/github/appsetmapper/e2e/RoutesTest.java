package io.github.appsetmapper.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.PluginServer.Answer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The routes besides the error table: default mapping, catalogue, health, no-auth mode. */
class RoutesTest {
  private static final String HELLO =
      """
      name: hello
      description: Says hello.
      input:
        who: {default: world, description: whom to greet}
      parameters:
        greeting: "'hello ' + input.who"
        appSet: applicationSetName
      """;

  @Test
  void theOnlyMappingIsTheDefaultRoute(@TempDir Path dir) {
    try (PluginServer plugin = PluginServer.withYaml(dir, Map.of(), Map.of(), HELLO)) {
      Answer answer =
          plugin.send(
              "POST",
              "/api/v1/getparams.execute",
              "{\"applicationSetName\":\"team-a\",\"input\":{\"parameters\":{\"who\":\"argo\"}}}",
              "Bearer " + PluginServer.TOKEN,
              "application/json");
      assertThat(answer.status()).isEqualTo(200);
      assertThat(answer.body())
          .isEqualTo(
              "{\"output\":{\"parameters\":[{\"greeting\":\"hello argo\",\"appSet\":\"team-a\"}]}}");
      assertThat(answer.headers().get("content-type")).containsExactly("application/json");
    }
  }

  @Test
  void mappingsListsRoutesSourcesAndInputsBehindTheToken(@TempDir Path dir) {
    try (PluginServer plugin = PluginServer.withYaml(dir, Map.of(), Map.of(), HELLO)) {
      assertThat(plugin.send("GET", "/mappings", null, null, null).status()).isEqualTo(403);
      Answer answer = plugin.send("GET", "/mappings", null, "Bearer " + PluginServer.TOKEN, null);
      assertThat(answer.status()).isEqualTo(200);
      assertThat(answer.body())
          .matches(
              java.util.regex.Pattern.quote(
                      "{\"mappings\":[{\"name\":\"hello\",\"route\":\"/mappings/hello/api/v1/getparams.execute\",\"default\":true,"
                          + "\"source\":\""
                          + dir.resolve("mapping-0.yaml")
                          + "\",\"description\":\"Says hello.\","
                          + "\"inputs\":{\"who\":{\"type\":\"string\",\"required\":false,\"default\":\"world\",\"description\":\"whom to greet\"}},"
                          + "\"state\":\"loaded\",\"loadedAt\":\"")
                  + "[0-9T:.Z-]+"
                  + java.util.regex.Pattern.quote("\"}],\"failures\":[]}"));
    }
  }

  @Test
  void healthAndReadinessNeedNoToken(@TempDir Path dir) {
    try (PluginServer plugin = PluginServer.withYaml(dir, Map.of(), Map.of(), HELLO)) {
      assertThat(plugin.send("GET", "/healthz", null, null, null))
          .extracting(Answer::status, Answer::body)
          .containsExactly(200, "{\"status\":\"ok\"}");
      assertThat(plugin.send("GET", "/readyz", null, null, null))
          .extracting(Answer::status, Answer::body)
          .containsExactly(200, "{\"status\":\"ready\"}");
      // GET and HEAD, as probes and load balancers send them; any other method is refused
      // (ExactMethodsTest); no other path below them.
      assertThat(plugin.send("HEAD", "/healthz", null, null, null).status()).isEqualTo(200);
      assertThat(plugin.send("POST", "/readyz", "", null, null))
          .extracting(Answer::status, Answer::body)
          .containsExactly(405, "{\"error\":\"method POST not allowed; use GET, HEAD\"}");
      assertThat(plugin.send("GET", "/metrics", null, null, null).body())
          .contains("appset_mapper_cache_entries");
      // Nothing below them: another path is like any other, the token first.
      assertThat(plugin.send("GET", "/healthz/x", null, null, null).status()).isEqualTo(403);
      assertThat(plugin.send("GET", "/healthz/x", null, "Bearer " + PluginServer.TOKEN, null))
          .extracting(Answer::status, Answer::body)
          .containsExactly(
              404,
              "{\"error\":\"unknown path '/healthz/x'; getparams is POST"
                  + " /mappings/<name>/api/v1/getparams.execute\"}");
    }
  }

  @Test
  void insecureNoAuthAcceptsCallsWithoutAToken(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("hello.yaml");
    Files.writeString(file, HELLO);
    try (PluginServer plugin = PluginServer.start(List.of(file), Map.of(), Map.of(), null)) {
      assertThat(
              plugin
                  .send("POST", "/mappings/hello/api/v1/getparams.execute", "{}", null, null)
                  .status())
          .isEqualTo(200);
    }
  }
}
