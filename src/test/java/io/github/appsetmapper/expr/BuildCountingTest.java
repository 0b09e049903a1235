package io.github.appsetmapper.expr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Collections;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.expression.spel.SpelCompilerMode;
import org.springframework.expression.spel.SpelParserConfiguration;
import org.springframework.expression.spel.standard.SpelExpression;
import org.springframework.expression.spel.standard.SpelExpressionParser;

/** The instrumented tree counts what it builds, interpreted and once SpEL compiled it. */
class BuildCountingTest {
  private static final SpelParserConfiguration MIXED =
      new SpelParserConfiguration(
          SpelCompilerMode.MIXED,
          BuildCountingTest.class.getClassLoader(),
          false,
          false,
          0,
          10_000);

  private static SpelExpression instrumented(String expression) {
    return BuildCounting.instrument(
        (SpelExpression) new SpelExpressionParser(MIXED).parseExpression(expression), MIXED);
  }

  @Test
  void theSameValuesAsUninstrumented() {
    Map<String, Object> scope =
        Map.of("a", java.util.List.of("x", "y"), "s", "-", "n", 3, "m", Map.of("k", "v"));
    assertThat(Evaluator.evaluate(instrumented("a.![#this + #root.s]"), scope))
        .isEqualTo(java.util.List.of("x-", "y-"));
    assertThat(Evaluator.evaluate(instrumented("{s + 'a', n * 2, {'k': m.k}}"), scope))
        .isEqualTo(java.util.List.of("-a", 6, Map.of("k", "v")));
    assertThat(Evaluator.evaluate(instrumented("'ab' * 3"), scope)).isEqualTo("ababab");
  }

  @Test
  void anInstrumentedOperatorIsNeverCompiled() {
    SpelParserConfiguration immediate =
        new SpelParserConfiguration(
            SpelCompilerMode.IMMEDIATE, getClass().getClassLoader(), false, false, 0, 10_000);
    SpelExpression twice =
        BuildCounting.instrument(
            (SpelExpression) new SpelExpressionParser(immediate).parseExpression("s + s"),
            immediate);
    // A context that lets SpEL compile (the server's does not say so today): the checked
    // operator has no bytecode, so the interpreter's checks (exactness, SpEL's own 100,000
    // characters, the counted budget) hold however the expression runs.
    org.springframework.expression.spel.support.StandardEvaluationContext context =
        new org.springframework.expression.spel.support.StandardEvaluationContext();
    context.addPropertyAccessor(new org.springframework.expression.spel.support.MapAccessor());
    EvaluationBudget.current().begin();
    assertThat(twice.getValue(context, Map.of("s", "ab"))).isEqualTo("abab");
    assertThat(twice.getValue(context, Map.of("s", "cd"))).isEqualTo("cdcd");
    assertThat(twice.compileExpression()).isFalse();
    assertThatThrownBy(() -> twice.getValue(context, Map.of("s", "x".repeat(60_000))))
        .hasMessageContaining("Concatenated string is too long");
  }

  @Test
  void aListMadeIntoTextIsCountedBeforeItIsBuilt() {
    Map<String, Object> scope =
        Map.of("b", Collections.nCopies(100, Collections.nCopies(100_000, 7)));
    assertThatThrownBy(() -> Evaluator.evaluate(instrumented("'' + b"), scope))
        .isInstanceOf(ExpressionLimitException.class)
        .hasMessageStartingWith("converting a list or map to text would take what this expression");
  }
}
