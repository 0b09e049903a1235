package io.github.appsetmapper.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.github.appsetmapper.expr.EvaluationBudget;
import io.github.appsetmapper.expr.ExpressionLimitException;
import io.github.appsetmapper.expr.Values;
import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

/**
 * Work done outside any expression on values expressions made (a sort comparing keys, a number made
 * into a parameter's text) checks the deadline as an operator does: a sort of a few thousand keys
 * of thousands of digits ran seconds past it, with nothing checking. No timing: the deadline here
 * has passed before the step starts.
 */
class DeadlineOutsideExpressionsTest {
  private static final BigDecimal BIG = new BigDecimal("1." + "3".repeat(4000));
  private static final BigDecimal NEAR = BIG.add(new BigDecimal("1e-6000"));

  private static EvaluationBudget.Scope past() {
    return EvaluationBudget.until(System.nanoTime() - 1);
  }

  private static void assertDeadline(Throwable thrown) {
    assertThat(thrown).isInstanceOf(ExpressionLimitException.class);
    assertThat(((ExpressionLimitException) thrown).deadline()).isTrue();
  }

  @Test
  void aSortComparingBigKeysStopsOnceTheDeadlineHasPassed() {
    assertThat(RowOrdering.compareKeys(BIG, NEAR)).isNegative();
    try (EvaluationBudget.Scope scope = past()) {
      assertDeadline(catchIt(() -> RowOrdering.compareKeys(BIG, NEAR)));
    }
  }

  @Test
  void aSortOfCheapKeysChecksEveryThousandComparisons() {
    try (EvaluationBudget.Scope scope = past()) {
      Throwable thrown =
          catchIt(
              () -> {
                for (int i = 0; i < 1_025; i++) {
                  RowOrdering.compareKeys(BigDecimal.ONE, BigDecimal.TEN);
                }
              });
      assertDeadline(thrown);
    }
  }

  @Test
  void aBigNumberMadeIntoTextStopsOnceTheDeadlineHasPassed() {
    assertThat(Values.text(BIG)).hasSize(4002);
    try (EvaluationBudget.Scope scope = past()) {
      assertDeadline(catchIt(() -> Values.text(BIG)));
      assertDeadline(catchIt(() -> Values.parameter(BIG, false)));
      assertThat(Values.text(new BigDecimal("12.5"))).isEqualTo("12.5");
    }
  }

  private static Throwable catchIt(Runnable step) {
    return catchThrowable(step::run);
  }
}
