package io.github.appsetmapper.explain;

import io.github.appsetmapper.compile.CompiledMapping;
import io.github.appsetmapper.engine.Engine;
import io.github.appsetmapper.engine.Invocation;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Runs one getparams through the engine with a recording trace and returns the report. A failure
 * does not escape: it becomes the report's would-be answer, through {@code failures} (the same
 * mapping of failures to statuses that getparams uses).
 */
public final class Explainer {
  private Explainer() {}

  public static ExplainReport explain(
      Engine engine,
      CompiledMapping mapping,
      Invocation invocation,
      Function<Throwable, ExplainReport.Answer> failures) {
    return explain(
        engine, mapping, invocation, failures, java.util.function.UnaryOperator.identity());
  }

  /** As above, the recorder wrapped by {@code around} (a trace that also records spans). */
  public static ExplainReport explain(
      Engine engine,
      CompiledMapping mapping,
      Invocation invocation,
      Function<Throwable, ExplainReport.Answer> failures,
      java.util.function.UnaryOperator<io.github.appsetmapper.engine.Trace> around) {
    ExplainRecorder recorder = new ExplainRecorder(engine.redactor(), engine.calls().budget());
    try {
      ExplainReport.Answer answer;
      try {
        List<Map<String, Object>> parameters =
            engine.execute(mapping, invocation, around.apply(recorder));
        answer = ExplainReport.Answer.parameters(parameters);
      } catch (Exception | StackOverflowError failure) {
        answer = failures.apply(failure);
      }
      return recorder.report(
          mapping.name(), invocation.applicationSetName(), invocation.parameters(), answer);
    } finally {
      recorder.release();
    }
  }
}
