package io.github.appsetmapper.cli;

import io.github.appsetmapper.compile.CompiledMapping;
import io.github.appsetmapper.compile.MappingLoader;
import io.github.appsetmapper.engine.Invocation;
import io.github.appsetmapper.explain.ExplainFormat;
import io.github.appsetmapper.explain.ExplainReport;
import io.github.appsetmapper.explain.Explainer;
import io.github.appsetmapper.json.JsonCodec;
import io.github.appsetmapper.json.JsonRefusal;
import io.github.appsetmapper.server.ErrorAnswer;
import io.github.appsetmapper.server.ErrorAnswers;
import io.github.appsetmapper.server.Json;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code run FILE}: one getparams call without a server, printing the exact body the server would
 * answer; on failure the error body, and the status on stderr, with exit code 1.
 */
@Command(
    name = "run",
    mixinStandardHelpOptions = true,
    description = "Execute a mapping once and print the getparams answer.")
final class RunCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Parameters(index = "0", paramLabel = "FILE", description = "The mapping file.")
  Path file;

  @Option(
      names = "--mapping",
      paramLabel = "NAME",
      description = "Which mapping, when the file holds several.")
  String mappingName;

  @Option(
      names = "--input",
      paramLabel = "KEY=VALUE",
      description = "An input parameter, as a string (repeatable).")
  Map<String, String> inputs = new LinkedHashMap<>();

  @Option(
      names = "--input-json",
      paramLabel = "JSON",
      description = "Input parameters as a JSON object (typed values).")
  String inputJson;

  @Option(
      names = "--app-set",
      paramLabel = "NAME",
      defaultValue = "appset-mapper-run",
      description = "The applicationSetName sent (default ${DEFAULT-VALUE}).")
  String appSet;

  @Option(
      names = "--var",
      paramLabel = "NAME=VALUE",
      description = "Set a mapping var (repeatable).")
  Map<String, String> vars = Map.of();

  @Option(
      names = "--replay",
      paramLabel = "FILE",
      description = "Answer upstream calls from the recorded exchanges of a test file.")
  Path replay;

  @Option(
      names = "--explain",
      description =
          "Print why the mapping answers what it answers (every upstream call, the rows after"
              + " each stage, why rows dropped, each row's parameters, the answer) instead of the"
              + " answer; the exit code is still 1 when getparams would fail.")
  boolean explain;

  @Option(
      names = "--explain-format",
      paramLabel = "FORMAT",
      defaultValue = "text",
      description = "text or json (default ${DEFAULT-VALUE}).")
  ExplainFormat explainFormat;

  @Override
  @SuppressWarnings("unchecked")
  public Integer call() throws Exception {
    var out = spec.commandLine().getOut();
    var err = spec.commandLine().getErr();
    try (EngineRuntime runtime = new EngineRuntime(16, replay)) {
      MappingLoader.Result loaded = MappingLoader.load(List.of(file), runtime.compileOptions(vars));
      if (!loaded.ok()) {
        ProblemPrinter.print(err, loaded.problems());
        return 1;
      }
      CompiledMapping mapping = pick(loaded.mappings());
      if (mapping == null) {
        err.println("error: " + file + " holds several mappings; name one with --mapping");
        err.flush();
        return 1;
      }
      Map<String, Object> parameters = new LinkedHashMap<>();
      if (inputJson != null) {
        Object given;
        try {
          given = JsonCodec.read(inputJson);
        } catch (JsonRefusal e) {
          given = e;
        }
        if (!(given instanceof Map<?, ?> typed)) {
          err.println(
              "error: --input-json "
                  + (given instanceof JsonRefusal e ? e.located() : "must be a JSON object"));
          err.flush();
          return 1;
        }
        parameters.putAll((Map<String, Object>) typed);
      }
      parameters.putAll(inputs);
      Invocation invocation = new Invocation(appSet, parameters);
      if (explain) {
        ErrorAnswers errors = new ErrorAnswers(runtime.redactor);
        ExplainReport report =
            Explainer.explain(
                runtime.engine,
                mapping,
                invocation,
                failure -> {
                  ErrorAnswer answer = errors.map(failure);
                  return ExplainReport.Answer.error(answer.status(), answer.message());
                });
        out.print(explainFormat.render(report));
        if (explainFormat == ExplainFormat.JSON) {
          out.println();
        }
        out.flush();
        return report.answer().ok() ? 0 : 1;
      }
      try {
        out.println(Json.answer(runtime.engine.execute(mapping, invocation)));
        out.flush();
        return 0;
      } catch (Exception failure) {
        var answer = new ErrorAnswers(runtime.redactor).map(failure);
        out.println(Json.error(answer.message()));
        out.flush();
        err.println("error " + answer.status() + ": " + answer.message());
        err.flush();
        return 1;
      }
    }
  }

  private CompiledMapping pick(List<CompiledMapping> mappings) {
    if (mappingName != null) {
      return mappings.stream().filter(m -> m.name().equals(mappingName)).findFirst().orElse(null);
    }
    return mappings.size() == 1 ? mappings.get(0) : null;
  }
}
