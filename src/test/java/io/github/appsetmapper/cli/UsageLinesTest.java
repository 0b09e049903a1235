package io.github.appsetmapper.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.cli.CliTest.Result;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What the command line prints about itself (issue 21, item 13): help without picocli's own
 * warnings, a usage error as its one line and where the usage is, flags that take what the README
 * says they take.
 */
class UsageLinesTest {
  @ParameterizedTest
  @ValueSource(strings = {"", "serve", "validate", "run", "test", "record", "diff", "help"})
  void helpPrintsNoPicocliWarning(String command) {
    // picocli warns on System.err, not on the command line's writer.
    PrintStream before = System.err;
    ByteArrayOutputStream warnings = new ByteArrayOutputStream();
    Result result;
    try {
      System.setErr(new PrintStream(warnings, true, StandardCharsets.UTF_8));
      result = command.isEmpty() ? CliTest.run("--help") : CliTest.run(command, "--help");
    } finally {
      System.setErr(before);
    }
    assertThat(result.exit()).isZero();
    assertThat(warnings.toString(StandardCharsets.UTF_8)).isEmpty();
    assertThat(result.err()).isEmpty();
    assertThat(result.out()).doesNotContain("picocli").doesNotContain("%n");
    if (command.equals("serve")) {
      assertThat(result.out()).contains("(default 20%; 0% never skips)");
    }
  }

  @Test
  void aUsageErrorIsItsLineAndWhereTheUsageIs() {
    Result unknown = CliTest.run("serve", "--mappings", "m.yaml", "--no-such-flag");
    assertThat(unknown.exit()).isEqualTo(2);
    assertThat(unknown.err().lines())
        .containsExactly("Unknown option: '--no-such-flag'", "see 'appset-mapper serve --help'");
    assertThat(unknown.out()).isEmpty();

    Result typo = CliTest.run("validate", "--formt", "x");
    assertThat(typo.exit()).isEqualTo(2);
    assertThat(typo.err().lines()).hasSizeLessThanOrEqualTo(3);
    assertThat(typo.err().lines().toList().get(0)).startsWith("Unknown option: '--formt'");
    assertThat(typo.err()).endsWith("see 'appset-mapper validate --help'" + System.lineSeparator());

    Result malformed = CliTest.run("serve", "--port", "many");
    assertThat(malformed.exit()).isEqualTo(2);
    assertThat(malformed.err().lines()).hasSize(2);
    assertThat(malformed.err().lines().toList().get(1))
        .isEqualTo("see 'appset-mapper serve --help'");
  }

  @Test
  void aDrainDelayOfZeroIsAccepted(@TempDir Path dir) throws Exception {
    // The README gives --drain-delay only an upper bound. serve runs in a JVM of its own (it sets
    // up logging); a later flag out of range stops it before it listens.
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName()));
    command.addAll(
        List.of(
            "serve",
            "--insecure-no-auth",
            "--drain-delay",
            "0s",
            "--read-timeout",
            "1ms",
            "--mappings",
            "samples/pr-digests/pr-digests.yaml"));
    Path err = dir.resolve("stderr");
    Process process =
        new ProcessBuilder(command)
            .redirectError(err.toFile())
            .redirectOutput(dir.resolve("stdout").toFile())
            .start();
    assertThat(process.waitFor(120, TimeUnit.SECONDS)).as("serve exits").isTrue();
    assertThat(process.exitValue()).isEqualTo(2);
    assertThat(Files.readString(err, StandardCharsets.UTF_8))
        .isEqualTo(
            "error: --read-timeout must be from 100ms to 3600s, not 1ms" + System.lineSeparator());
  }
}
