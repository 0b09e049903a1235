package io.github.appsetmapper.explain;

import io.github.appsetmapper.compile.CompiledMapping;
import io.github.appsetmapper.config.Durations;
import io.github.appsetmapper.engine.Engine;
import io.github.appsetmapper.engine.Invocation;
import io.github.appsetmapper.expr.EvaluationBudget;
import io.github.appsetmapper.expr.ExpressionLimitException;
import io.github.appsetmapper.upstream.call.Deadline;
import io.github.appsetmapper.upstream.call.RequestFailure;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Runs one getparams through the engine with a recording trace and returns the report. A failure
 * does not escape: it becomes the report's would-be answer, through {@code failures} (the same
 * mapping of failures to statuses that getparams uses). The would-be answer is getparams' own: its
 * JSON written within the deadline ({@link Engine#written}), and the report's copy of it redacted
 * within the same deadline, so an answer too large to finish in time is the deadline's 504 here
 * too, never a 200 the real call would not give.
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
    return run(engine, mapping, invocation, failures, around, report -> report);
  }

  /** A report and its bytes in a format, as the server sends them. */
  public record Rendered(ExplainReport report, byte[] body) {}

  /**
   * As above, and the report rendered in {@code format} (naming {@code traceId}, null: none) within
   * the same deadline, each value a step of it: the server's report, whose rendering grows with the
   * answer, is then the deadline's 504 too when it cannot be written in time, never written
   * unchecked after it.
   */
  public static Rendered rendered(
      Engine engine,
      CompiledMapping mapping,
      Invocation invocation,
      Function<Throwable, ExplainReport.Answer> failures,
      java.util.function.UnaryOperator<io.github.appsetmapper.engine.Trace> around,
      ExplainFormat format,
      String traceId) {
    return run(
        engine,
        mapping,
        invocation,
        failures,
        around,
        report -> new Rendered(report, format.bytes(report, traceId)));
  }

  /**
   * The run, then {@code finish} (the report's redaction, and what the caller makes of the report)
   * within the getparams' deadline; past it, {@code finish} of the report of the deadline's 504,
   * whose answer is one line and the rest of the report bounded by the recorder.
   */
  private static <T> T run(
      Engine engine,
      CompiledMapping mapping,
      Invocation invocation,
      Function<Throwable, ExplainReport.Answer> failures,
      java.util.function.UnaryOperator<io.github.appsetmapper.engine.Trace> around,
      Function<ExplainReport, T> finish) {
    ExplainRecorder recorder = new ExplainRecorder(engine.redactor(), engine.calls().budget());
    // The getparams' deadline, begun with the engine's (microseconds before it).
    Deadline deadline = Deadline.after(mapping.deadline());
    try {
      ExplainReport.Answer answer;
      try {
        List<Map<String, Object>> parameters =
            engine.written(mapping, invocation, around.apply(recorder)).parameters();
        answer = ExplainReport.Answer.parameters(parameters);
      } catch (Exception | StackOverflowError failure) {
        answer = failures.apply(failure);
      }
      // The report redacts every value of the answer again, and may be rendered: work that grows
      // with it.
      try (EvaluationBudget.Scope scope = EvaluationBudget.until(deadline.endNanos())) {
        return finish.apply(report(recorder, mapping, invocation, answer));
      } catch (ExpressionLimitException e) {
        if (!e.deadline()) {
          throw e;
        }
        RequestFailure late =
            new RequestFailure(
                    "deadline "
                        + Durations.format(mapping.deadline())
                        + " exceeded while the answer was redacted for explain",
                    RequestFailure.Kind.DEADLINE)
                .inMapping(mapping.name());
        return finish.apply(report(recorder, mapping, invocation, failures.apply(late)));
      }
    } finally {
      recorder.release();
    }
  }

  private static ExplainReport report(
      ExplainRecorder recorder,
      CompiledMapping mapping,
      Invocation invocation,
      ExplainReport.Answer answer) {
    return recorder.report(
        mapping.name(), invocation.applicationSetName(), invocation.parameters(), answer);
  }
}
