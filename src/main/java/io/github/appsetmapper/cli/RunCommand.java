package io.github.appsetmapper.cli;

import io.github.appsetmapper.compile.CompiledMapping;
import io.github.appsetmapper.compile.InputRule;
import io.github.appsetmapper.compile.MappingLoader;
import io.github.appsetmapper.compile.VarValues;
import io.github.appsetmapper.config.InputSpec;
import io.github.appsetmapper.engine.Invocation;
import io.github.appsetmapper.engine.Trace;
import io.github.appsetmapper.explain.ExplainFormat;
import io.github.appsetmapper.explain.ExplainReport;
import io.github.appsetmapper.explain.Explainer;
import io.github.appsetmapper.runtime.AppRuntime;
import io.github.appsetmapper.server.ErrorAnswer;
import io.github.appsetmapper.server.ErrorAnswers;
import io.github.appsetmapper.server.Json;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code run FILE}: one getparams call without a server, printing the exact body the server would
 * answer; on failure the error body, and the status on stderr, with exit code 1.
 */
@Command(
    name = "run",
    mixinStandardHelpOptions = true,
    description = "Execute a mapping once and print the getparams answer.")
final class RunCommand extends RedactedCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @CommandLine.Mixin MappingRunOptions run = new MappingRunOptions();

  @Option(
      names = "--app-set",
      paramLabel = "NAME",
      defaultValue = "appset-mapper-run",
      description = "The applicationSetName sent (default ${DEFAULT-VALUE}).")
  String appSet;

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
  public Integer call() throws Exception {
    var out = Terminal.out(spec);
    var err = Terminal.err(spec);
    VarValues given = VarOption.parse(run.vars, err);
    if (given == null) {
      return ExitCode.USAGE;
    }
    if (AppSetOption.refused(appSet, err)) {
      return ExitCode.USAGE;
    }
    AppRuntime started;
    try {
      started =
          runtimeBuilder()
              .vars(given)
              .http(replay == null ? MappingRunOptions.httpOptions() : null)
              .replay(replay)
              .enrichThreads(16)
              .build();
    } catch (IOException e) {
      err.println("error: " + e.getMessage());
      err.flush();
      return ExitCode.USAGE;
    }
    try (AppRuntime runtime = started) {
      MappingLoader.Result loaded = runtime.load(List.of(run.file));
      boolean varsRefused = VarOption.refused(loaded, err, true);
      if (!loaded.problems().isEmpty()) {
        ProblemPrinter.print(err, loaded.problems());
      }
      if (varsRefused) {
        return ExitCode.USAGE;
      }
      if (!loaded.ok()) {
        return ExitCode.FAILED;
      }
      String notReplayable = runtime.replayRefusal(loaded.mappings(), run.file);
      if (notReplayable != null) {
        err.println("error: " + notReplayable);
        err.flush();
        return ExitCode.USAGE;
      }
      CompiledMapping mapping = run.pick(loaded.mappings(), err);
      if (mapping == null) {
        err.flush();
        return ExitCode.USAGE;
      }
      String structured = structuredInput(mapping);
      if (structured != null) {
        err.println(structured);
        err.flush();
        return ExitCode.USAGE;
      }
      Map<String, Object> parameters = run.input(err);
      if (parameters == null) {
        err.flush();
        return ExitCode.USAGE;
      }
      Invocation invocation = new Invocation(appSet, parameters);
      if (explain) {
        ErrorAnswers errors = new ErrorAnswers(runtime.redactor());
        int[] exit = {ExitCode.OK};
        // Run and rendered within the getparams' deadline, as the server's explain is: the
        // report's text grows with the answer, and past the deadline it is the deadline's 504.
        Explainer.Rendered rendered =
            Explainer.rendered(
                runtime.engine(),
                mapping,
                invocation,
                failure -> {
                  exit[0] = ExitCode.of(failure);
                  ErrorAnswer answer = errors.map(failure);
                  return ExplainReport.Answer.error(answer.status(), answer.message());
                },
                java.util.function.UnaryOperator.identity(),
                explainFormat,
                null);
        ExplainReport report = rendered.report();
        out.print(new String(rendered.body(), java.nio.charset.StandardCharsets.UTF_8));
        if (explainFormat == ExplainFormat.JSON) {
          out.println();
        }
        out.flush();
        return report.answer().ok() ? ExitCode.OK : Math.max(exit[0], ExitCode.FAILED);
      }
      try {
        // Written as getparams writes it, within the deadline: the same 504 where it would be one.
        out.println(
            new String(
                runtime.engine().written(mapping, invocation, Trace.NONE).body(),
                java.nio.charset.StandardCharsets.UTF_8));
        out.flush();
        return ExitCode.OK;
      } catch (Exception failure) {
        var answer = new ErrorAnswers(runtime.redactor()).map(failure);
        out.println(Json.error(answer.message()));
        out.flush();
        err.println("error " + answer.status() + ": " + answer.message());
        err.flush();
        return ExitCode.of(failure);
      }
    }
  }

  /**
   * {@code --input k=v} gives a string: for an input typed as a map or a list that is never right,
   * and the way to give one is {@code --input-json}. Null when every {@code --input} fits.
   */
  private String structuredInput(CompiledMapping mapping) {
    for (String key : run.inputs.keySet()) {
      InputRule rule = mapping.inputs().get(key);
      if (rule != null
          && (rule.type() == InputSpec.InputType.MAP || rule.type() == InputSpec.InputType.LIST)) {
        String example = rule.type() == InputSpec.InputType.MAP ? "{\"k\":\"v\"}" : "[\"a\",\"b\"]";
        return "error: input '"
            + key
            + "' is a "
            + rule.type()
            + " and --input gives a string; give it with --input-json '{\""
            + key
            + "\":"
            + example
            + "}'";
      }
    }
    return null;
  }
}
