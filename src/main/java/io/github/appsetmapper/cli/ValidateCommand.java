package io.github.appsetmapper.cli;

import io.github.appsetmapper.compile.CompileOptions;
import io.github.appsetmapper.compile.CompiledMapping;
import io.github.appsetmapper.compile.MappingLoader;
import io.github.appsetmapper.secret.Redactor;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code validate PATH...}: load every mapping as serve would; exit 1 with one line per error. */
@Command(
    name = "validate",
    mixinStandardHelpOptions = true,
    description = "Load and check mapping files without serving them.")
final class ValidateCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Parameters(arity = "1..*", paramLabel = "PATH", description = "Mapping files or directories.")
  List<Path> paths;

  @Option(names = "--var", paramLabel = "NAME=VALUE", description = "Set a mapping var.")
  Map<String, String> vars = Map.of();

  @Override
  public Integer call() {
    MappingLoader.Result result =
        MappingLoader.load(paths, CompileOptions.of(vars, new Redactor()));
    if (!result.ok()) {
      ProblemPrinter.print(spec.commandLine().getErr(), result.problems());
      return 1;
    }
    var out = spec.commandLine().getOut();
    for (CompiledMapping mapping : result.mappings()) {
      out.println(
          "ok "
              + mapping.sourceFile()
              + " "
              + mapping.name()
              + (mapping.description() == null ? "" : " - " + mapping.description().strip()));
    }
    out.println(result.mappings().size() + " mapping(s) valid");
    out.flush();
    return 0;
  }
}
