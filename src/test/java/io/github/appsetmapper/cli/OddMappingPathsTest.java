package io.github.appsetmapper.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A path given to {@code --mappings} (or found in a folder it names) that exists but is not a
 * regular file is named for what it is, never "no such file" nor skipped (red team L1).
 */
class OddMappingPathsTest {
  private static void mkfifo(Path path) throws Exception {
    Process mkfifo = new ProcessBuilder("mkfifo", path.toString()).inheritIO().start();
    assertThat(mkfifo.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(mkfifo.exitValue()).isZero();
  }

  @Test
  void aFifoNamedByMappingsIsSaidToBeNotARegularFile(@TempDir Path dir) throws Exception {
    Path fifo = dir.resolve("m.yaml");
    mkfifo(fifo);
    CliTest.Result result = CliTest.run("validate", fifo.toString());
    assertThat(result.exit()).isEqualTo(1);
    assertThat(result.err())
        .contains(fifo + ":1:1: not a regular file (a FIFO, socket or device)")
        .doesNotContain("no such file");
  }

  @Test
  void aDevZeroLinkInAMappingsFolderIsALoadError(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("a.yaml"), "name: a\nparameters: {x: \"'1'\"}\n");
    Files.createSymbolicLink(dir.resolve("z.yaml"), Path.of("/dev/zero"));
    CliTest.Result result = CliTest.run("validate", dir.toString());
    assertThat(result.exit()).isEqualTo(1);
    assertThat(result.err())
        .contains(dir.resolve("z.yaml") + ":1:1: not a regular file (a FIFO, socket or device)");
  }

  @Test
  void aFifoGivenToTestOrToReplayIsSaidToBeNotARegularFile(@TempDir Path dir) throws Exception {
    Path fifo = dir.resolve("m.test.yaml");
    mkfifo(fifo);
    CliTest.Result test = CliTest.run("test", fifo.toString());
    assertThat(test.exit()).isEqualTo(1);
    assertThat(test.out()).contains("FAIL " + fifo + ": not a regular file");
    CliTest.Result diff = CliTest.run("diff", "mappings", "mappings", "--replay", fifo.toString());
    assertThat(diff.exit()).isNotZero();
    assertThat(diff.err()).contains("--replay " + fifo + ": not a regular file");
  }
}
