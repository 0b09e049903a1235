package io.github.appsetmapper.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.cli.CliTest.Result;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What the command line says when something is wrong, through the real entry point (in-process
 * picocli, or a JVM of its own for {@code serve}): one line, exact words, and an exit code that
 * tells whose the fault is.
 */
class CliMessagesTest {
  private static final String SAMPLE = "samples/pr-digests/pr-digests.yaml";
  private static final String REPLAY = "samples/pr-digests/pr-digests.test.yaml";

  private static Result run(String... args) {
    return CliTest.run(args);
  }

  @Test
  void aBusyPortIsOneLineAndItsOwnExitCode(@TempDir Path dir) throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      int port = taken.getLocalPort();
      List<String> command = new ArrayList<>();
      command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
      command.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName()));
      command.addAll(
          List.of(
              "serve",
              "--insecure-no-auth",
              "--host",
              "127.0.0.1",
              "--port",
              Integer.toString(port),
              "--mappings",
              SAMPLE));
      Path err = dir.resolve("stderr");
      Process process =
          new ProcessBuilder(command)
              .redirectError(err.toFile())
              .redirectOutput(dir.resolve("stdout").toFile())
              .start();
      assertThat(process.waitFor(120, TimeUnit.SECONDS)).as("serve exits").isTrue();
      assertThat(process.exitValue()).isEqualTo(5);
      assertThat(Files.readString(err, StandardCharsets.UTF_8))
          .isEqualTo(
              "error: cannot listen on 127.0.0.1:"
                  + port
                  + ": address already in use (another process holds it? choose another with"
                  + " --port)"
                  + System.lineSeparator());
    }
  }

  @Test
  void validateOnAFolderWithoutAMappingFails(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("notes.txt"), "not a mapping");
    Result result = run("validate", dir.toString());
    assertThat(result.exit()).isEqualTo(1);
    assertThat(result.out()).isEmpty();
    assertThat(result.err())
        .isEqualTo(
            "error: no mapping found in "
                + dir
                + " (a directory loads its *.yaml and *.yml files, not *.test.yaml)"
                + System.lineSeparator());
  }

  @Test
  void aMissingSecretNamesItsFileAndItsVariable(@TempDir Path dir) throws Exception {
    Path mapping = dir.resolve("m.yaml");
    Path absent = dir.resolve("absent-token");
    Files.writeString(
        mapping,
        """
        name: m
        secrets:
          api: {file: "%s", env: APPSET_MAPPER_TEST_NEVER_SET_3f1a}
        list:
          request:
            url: "https://api.example.com/items"
            auth: {bearer: {secret: api}}
          items: "$[*]"
        parameters: {id: item.id}
        """
            .formatted(absent));
    Result result = run("run", mapping.toString());
    assertThat(result.exit()).isEqualTo(1);
    assertThat(result.err())
        .isEqualTo(
            "error 500: mapping 'm': secret 'api': cannot read file "
                + absent
                + ": no such file, and environment variable APPSET_MAPPER_TEST_NEVER_SET_3f1a is not"
                + " set"
                + System.lineSeparator());
  }

  @Test
  void aMapInputGivenWithInputPointsToInputJson(@TempDir Path dir) throws Exception {
    Path mapping = dir.resolve("m.yaml");
    Files.writeString(
        mapping,
        """
        name: m
        input:
          labels: {type: map}
        parameters: {x: "input.labels"}
        """);
    Result result = run("run", mapping.toString(), "--input", "labels=env:prod");
    assertThat(result.exit()).isEqualTo(2);
    assertThat(result.err())
        .isEqualTo(
            "error: input 'labels' is a map and --input gives a string; give it with --input-json"
                + " '{\"labels\":{\"k\":\"v\"}}'"
                + System.lineSeparator());
    Result typed =
        run("run", mapping.toString(), "--input-json", "{\"labels\":{\"env\":\"prod\"}}");
    assertThat(typed.exit()).as(typed.err()).isZero();
  }

  @Test
  void runExitCodesTellInputFromUpstreamFromMappingErrors(@TempDir Path dir) throws Exception {
    Result input = run("run", SAMPLE, "--input", "branch=a b", "--replay", REPLAY);
    assertThat(input.exit()).as(input.err()).isEqualTo(3);
    assertThat(input.err())
        .isEqualTo(
            "error 400: input 'branch' does not match the pattern [A-Za-z0-9._/-]{1,200}"
                + System.lineSeparator());

    Result upstream = run("run", SAMPLE, "--input", "branch=release-1.4", "--replay", REPLAY);
    assertThat(upstream.exit()).as(upstream.err()).isEqualTo(4);
    Result upstreamExplained =
        run("run", SAMPLE, "--input", "branch=release-1.4", "--replay", REPLAY, "--explain");
    assertThat(upstreamExplained.exit()).isEqualTo(4);

    Path mapping = dir.resolve("m.yaml");
    Files.writeString(
        mapping,
        """
        name: m
        filter: "'yes'"
        parameters: {x: "'abc'"}
        """);
    Result broken = run("run", mapping.toString());
    assertThat(broken.exit()).as(broken.err()).isEqualTo(1);
    assertThat(broken.err())
        .isEqualTo(
            "error 500: mapping 'm': filter ''yes'' gave yes on row 0, not true or false"
                + System.lineSeparator());
    assertThat(run("run", mapping.toString(), "--explain").exit()).isEqualTo(1);
  }

  @ParameterizedTest
  @ValueSource(strings = {"serve", "validate", "run", "test", "record"})
  void helpPlaceholdersReadAsWords(String command) {
    String help = run(command, "--help").out();
    Matcher placeholders = Pattern.compile("<([^>]*)>").matcher(help);
    while (placeholders.find()) {
      assertThat(placeholders.group(1)).as("in %s --help", command).matches("[a-z]+");
    }
    if (command.equals("serve")) {
      assertThat(help)
          .contains("--drain-delay=<duration>")
          .contains("--max-body-bytes=<bytes>")
          .contains("--token-file=<path>")
          .contains("--redis-timeout=<duration>");
    }
  }
}
