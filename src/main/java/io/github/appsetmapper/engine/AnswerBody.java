package io.github.appsetmapper.engine;

import io.github.appsetmapper.expr.EvaluationBudget;
import io.github.appsetmapper.json.JsonCodec;
import java.util.List;
import java.util.Map;

/**
 * The getparams answer as Argo CD reads it, {@code {"output":{"parameters":[...]}}}: written by the
 * engine while the answer's deadline still holds ({@link Engine#answer}), every value shown to the
 * evaluation's budget first, so a number of thousands of digits (a millisecond to write) checks the
 * deadline before it is written and a run of cheap ones every 1,024th. Written after the deadline's
 * last check, 881 numbers of 8,991 digits ({@code keepTypes}) answered a 200 at 3.3 s for {@code
 * deadline: 2s}; now the deadline's 504.
 */
public final class AnswerBody {
  private AnswerBody() {}

  /**
   * The wire JSON of {@code parameters}; within an answer's evaluation (its deadline open on this
   * thread) it stops with the deadline, elsewhere (a command's output) nothing stops it.
   */
  public static String of(List<Map<String, Object>> parameters) {
    // Each value written is a step of the evaluation's budget (its deadline).
    return JsonCodec.write(
        Map.of("output", Map.of("parameters", parameters)), EvaluationBudget.pace());
  }

  /**
   * {@link #of} as the bytes sent: UTF-8, encoded value by value as it is written, so that nothing
   * that grows with the answer is left for after the deadline's checks (the text was encoded when
   * it was sent, unchecked); the deadline is checked once more when the last byte is written.
   */
  public static byte[] bytes(List<Map<String, Object>> parameters) {
    byte[] bytes =
        JsonCodec.writeBytes(
            Map.of("output", Map.of("parameters", parameters)), EvaluationBudget.pace());
    EvaluationBudget.check();
    return bytes;
  }
}
