package io.github.appsetmapper.expr;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.expression.spel.SpelCompilerMode;
import org.springframework.expression.spel.SpelParserConfiguration;
import org.springframework.expression.spel.standard.SpelExpression;
import org.springframework.expression.spel.standard.SpelExpressionParser;

/**
 * A float literal is one value everywhere, the one {@code ==} sees: the double it widens to ({@code
 * 0.1f} is 0.10000000149011612). Before, {@code 0.1f == 0.1} was false and {@code 0.1f > 0.1} true,
 * yet {@code {0.1f}.contains(0.1)} was true and {@code {0.1:'a'}[0.1f]} gave 'a': lookups, keys and
 * distinctBy took it as the text 0.1, and distinctBy merged two rows {@code ==} calls different.
 */
class FloatEqualityTest {
  private static final SpelParserConfiguration OFF =
      new SpelParserConfiguration(
          SpelCompilerMode.OFF, FloatEqualityTest.class.getClassLoader(), false, false, 0, 10_000);

  private static final Map<String, Object> SCOPE = Map.of("d", new BigDecimal("0.1"));

  private static Object evaluate(String expression) {
    SpelExpression parsed =
        (SpelExpression) new SpelExpressionParser(OFF).parseExpression(expression);
    return Evaluator.evaluate(BuildCounting.instrument(parsed, OFF), SCOPE);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "0.1f == 0.1",
        "{0.1f}.contains(0.1)",
        "{0.1}.contains(0.1f)",
        "{0.1: 'a'}[0.1f] == 'a'",
        "{0.1f: 'a'}[0.1] == 'a'",
        "{0.1: 'a'}.containsKey(0.1f)",
        "{0.1f} == {0.1}",
        "{a: 0.1f} == {a: 0.1}",
        "{0.1f}.indexOf(0.1) == 0",
        "0.1f == d",
        "{d}.contains(0.1f)",
        "0.1f.equals(0.1)",
        "0.1f < 0.1",
        "0.1f <= d",
        "0.1f between {0, 0.1}",
      })
  void aFloatIsNotTheDecimalItIsWrittenAs(String expression) {
    assertThat(evaluate(expression)).as(expression).isEqualTo(false);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "0.1f > 0.1",
        "0.1f > d",
        "0.1f != d",
        "0.1f == 0.1f",
        "{0.1f}.contains(0.1f)",
        "{0.1f: 'a'}[0.1f] == 'a'",
        "0.5f == 0.5",
        "{0.5f}.contains(0.5)",
        "{0.5: 'a'}[0.5f] == 'a'",
        "1.0f == 1",
        "{1: 'a'}[1.0f] == 'a'",
        "{1}.contains(1.0f)",
        "0.1f == 0.10000000149011612",
        "{0.10000000149011612}.contains(0.1f)",
        "{0.10000000149011612: 'a'}[0.1f] == 'a'",
        "0.1f between {0.1, 0.2}",
      })
  void aFloatIsTheDoubleItWidensTo(String expression) {
    assertThat(evaluate(expression)).as(expression).isEqualTo(true);
  }
}
