package io.github.appsetmapper.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.server.ServerOptions;
import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.StubUpstream;
import io.github.appsetmapper.testing.StubUpstream.Reply;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A secret file that would block on open (a FIFO nobody writes) is refused, over HTTP, instead of
 * holding a worker forever; the other mappings keep answering while it is asked for; a secret
 * behind Kubernetes' {@code ..data} symlinks is still read.
 */
class FileReadBoundsTest {
  private StubUpstream stub;
  private PluginServer plugin;
  private Path secrets;

  private static String mapping(String name, String secretFile) {
    return "name: "
        + name
        + "\ndeadline: 2s\nvars: {up: {default: \"http://unset.invalid\"}}\n"
        + "secrets: {key: {file: \""
        + secretFile
        + "\"}}\n"
        + "list:\n  request:\n    url: \"#{vars.up}/items\"\n"
        + "    headers: {X-Api-Key: \"#{secret.key}\"}\n  items: \"$[*]\"\n"
        + "parameters: {name: item.name}\n";
  }

  @BeforeEach
  void start(@TempDir Path dir) throws Exception {
    stub = new StubUpstream();
    stub.on("GET /items", Reply.json(200, "[{\"name\":\"a\"}]"));
    secrets = Files.createDirectories(dir.resolve("secrets"));
    Path fifo = secrets.resolve("fifo");
    Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start();
    assertThat(mkfifo.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(mkfifo.exitValue()).isZero();
    // A Kubernetes Secret volume: key -> ..data/key, ..data -> ..2026_01_01/ (a timestamped dir).
    Path version = Files.createDirectories(secrets.resolve("..2026_01_01"));
    Files.writeString(version.resolve("key"), "s3cr3t-value\n");
    Files.createSymbolicLink(secrets.resolve("..data"), version.getFileName());
    Files.createSymbolicLink(secrets.resolve("key"), Path.of("..data/key"));
    Path mappings = Files.createDirectories(dir.resolve("mappings"));
    plugin =
        PluginServer.withServerOptions(
            mappings,
            Map.of("up", stub.url()),
            null,
            o ->
                new ServerOptions(
                    o.host(),
                    o.port(),
                    o.tokens(),
                    o.maxBodyBytes(),
                    o.ioThreads(),
                    4,
                    o.webhookSecret(),
                    o.idleTimeout(),
                    o.readTimeout(),
                    o.webhookMaxBodyBytes()),
            mapping("fifo", fifo.toString()),
            mapping("symlinked", secrets.resolve("key").toString()));
  }

  @AfterEach
  void stop() {
    plugin.close();
    stub.close();
  }

  @Test
  void aFifoSecretIsRefusedWithoutHoldingTheWorker() {
    PluginServer.Answer answer = plugin.getparams("fifo", "{}");

    assertThat(answer.status()).isEqualTo(500);
    assertThat(answer.body()).contains("secret 'key'").contains("not a regular file");
    assertThat(stub.calls()).isZero();
  }

  @Test
  void fiveCallsOnAFifoSecretLeaveTheOtherMappingsAnswering() {
    List<CompletableFuture<PluginServer.Answer>> stuck = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      stuck.add(CompletableFuture.supplyAsync(() -> plugin.getparams("fifo", "{}")));
    }

    PluginServer.Answer other = plugin.getparams("symlinked", "{}");

    assertThat(other.status()).as(other.body()).isEqualTo(200);
    assertThat(other.body()).contains("\"name\":\"a\"");
    assertThat(stub.received().get(0).header("X-Api-Key")).isEqualTo("s3cr3t-value");
    for (CompletableFuture<PluginServer.Answer> call : stuck) {
      assertThat(call.join().status()).isEqualTo(500);
    }
  }
}
