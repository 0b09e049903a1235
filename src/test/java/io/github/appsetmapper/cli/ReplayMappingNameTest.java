package io.github.appsetmapper.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.replay.MappingTestRun;
import io.github.appsetmapper.testing.ServerProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A replayed test file whose {@code mapping:} names no mapping served ({@code [ma]}, {@code ""}, a
 * name not loaded) was taken by {@code run} and {@code serve --replay}, which then used none of its
 * vars and answered from the mapping's defaults; {@code test} refuses such a file. Both commands
 * now refuse it, with {@code test}'s line, as they refuse a replay file they cannot read.
 */
class ReplayMappingNameTest {
  private static final String SHAPE =
      "name: %s\nvars: {up: {default: \"http://unset.invalid\"}, extra: {default: own}}\n"
          + "list:\n  request: {url: \"#{vars.up}/rows\"}\n  items: \"$[*]\"\n"
          + "parameters: {id: item, e: vars.extra}\n";

  private static Path testFile(Path dir, String mappingLine) throws Exception {
    Path file = dir.resolve("ma.test.yaml");
    Files.writeString(
        file,
        mappingLine
            + "vars: {up: \"https://recorded.example\", extra: FROMTEST}\n"
            + "cases:\n  - name: one\n    input: {}\n    exchanges:\n"
            + "      - request: {method: GET, url: \"https://recorded.example/rows\"}\n"
            + "        response: {status: 200, body: [1]}\n"
            + "    expect: {parameters: [{id: \"1\", e: FROMTEST}]}\n");
    return file;
  }

  /** What {@code test} says of the file: its one problem line. */
  private static String testSays(Path file) {
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      var result = MappingTestRun.run(file, pool);
      assertThat(result.problems()).isNotEmpty();
      return result.problems().get(result.problems().size() - 1).strip();
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * {@code serve} in a process of its own: the first line it writes that is an error or says it
   * listens (served, it would never return), then its exit code.
   */
  private static CliTest.Result serve(Path mappings, Path replay) throws Exception {
    try (ServerProcess server =
        ServerProcess.launch(
            List.of(),
            List.of(
                "serve",
                "--mappings",
                mappings.toString(),
                "--insecure-no-auth",
                "--port",
                "0",
                "--replay",
                replay.toString()))) {
      String first = server.awaitLine(l -> l.startsWith("error: ") || l.contains("listening on"));
      assertThat(first).as(server.text()).startsWith("error: ");
      assertThat(server.process().waitFor(ServerProcess.BOUND.toSeconds(), TimeUnit.SECONDS))
          .isTrue();
      server.awaitOutputEnd();
      return new CliTest.Result(server.process().exitValue(), "", first);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"mapping: [ma]\n", "mapping: \"\"\n", "mapping: zz\n"})
  void aMappingNameTestRefusesIsRefusedByRunAndServe(String mappingLine, @TempDir Path dir)
      throws Exception {
    Path mapping = dir.resolve("ma.yaml");
    Files.writeString(mapping, SHAPE.formatted("ma"));
    Path file = testFile(dir, mappingLine);
    String line = testSays(file);
    CliTest.Result run = CliTest.run("run", mapping.toString(), "--replay", file.toString());
    assertThat(run.exit()).as(run.err()).isEqualTo(2);
    assertThat(run.err()).startsWith("error: ").contains(line);
    assertThat(run.out()).isEmpty();
    CliTest.Result serve = serve(mapping, file);
    assertThat(serve.exit()).as(serve.err()).isEqualTo(2);
    assertThat(serve.err()).startsWith("error: ").contains(line);
  }

  /**
   * With two mappings served, a file naming none must not hand its vars to both (one mapping's
   * recorded vars answered for the other): refused as {@code test} refuses it, asking for a name.
   */
  @Test
  void aFileNamingNoneOfSeveralMappingsIsRefused(@TempDir Path dir) throws Exception {
    Path folder = Files.createDirectories(dir.resolve("m"));
    Files.writeString(folder.resolve("ma.yaml"), SHAPE.formatted("ma"));
    Files.writeString(folder.resolve("mb.yaml"), SHAPE.formatted("mb"));
    Path file = testFile(dir, "");
    CliTest.Result serve = serve(folder, file);
    assertThat(serve.exit()).as(serve.err()).isEqualTo(2);
    assertThat(serve.err())
        .startsWith("error: " + file + ": ")
        .contains("holds 2 mappings; name one with 'mapping:' in the test file");
    CliTest.Result run =
        CliTest.run("run", folder.toString(), "--mapping", "mb", "--replay", file.toString());
    assertThat(run.exit()).as(run.err()).isEqualTo(2);
    assertThat(run.out()).isEmpty();
  }

  /** A file naming a served mapping is taken, its vars that mapping's only. */
  @Test
  void aFileNamingAServedMappingRuns(@TempDir Path dir) throws Exception {
    Path folder = Files.createDirectories(dir.resolve("m"));
    Files.writeString(folder.resolve("ma.yaml"), SHAPE.formatted("ma"));
    Files.writeString(folder.resolve("mb.yaml"), SHAPE.formatted("mb"));
    Path file = testFile(dir, "mapping: ma\n");
    CliTest.Result own =
        CliTest.run("run", folder.toString(), "--mapping", "ma", "--replay", file.toString());
    assertThat(own.exit()).as(own.err()).isZero();
    assertThat(own.out()).contains("\"e\":\"FROMTEST\"");
    CliTest.Result other =
        CliTest.run("run", folder.toString(), "--mapping", "mb", "--replay", file.toString());
    assertThat(other.out() + other.err()).doesNotContain("FROMTEST").contains("unset.invalid");
  }
}
