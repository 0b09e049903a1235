package io.github.appsetmapper.expr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Every function that loops over a list or a text checks the deadline as it goes ({@code
 * #semverMax} parsed 38,000 long versions for four seconds past a one-second deadline), and every
 * function that builds a string keeps it within the string bound ({@code #slug} gave 2.5 million
 * characters). No timing: the deadline here has passed before the function starts, and each input
 * is long enough for a loop that checks to see it.
 */
class FunctionBoundsTest {
  private static final int LONG = 2_000;

  private static EvaluationBudget.Scope past() {
    return EvaluationBudget.until(System.nanoTime() - 1);
  }

  private static List<String> versions() {
    List<String> versions = new ArrayList<>();
    for (int i = 0; i < LONG; i++) {
      versions.add("1.0.0-a.a." + "a".repeat(124) + "." + i);
    }
    return versions;
  }

  /** The functions that did not do as asserted, all named in one failure. */
  private final List<String> failed = new ArrayList<>();

  private void check(String function, Runnable assertion) {
    EvaluationBudget.current().begin(); // each call a new evaluation: nothing built yet
    try {
      assertion.run();
    } catch (AssertionError e) {
      failed.add(function);
    }
  }

  private void assertDeadline(String function, Supplier<Object> call) {
    check(function, () -> deadline(function, call));
  }

  private void assertBounded(String function, Supplier<Object> call) {
    check(function, () -> bounded(function, call));
  }

  private static void deadline(String function, Supplier<Object> call) {
    Object before;
    try (EvaluationBudget.Scope none = EvaluationBudget.until(Long.MAX_VALUE)) {
      before = call.get();
      EvaluationBudget.current().begin();
    }
    assertThat(before).as(function + " without a deadline").isNotNull();
    Throwable thrown;
    try (EvaluationBudget.Scope scope = past()) {
      thrown = catchThrowable(call::get);
    }
    assertThat(thrown).as(function).isInstanceOf(ExpressionLimitException.class);
    assertThat(((ExpressionLimitException) thrown).deadline()).as(function).isTrue();
  }

  @Test
  void everyFunctionThatLoopsStopsOnceTheDeadlineHasPassed() {
    String text = "Ab_c d".repeat(20_000); // 120,000 characters: past what is cheap to read
    List<Object> lists = new ArrayList<>();
    for (int i = 0; i < LONG; i++) {
      lists.add(List.of(i));
    }
    Map<String, Object> map = new LinkedHashMap<>();
    for (int i = 0; i < LONG; i++) {
      map.put("k" + i, i);
    }
    assertDeadline("#semverMax", () -> Functions.semverMax(versions()));
    assertDeadline("#semverSort", () -> Functions.semverSort(versions()));
    assertDeadline("#flatten", () -> Functions.flatten(lists));
    assertDeadline("#entries", () -> Functions.entries(map));
    assertDeadline("#slug", () -> Functions.slug(text, 0));
    assertDeadline("#lower", () -> Functions.lower(text));
    assertDeadline("#upper", () -> Functions.upper(text));
    assertDeadline("#urlEncode", () -> Functions.urlEncode(text));
    assertDeadline("#regexQuote", () -> Functions.regexQuote(text));
    assertDeadline("#shellQuote", () -> Functions.shellQuote(text));
    assertDeadline("#sha256", () -> Functions.sha256(text));
    assertDeadline("#json", () -> Functions.json(lists));
    assertThat(failed).as("functions that went on past the deadline").isEmpty();
  }

  private static void bounded(String function, Supplier<Object> call) {
    Throwable thrown = catchThrowable(call::get);
    assertThat(thrown).as(function).isInstanceOf(ExpressionLimitException.class);
    assertThat(thrown.getMessage())
        .as(function)
        .startsWith(function)
        .contains("characters, more than " + EvaluationBudget.MAX_STRING_CHARS + " allowed");
  }

  @Test
  void everyFunctionThatBuildsAStringKeepsItWithinTheStringBound() {
    String big = "a b".repeat(EvaluationBudget.MAX_STRING_CHARS / 3 + 1000); // just over 1 MiB
    try (EvaluationBudget.Scope none = EvaluationBudget.until(Long.MAX_VALUE)) {
      assertBounded("#slug", () -> Functions.slug(big, 0));
      assertBounded("#lower", () -> Functions.lower(big.toUpperCase()));
      assertBounded("#upper", () -> Functions.upper(big));
      assertBounded("#urlEncode", () -> Functions.urlEncode(big));
      assertBounded("#regexQuote", () -> Functions.regexQuote(big));
      assertBounded("#shellQuote", () -> Functions.shellQuote(big));
      assertBounded("#shortSha", () -> Functions.shortSha(big + "x", big.length()));
      assertThat(failed).as("functions that built past the string bound").isEmpty();
      // Within the bound, each is what it was.
      assertThat(Functions.slug("Hello World_x", 0)).isEqualTo("hello-world-x");
      assertThat(Functions.shortSha(big, 8)).isEqualTo("a ba ba ");
      assertThat(Functions.shortSha("abc", 8)).isEqualTo("abc");
    }
  }

  @Test
  void jsonCountsANumberAsItIsWrittenBeforeWritingIt() {
    // 9,000 copies of 1e999: 54 KB of an answer read, 9 million characters written.
    List<Object> numbers = new ArrayList<>();
    for (int i = 0; i < 9_000; i++) {
      numbers.add(new java.math.BigDecimal("1e999"));
    }
    EvaluationBudget.current().begin();
    Throwable thrown = catchThrowable(() -> Functions.json(numbers));
    assertThat(thrown).isInstanceOf(ExpressionLimitException.class);
    assertThat(thrown.getMessage())
        .startsWith("#json would take what this expression builds past 8388608 characters");
    EvaluationBudget.current().begin();
    assertThat(Functions.json(List.of(new java.math.BigDecimal("1e3")))).isEqualTo("[1000]");
  }
}
