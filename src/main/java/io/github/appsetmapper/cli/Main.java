package io.github.appsetmapper.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code java -jar appset-mapper.jar <command>}. */
@Command(
    name = "appset-mapper",
    mixinStandardHelpOptions = true,
    versionProvider = Version.class,
    description = "Declarative Argo CD ApplicationSet plugin generator.",
    subcommands = {
      ServeCommand.class,
      ValidateCommand.class,
      RunCommand.class,
      TestCommand.class,
      DiffCommand.class,
      RecordCommand.class,
      CommandLine.HelpCommand.class
    })
public final class Main implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  public static void main(String[] args) {
    System.exit(commandLine().execute(args));
  }

  /** Set (to anything) to print the stack trace of an unexpected error. */
  static final String TRACE_ENV = "APPSET_MAPPER_STACK_TRACES";

  static CommandLine commandLine() {
    return new CommandLine(new Main())
        .setCaseInsensitiveEnumValuesAllowed(true)
        .setParameterExceptionHandler(Main::usageError)
        .setExecutionExceptionHandler(Main::unexpected);
  }

  /**
   * A command line picocli cannot read: its one line (escaped: it quotes what was typed), picocli's
   * suggestion when it has one, and where the usage is; never the whole usage after it, which
   * buries the line that says what was wrong.
   */
  private static int usageError(CommandLine.ParameterException e, String[] args) {
    CommandLine command = e.getCommandLine();
    var err = Terminal.of(command.getErr());
    err.println(e.getMessage());
    if (e instanceof CommandLine.UnmatchedArgumentException unmatched
        && !unmatched.getSuggestions().isEmpty()) {
      err.println("did you mean " + String.join(" or ", unmatched.getSuggestions()) + "?");
    }
    err.println("see '" + command.getCommandSpec().qualifiedName() + " --help'");
    err.flush();
    return ExitCode.USAGE;
  }

  /**
   * What no command expected: one line and exit 1. Every error a user can cause has its own line
   * and code; this is for the rest, whose trace is for us ({@link #TRACE_ENV}).
   */
  private static int unexpected(Exception e, CommandLine command, CommandLine.ParseResult parsed) {
    var err = Terminal.of(command.getErr());
    String message =
        e.getMessage() == null ? "" : ": " + e.getMessage().lines().findFirst().orElse("");
    err.println(
        "error: unexpected "
            + e.getClass().getSimpleName()
            + message
            + " (set "
            + TRACE_ENV
            + "=1 for the stack trace)");
    if (System.getenv(TRACE_ENV) != null) {
      e.printStackTrace(err);
    }
    err.flush();
    return ExitCode.FAILED;
  }

  @Override
  public void run() {
    throw new CommandLine.ParameterException(
        spec.commandLine(), "name a command: serve, validate, run, test or record");
  }
}
