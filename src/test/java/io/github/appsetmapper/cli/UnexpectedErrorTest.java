package io.github.appsetmapper.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * What no command expected is printed through the command's redactor, its line and the stack trace
 * asked for ({@code APPSET_MAPPER_STACK_TRACES}) alike: the trace was printed as it was, a secret
 * quoted in an exception's message (or its cause's) with it.
 */
class UnexpectedErrorTest {
  private static final String SECRET = "s3cr3t-token-4f9a";

  @CommandLine.Command(name = "leaky")
  static final class Leaky extends RedactedCommand implements Callable<Integer> {
    @Override
    public Integer call() throws Exception {
      redactor().hold(SECRET);
      throw new IllegalStateException(
          "upstream refused token " + SECRET,
          new IOException("sent Authorization: Bearer " + SECRET));
    }
  }

  private static String run(boolean trace) {
    StringWriter err = new StringWriter();
    CommandLine command = new CommandLine(new Leaky());
    command.setErr(new PrintWriter(err, true));
    command.setExecutionExceptionHandler((e, line, parsed) -> Main.unexpected(e, line, trace));
    assertThat(command.execute()).isEqualTo(ExitCode.FAILED);
    return err.toString();
  }

  @Test
  void theLineAndTheStackTraceAreRedacted() {
    String line = run(false);
    assertThat(line)
        .startsWith("error: unexpected IllegalStateException: upstream refused token ***")
        .doesNotContain(SECRET);
    String trace = run(true);
    assertThat(trace)
        .doesNotContain(SECRET)
        .contains("java.lang.IllegalStateException: upstream refused token ***")
        .contains("java.io.IOException: sent Authorization: Bearer ***")
        .contains("at io.github.appsetmapper.cli.UnexpectedErrorTest$Leaky.call(");
  }
}
