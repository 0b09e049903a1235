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
      RecordCommand.class,
      CommandLine.HelpCommand.class
    })
public final class Main implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  public static void main(String[] args) {
    System.exit(commandLine().execute(args));
  }

  static CommandLine commandLine() {
    return new CommandLine(new Main()).setCaseInsensitiveEnumValuesAllowed(true);
  }

  @Override
  public void run() {
    throw new CommandLine.ParameterException(
        spec.commandLine(), "name a command: serve, validate, run, test or record");
  }
}
