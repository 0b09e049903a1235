package io.github.appsetmapper.expr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.expression.EvaluationException;
import org.springframework.expression.spel.SpelCompilerMode;
import org.springframework.expression.spel.SpelParserConfiguration;
import org.springframework.expression.spel.standard.SpelExpression;
import org.springframework.expression.spel.standard.SpelExpressionParser;

/**
 * Big integers and exact decimals stay within bounds (digits and scale) in every operator, a power
 * takes its whole exponent or none, and a decimal quotient is exact or 34 digits (outside testers'
 * finds: a hang, wrong powers, a quotient rounded to 0.0).
 */
class ExactDecimalsTest {
  private static final SpelParserConfiguration OFF =
      new SpelParserConfiguration(
          SpelCompilerMode.OFF, ExactDecimalsTest.class.getClassLoader(), false, false, 0, 10_000);

  private static final Map<String, Object> SCOPE =
      Map.of(
          "e", new BigDecimal("1e999"),
          "n", "1e1000",
          "f", new BigDecimal("0.1"),
          "x", new BigDecimal("1.5"),
          "big", new BigInteger("99999999999999999999"),
          "seven", 7);

  private static Object evaluate(String expression) {
    SpelExpression parsed =
        (SpelExpression) new SpelExpressionParser(OFF).parseExpression(expression);
    return Evaluator.evaluate(BuildCounting.instrument(parsed, OFF), SCOPE);
  }

  private static final String BEYOND = "beyond 10000 digits or a scale beyond \u00b110000";

  /**
   * A number of 9,990 digits is within the bound in a list as it is alone: the estimate from its
   * bit length refused it (an outside tester's find).
   */
  @Test
  void aNumberNearTheBoundIsCountedByItsDigitsInAList() {
    String nines = "9".repeat(999);
    Object alone = evaluate("#toNumber('" + nines + "') ^ 10");
    assertThat(alone.toString()).hasSize(9990);
    assertThat(evaluate("{#toNumber('" + nines + "') ^ 10}.size()")).isEqualTo(1);
    assertThat(evaluate("{#toNumber('" + nines + ".5') ^ 10}.size()")).isEqualTo(1);
    // 10,000 digits, the bound itself.
    assertThat(evaluate("{#toNumber('" + nines + "9') ^ 10}.size()")).isEqualTo(1);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "(#toNumber(n) ^ 100000) + 1",
        "e ^ 100000 + 1",
        "e ^ 1000",
        "e ^ 11",
        "(f ^ 10001)",
        "big ^ 1000",
      })
  void aPowerBeyondTheBoundsIsRefusedBeforeItIsComputed(String expression) {
    assertThatThrownBy(() -> evaluate(expression))
        .isInstanceOf(EvaluationException.class)
        .hasMessage("the operator '^' gives a number " + BEYOND);
  }

  @Test
  void anOperandBeyondTheBoundsIsRefusedBeforeTheOperator() {
    // No allowlisted method makes one today; a function or method that did is stopped here.
    BigDecimal far = new BigDecimal(BigInteger.ONE, -100_000_000);
    assertThatThrownBy(() -> Decimals.operands('+', "the operator '+'", far, BigDecimal.ONE))
        .isInstanceOf(EvaluationException.class)
        .hasMessage("the operator '+' has an operand " + BEYOND);
    BigInteger wide = BigInteger.TEN.pow(10_000);
    assertThatThrownBy(() -> Decimals.operands('-', "the operator '-'", 1, wide))
        .hasMessage("the operator '-' has an operand " + BEYOND);
    Decimals.operands('-', "the operator '-'", 1, wide.subtract(BigInteger.ONE)); // 10,000 digits
    assertThatThrownBy(() -> evaluate("e * e * e * e * e * e * e * e * e * e * e"))
        .isInstanceOf(EvaluationException.class)
        .hasMessage("the operator '*' gives a number " + BEYOND);
  }

  @Test
  void withinTheBoundsPowersAreExact() {
    assertThat(evaluate("e ^ 10")).isEqualTo(new BigDecimal("1e9990"));
    assertThat(evaluate("x ^ 2")).isEqualTo(new BigDecimal("2.25"));
    assertThat(evaluate("big ^ 2")).isEqualTo(new BigInteger("99999999999999999999").pow(2));
    assertThat(evaluate("x ^ 2L")).isEqualTo(new BigDecimal("2.25"));
    assertThat(evaluate("2.0 ^ -1")).isEqualTo(0.5);
  }

  @ParameterizedTest
  @ValueSource(strings = {"0 ^ -1", "10 ^ -2", "2 ^ -1", "2L ^ -1", "seven ^ -1"})
  void anIntegerPowerRefusesANegativeExponent(String expression) {
    assertThatThrownBy(() -> evaluate(expression))
        .isInstanceOf(EvaluationException.class)
        .hasMessage(
            "the operator '^' refuses a negative exponent on an integer: the result is no integer"
                + " (write a decimal base, such as 2.0 ^ -1)");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"big ^ 4294967298L", "x ^ 4294967297L", "x ^ -1", "big ^ -1", "x ^ 0.5", "2 ^ x"})
  void aBigPowerTakesItsWholeExponentOrNone(String expression) {
    assertThatThrownBy(() -> evaluate(expression))
        .isInstanceOf(EvaluationException.class)
        .hasMessage(
            "the operator '^' needs a whole exponent from 0 to 2147483647 for a big integer or an"
                + " exact decimal");
  }

  @Test
  void aDecimalQuotientIsExactOrThirtyFourDigits() {
    assertThat(evaluate("f / 3"))
        .isEqualTo(new BigDecimal("0.03333333333333333333333333333333333"));
    assertThat(evaluate("f / 3 == 0")).isEqualTo(false);
    assertThat(evaluate("x / 7")).isEqualTo(new BigDecimal("0.2142857142857142857142857142857143"));
    assertThat(evaluate("x / 4")).isEqualTo(new BigDecimal("0.375"));
    assertThat(evaluate("x / 0.5")).isEqualTo(new BigDecimal("3"));
    assertThat(evaluate("big / 3")).isEqualTo(new BigInteger("33333333333333333333"));
    assertThatThrownBy(() -> evaluate("f / 0")).isInstanceOf(EvaluationException.class);
  }
}
