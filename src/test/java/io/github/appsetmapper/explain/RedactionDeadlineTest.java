package io.github.appsetmapper.explain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.github.appsetmapper.expr.EvaluationBudget;
import io.github.appsetmapper.expr.ExpressionLimitException;
import io.github.appsetmapper.secret.Redactor;
import java.math.BigInteger;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Explain redacts the whole would-be answer again for its report: within the deadline ({@link
 * Explainer} opens it), each value a step, so an answer of many large numbers (each written as text
 * to be redacted) stops with it. No timing: the deadline has passed before the walk starts.
 */
class RedactionDeadlineTest {
  private static final BigInteger BIG = BigInteger.TEN.pow(9000).add(BigInteger.ONE);

  @Test
  void theReportsCopyOfTheAnswerIsRedactedWithinTheDeadline() {
    Map<String, Object> answer = Map.of("parameters", List.of(Map.of("n", BIG)));
    assertThat(Redaction.deep(answer, new Redactor())).isEqualTo(answer);
    List<Object> small = Collections.nCopies(2_000, "x");
    try (EvaluationBudget.Scope scope = EvaluationBudget.until(System.nanoTime() - 1)) {
      for (Object value : List.of(answer, small)) {
        Throwable thrown = catchThrowable(() -> Redaction.deep(value, new Redactor()));
        assertThat(thrown).isInstanceOf(ExpressionLimitException.class);
        assertThat(((ExpressionLimitException) thrown).deadline()).isTrue();
      }
    }
  }
}
