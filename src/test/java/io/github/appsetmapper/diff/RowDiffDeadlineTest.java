package io.github.appsetmapper.diff;

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
 * Shadow mode compares a candidate's answer with the live one within the candidate's deadline: each
 * row matched checks it, and a large value is written (then cut) within it. The {@code diff}
 * command opens no deadline, and compares as before. No timing: the deadline has passed before the
 * comparison starts.
 */
class RowDiffDeadlineTest {
  private static final BigInteger BIG = BigInteger.TEN.pow(9000).add(BigInteger.ONE);

  private static void assertDeadline(Runnable step) {
    Throwable thrown = catchThrowable(step::run);
    assertThat(thrown).isInstanceOf(ExpressionLimitException.class);
    assertThat(((ExpressionLimitException) thrown).deadline()).isTrue();
  }

  @Test
  void aComparisonStopsWithTheDeadline() {
    List<Map<String, Object>> before = List.of(Map.of("name", "a"), Map.of("name", "b"));
    List<Map<String, Object>> after = List.of(Map.of("name", "a"));
    assertThat(RowDiff.of(List.of("name"), before, after).removed()).hasSize(1);
    assertThat(RowDiff.of(List.of(), before, after).removed()).hasSize(1);
    try (EvaluationBudget.Scope scope = EvaluationBudget.until(System.nanoTime() - 1)) {
      assertDeadline(() -> RowDiff.of(List.of("name"), before, after));
      assertDeadline(() -> RowDiff.of(List.of(), before, after));
    }
  }

  @Test
  void aLargeValueIsWrittenWithinTheDeadline() {
    List<Object> numbers = Collections.nCopies(3, BIG);
    assertThat(Redacted.deep(numbers, text -> text).toString()).contains("[shortened: 27,007");
    try (EvaluationBudget.Scope scope = EvaluationBudget.until(System.nanoTime() - 1)) {
      assertDeadline(() -> Redacted.deep(numbers, text -> text));
    }
  }
}
