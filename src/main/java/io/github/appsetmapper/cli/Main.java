package io.github.appsetmapper.cli;

import io.github.appsetmapper.secret.Redactor;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code java -jar appset-mapper.jar <command>}. */
@Command(
    name = "appset-mapper",
    mixinStandardHelpOptions = true,
    versionProvider = Version.class,
    description = "Declarative Argo CD ApplicationSet plugin generator.")
public final class Main implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  /** The commands, in the order the usage lists them. */
  static final List<Class<?>> COMMANDS =
      List.of(
          ServeCommand.class,
          ValidateCommand.class,
          RunCommand.class,
          TestCommand.class,
          DiffCommand.class,
          RecordCommand.class,
          CommandLine.HelpCommand.class);

  public static void main(String[] args) {
    System.exit(commandLine(args).execute(args));
  }

  /** Set (to anything) to print the stack trace of an unexpected error. */
  static final String TRACE_ENV = "APPSET_MAPPER_STACK_TRACES";

  /** The whole command line: every command. */
  static CommandLine commandLine() {
    return configured(COMMANDS);
  }

  /**
   * The command line to run {@code args} with: only the command they name when the first one names
   * one (help aside, which needs the others). Picocli builds every registered command on start,
   * instances included: {@code serve} alone, its flags and what their types load (Logback set up by
   * a static logger among them), was about 1,000 classes before {@code test} or {@code validate}
   * ran (issue 25). Anything else (no command, an option first, a typo to suggest a name for) gets
   * every command, so usage and errors are the same as before.
   */
  static CommandLine commandLine(String... args) {
    if (args.length > 0) {
      for (Class<?> command : COMMANDS) {
        String name = command.getAnnotation(Command.class).name();
        if (name.equals(args[0]) && command != CommandLine.HelpCommand.class) {
          return configured(List.of(command));
        }
      }
    }
    return commandLine();
  }

  private static CommandLine configured(List<Class<?>> commands) {
    CommandLine root = new CommandLine(new Main());
    for (Class<?> command : commands) {
      root.addSubcommand(command);
    }
    // After the commands: picocli passes these settings to the subcommands registered so far.
    return root.setCaseInsensitiveEnumValuesAllowed(true)
        .setParameterExceptionHandler(new Handlers())
        .setExecutionExceptionHandler(new Handlers());
  }

  /**
   * The two handlers as a class, not as method references: a lambda over picocli's interfaces
   * (class files of Java 5) links them while Java 17 writes a class archive, and an archive skips
   * such a class once it is linked: picocli's {@code CommandLine} then came from the jar on every
   * launcher run (bin/appset-mapper; docs/performance.md, section 9).
   */
  private static final class Handlers
      implements CommandLine.IParameterExceptionHandler, CommandLine.IExecutionExceptionHandler {
    @Override
    public int handleParseException(CommandLine.ParameterException e, String[] args) {
      return usageError(e, args);
    }

    @Override
    public int handleExecutionException(
        Exception e, CommandLine command, CommandLine.ParseResult parsed) {
      return unexpected(e, command, parsed);
    }
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
    return unexpected(e, command, System.getenv(TRACE_ENV) != null);
  }

  /**
   * As above, {@code trace} saying whether the stack trace is printed. Both the line and the trace
   * pass through the command's redactor ({@link RedactedCommand}; else a new one, which still
   * scrubs what the process holds): an exception's message may quote a secret it read.
   */
  static int unexpected(Exception e, CommandLine command, boolean trace) {
    var err = Terminal.of(command.getErr());
    Redactor redactor =
        command.getCommand() instanceof RedactedCommand redacted
            ? redacted.redactor()
            : new Redactor();
    String message =
        e.getMessage() == null
            ? ""
            : ": " + redactor.redact(e.getMessage()).lines().findFirst().orElse("");
    err.println(
        "error: unexpected "
            + e.getClass().getSimpleName()
            + message
            + " (set "
            + TRACE_ENV
            + "=1 for the stack trace)");
    if (trace) {
      redactor.scrub(e).printStackTrace(err);
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
