package io.github.appsetmapper.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Whatever is wrong on the command line is one line naming it and the exit code the README's table
 * gives, never a stack trace (red team LOW a).
 */
class CliErrorsTest {
  static final String SMALL =
      """
      name: small
      list:
        request:
          url: "http://127.0.0.1:1/items"
        items: "$[*]"
      parameters:
        x: item.x
      """;

  @Test
  void runRefusesAnAppSetTheServerWouldRefuse(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("small.yaml");
    Files.writeString(file, SMALL);
    CliTest.Result result = CliTest.run("run", file.toString(), "--app-set", "Bad_Name\n");
    assertThat(result.exit()).isEqualTo(2);
    assertThat(result.err())
        .isEqualTo(
            "error: --app-set must be a Kubernetes name: at most 253 lowercase letters, digits,"
                + " '-' and '.', starting and ending with a letter or digit\n");
    assertThat(result.out()).isEmpty();
  }

  @Test
  void aReplayFileThatCannotBeReadIsOneLine(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("small.yaml");
    Files.writeString(file, SMALL);
    Path absent = dir.resolve("absent.test.yaml");
    for (String command : new String[] {"run", "serve"}) {
      CliTest.Result result =
          command.equals("run")
              ? CliTest.run("run", file.toString(), "--replay", absent.toString())
              : CliTest.run(
                  "serve",
                  "--mappings",
                  file.toString(),
                  "--insecure-no-auth",
                  "--port",
                  "0",
                  "--replay",
                  absent.toString());
      assertThat(result.exit()).as(command).isEqualTo(2);
      assertThat(result.err())
          .as(command)
          .isEqualTo("error: " + absent + ": cannot read: no such file\n");
    }
  }
}
