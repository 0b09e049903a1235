package io.github.appsetmapper.cli;

import io.github.appsetmapper.compile.CompiledMapping;
import io.github.appsetmapper.compile.MappingLoader;
import io.github.appsetmapper.compile.VarValues;
import io.github.appsetmapper.config.MappingSchema;
import io.github.appsetmapper.config.MappingSources;
import io.github.appsetmapper.config.Pos;
import io.github.appsetmapper.config.Problem;
import io.github.appsetmapper.config.YamlLimits;
import io.github.appsetmapper.files.BoundedFiles;
import io.github.appsetmapper.runtime.AppRuntime;
import io.github.appsetmapper.text.Plural;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code validate PATH...}: load every mapping as serve would and check it against the mapping JSON
 * Schema; exit 1 with one line per error, 2 for a {@code --var} no mapping declares or that the
 * mappings disagree on.
 */
@Command(
    name = "validate",
    mixinStandardHelpOptions = true,
    description = "Load and check mapping files without serving them.")
final class ValidateCommand extends RedactedCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Parameters(arity = "1..*", paramLabel = "PATH", description = "Mapping files or directories.")
  List<Path> paths;

  @Option(names = "--var", paramLabel = VarOption.LABEL, description = VarOption.DESCRIPTION)
  Map<String, String> vars = Map.of();

  @Override
  public Integer call() throws java.io.IOException {
    var err = Terminal.err(spec);
    VarValues given = VarOption.parse(vars, err);
    if (given == null) {
      return ExitCode.USAGE;
    }
    MappingLoader.Result result;
    try (AppRuntime runtime = runtimeBuilder().vars(given).build()) {
      result = runtime.load(paths);
    }
    boolean varsRefused = VarOption.refused(result, err, true);
    List<Problem> problems = withSchemaProblems(result.problems());
    if (!problems.isEmpty()) {
      ProblemPrinter.print(err, problems);
    }
    if (varsRefused) {
      return ExitCode.USAGE;
    }
    if (!problems.isEmpty()) {
      return ExitCode.FAILED;
    }
    if (result.mappings().isEmpty()) {
      // A wrong directory would otherwise pass as "0 mapping(s) valid".
      err.println(
          "error: no mapping found in "
              + String.join(", ", paths.stream().map(Path::toString).toList())
              + " (a directory loads its *.yaml and *.yml files, not *.test.yaml)");
      err.flush();
      return ExitCode.FAILED;
    }
    var out = Terminal.out(spec);
    for (CompiledMapping mapping : result.mappings()) {
      out.println(
          "ok "
              + mapping.sourceFile()
              + " "
              + mapping.name()
              + (mapping.description() == null ? "" : " - " + mapping.description().strip()));
    }
    out.println(Plural.of(result.mappings().size(), "mapping") + " valid");
    out.flush();
    return ExitCode.OK;
  }

  /**
   * The loader's problems and the JSON Schema's, file by file in line order. Where both found
   * something at the same place the loader's words are kept: they are the more precise.
   */
  private List<Problem> withSchemaProblems(List<Problem> loaded) {
    List<Path> files;
    try {
      files = MappingSources.expand(paths);
    } catch (IOException e) {
      return loaded; // the loader names the missing path
    }
    Set<String> places = new HashSet<>();
    loaded.forEach(p -> places.add(place(p.pos())));
    List<Problem> all = new ArrayList<>(loaded);
    for (Path file : files) {
      try {
        String content = BoundedFiles.readText(file, YamlLimits.MAPPING.fileBytes());
        for (Problem problem : MappingSchema.check(file.toString(), content)) {
          if (places.add(place(problem.pos()))) {
            all.add(problem);
          }
        }
      } catch (IOException e) {
        // the loader names the unreadable file
      }
    }
    List<String> order = new ArrayList<>();
    all.forEach(
        p -> {
          if (!order.contains(p.pos().file())) {
            order.add(p.pos().file());
          }
        });
    all.sort(
        Comparator.comparingInt((Problem p) -> order.indexOf(p.pos().file()))
            .thenComparingInt(p -> p.pos().line())
            .thenComparingInt(p -> p.pos().column()));
    return all;
  }

  private static String place(Pos pos) {
    return pos.file() + ":" + pos.line() + ":" + pos.column();
  }
}
