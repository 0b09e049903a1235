package io.github.appsetmapper.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.StubUpstream;
import io.github.appsetmapper.testing.StubUpstream.Reply;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code secrets.x.file} renders its {@code #{vars.x}} holes at load (one mapping, several mount
 * paths), over HTTP; any other name in a secret file path is a load error naming the field.
 */
class SecretFilePathTest {
  private StubUpstream stub;

  private static String mapping(String file) {
    return "name: m\n"
        + "vars:\n  up: {default: \"http://unset.invalid\"}\n  dir: {default: /nowhere}\n"
        + "input: {team: {}}\n"
        + "secrets: {key: {file: \""
        + file
        + "\"}}\n"
        + "list:\n  request:\n    url: \"#{vars.up}/items\"\n"
        + "    headers: {X-Api-Key: \"#{secret.key}\"}\n  items: \"$[*]\"\n"
        + "parameters: {name: item.name}\n";
  }

  @BeforeEach
  void start() {
    stub = new StubUpstream();
    stub.on("GET /items", Reply.json(200, "[{\"name\":\"a\"}]"));
  }

  @AfterEach
  void stop() {
    stub.close();
  }

  @Test
  void varsInASecretFilePathAreRenderedAtLoad(@TempDir Path dir) throws Exception {
    Path mount = Files.createDirectories(dir.resolve("mount-b"));
    Files.writeString(mount.resolve("client-id"), "id-from-b\n");
    Path mappings = Files.createDirectories(dir.resolve("mappings"));
    try (PluginServer plugin =
        PluginServer.withYaml(
            mappings,
            Map.of("up", stub.url(), "dir", mount.toString()),
            Map.of(),
            mapping("#{vars.dir}/client-id"))) {
      PluginServer.Answer answer = plugin.getparams("m", "{}");

      assertThat(answer.status()).as(answer.body()).isEqualTo(200);
      assertThat(stub.received().get(0).header("X-Api-Key")).isEqualTo("id-from-b");
    }
  }

  @Test
  void anythingButVarsInASecretFilePathIsALoadErrorNamingTheField(@TempDir Path dir) {
    assertThatThrownBy(
            () ->
                PluginServer.withYaml(
                    dir,
                    Map.of("up", stub.url()),
                    Map.of(),
                    mapping("/var/run/#{input.team}/client-id")))
        .hasMessageContaining("secrets.key.file")
        .hasMessageContaining("'input' cannot be read in a secret file path");
    assertThatThrownBy(
            () ->
                PluginServer.withYaml(
                    dir, Map.of("up", stub.url()), Map.of(), mapping("#{secret.key}/x")))
        .hasMessageContaining("secrets.key.file")
        .hasMessageContaining("'secret' cannot be read in a secret file path");
  }
}
