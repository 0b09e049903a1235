package io.github.appsetmapper.explain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.github.appsetmapper.expr.EvaluationBudget;
import io.github.appsetmapper.expr.ExpressionLimitException;
import java.math.BigInteger;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The server's explain report is rendered within the getparams' deadline ({@link
 * Explainer#rendered} opens it), each value written a step of it as the answer's JSON is: before,
 * it was rendered after the deadline's last check, unbounded but by the memory budget (a report of
 * 881 numbers of 8,991 digits is seconds of text). No timing: the deadline has passed before the
 * rendering starts, and a rendering that never checks it finishes.
 */
class RenderDeadlineTest {
  private static final BigInteger BIG = BigInteger.TEN.pow(9000).add(BigInteger.ONE);

  private static ExplainReport report(List<Map<String, Object>> parameters) {
    return new ExplainReport(
        "m",
        "set",
        Map.of(),
        List.of(),
        List.of(),
        List.of(),
        ExplainReport.Answer.parameters(parameters));
  }

  @Test
  void aReportOfBigNumbersIsRenderedWithinTheDeadline() {
    ExplainReport big = report(List.of(Map.of("n", BIG)));
    ExplainReport many = report(Collections.nCopies(2_000, Map.of("n", "x")));
    for (ExplainFormat format : ExplainFormat.values()) {
      assertThat(format.render(big, null)).as(format.name()).contains("1000000000");
      try (EvaluationBudget.Scope scope = EvaluationBudget.until(System.nanoTime() - 1)) {
        for (ExplainReport report : List.of(big, many)) {
          Throwable thrown = catchThrowable(() -> format.render(report, "0af7651916cd43dd"));
          assertThat(thrown).as(format.name()).isInstanceOf(ExpressionLimitException.class);
          assertThat(((ExpressionLimitException) thrown).deadline()).isTrue();
        }
      }
    }
  }
}
