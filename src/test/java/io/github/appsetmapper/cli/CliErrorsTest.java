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

  /** Each flag out of its range: one line naming it and its range, exit 2 (red team M4). */
  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.CsvSource(
      delimiter = '|',
      value = {
        "--port|99999|--port must be from 0 to 65535, not 99999",
        "--port|-1|--port must be from 0 to 65535, not -1",
        "--host|256.1.1.1|--host '256.1.1.1' is neither an IP address nor a name that resolves",
        "--upstream-threads|0|--upstream-threads must be from 1 to 1024, not 0",
        "--worker-threads|-3|--worker-threads must be from 1 to 4096, not -3",
        "--max-body-bytes|-5|--max-body-bytes must be from 1 to 1073741824, not -5",
        "--host-max-connections|0|--host-max-connections must be from 1 to 10000, not 0",
        "--memory-budget|2000Gi|--memory-budget must be from 1Mi to 1024Gi, not 2000Gi",
        "--memory-budget|1Ki|--memory-budget must be from 1Mi to 1024Gi, not 1Ki",
        "--webhook-max-body-bytes|0|--webhook-max-body-bytes must be from 1 to 64Mi, not 0",
        "--reload-interval|10ms|--reload-interval must be from 100ms to 3600s, not 10ms",
        "--grace-period|99999999999h|--grace-period must be from 1ms to 600s, not 359999999996400s",
        "--idle-timeout|500ms|--idle-timeout must be from 1s to 86400s, not 500ms",
      })
  void aServeFlagOutOfItsRangeIsOneLineAndExit2(
      String flag, String value, String message, @TempDir Path dir) throws IOException {
    Path file = dir.resolve("small.yaml");
    Files.writeString(file, SMALL);
    CliTest.Result result =
        CliTest.run("serve", "--mappings", file.toString(), "--insecure-no-auth", flag, value);
    assertThat(result.exit()).as(result.err()).isEqualTo(2);
    assertThat(result.err()).isEqualTo("error: " + message + "\n");
  }

  @Test
  void runRefusesAnAppSetTheServerWouldRefuse(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("small.yaml");
    Files.writeString(file, SMALL);
    // record sends the same name to the same engine: the same check (it had none).
    for (String command : new String[] {"run", "record"}) {
      CliTest.Result result =
          command.equals("run")
              ? CliTest.run(command, file.toString(), "--app-set", "Bad_Name\n")
              : CliTest.run(command, file.toString(), "--case", "c", "--app-set", "Bad_Name\n");
      assertThat(result.exit()).as(command).isEqualTo(2);
      assertThat(result.err())
          .as(command)
          .isEqualTo(
              "error: --app-set must be a Kubernetes name: at most 253 lowercase letters, digits,"
                  + " '-' and '.', starting and ending with a letter or digit\n");
      assertThat(result.out()).isEmpty();
    }
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
