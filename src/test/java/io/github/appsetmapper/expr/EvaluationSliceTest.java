package io.github.appsetmapper.expr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.math.BigInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A slice of evaluation steps ({@link EvaluationBudget#slice}): work past it, or a costly step,
 * fails as the deadline does and keeps failing until the slice is closed; work within it, or with
 * no slice, runs as before. Steps, not time: the same on any machine.
 */
class EvaluationSliceTest {
  /**
   * Lowercasing it ticks once a character (a capital sigma takes the path that walks the text): 60
   * times the 1,024 steps between two looks, and under 65,536 characters (a string built past them
   * is a costly step).
   */
  private static final String LONG = "\u03a3" + "A".repeat(60 * 1024);

  @AfterEach
  void close() {
    EvaluationBudget.endSlice();
  }

  @Test
  void workPastTheSliceFailsAndKeepsFailingUntilItCloses() {
    EvaluationBudget.slice(16 * 1024);
    Throwable thrown = catchThrowable(() -> CaseChange.lower(LONG));
    assertThat(thrown).isInstanceOf(ExpressionLimitException.class);
    assertThat(((ExpressionLimitException) thrown).deadline()).isTrue();
    assertThat(EvaluationBudget.sliceSpent()).isTrue();
    // A layer that caught it cannot go on: the next look fails too (a new evaluation's start).
    assertThat(catchThrowable(() -> EvaluationBudget.current().begin()))
        .isInstanceOf(ExpressionLimitException.class);
    assertThat(catchThrowable(EvaluationBudget::checkSlice))
        .isInstanceOf(ExpressionLimitException.class);
    EvaluationBudget.endSlice();
    assertThat(EvaluationBudget.sliceSpent()).isFalse();
    assertThat(CaseChange.lower(LONG)).hasSize(LONG.length());
    EvaluationBudget.checkSlice(); // no slice: nothing to fail
  }

  @Test
  void workWithinTheSliceRunsAsBefore() {
    EvaluationBudget.slice(1024 * 1024);
    assertThat(CaseChange.lower(LONG)).hasSize(LONG.length());
    EvaluationBudget.checkSlice();
    assertThat(EvaluationBudget.sliceSpent()).isFalse();
  }

  @Test
  void aCostlyStepEndsTheSliceAtOnce() {
    BigInteger big = BigInteger.TEN.pow(400);
    EvaluationBudget.current().before(big, null); // no slice: the deadline alone, none here
    EvaluationBudget.current().reserve(100_000, "a string");
    EvaluationBudget.slice(1024 * 1024);
    assertThat(catchThrowable(() -> EvaluationBudget.current().before(big, null)))
        .isInstanceOf(ExpressionLimitException.class);
    assertThat(EvaluationBudget.sliceSpent()).isTrue();
    EvaluationBudget.endSlice();
    EvaluationBudget.slice(1024 * 1024);
    assertThat(catchThrowable(() -> EvaluationBudget.current().reserve(100_000, "a string")))
        .isInstanceOf(ExpressionLimitException.class);
    assertThat(EvaluationBudget.sliceSpent()).isTrue();
  }
}
