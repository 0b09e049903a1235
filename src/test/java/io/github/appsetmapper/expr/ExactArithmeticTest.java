package io.github.appsetmapper.expr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.expression.EvaluationException;
import org.springframework.expression.spel.SpelCompilerMode;
import org.springframework.expression.spel.SpelParserConfiguration;
import org.springframework.expression.spel.standard.SpelExpression;
import org.springframework.expression.spel.standard.SpelExpressionParser;

/** Arithmetic is exact or an error: no wrapped-around integer, no NaN or Infinity. */
class ExactArithmeticTest {
  private static final SpelParserConfiguration OFF =
      new SpelParserConfiguration(
          SpelCompilerMode.OFF,
          ExactArithmeticTest.class.getClassLoader(),
          false,
          false,
          0,
          10_000);

  private static final Map<String, Object> SCOPE =
      Map.of(
          "max",
          Integer.MAX_VALUE,
          "min",
          Integer.MIN_VALUE,
          "lmax",
          Long.MAX_VALUE,
          "lmin",
          Long.MIN_VALUE,
          "big",
          new BigInteger("99999999999999999999"),
          "dec",
          new BigDecimal("1.5"),
          "huge",
          BigInteger.TEN.pow(400),
          "s",
          "ab");

  /** As the compiler makes it: parsed, then instrumented. */
  private static Object evaluate(String expression) {
    SpelExpression parsed =
        (SpelExpression) new SpelExpressionParser(OFF).parseExpression(expression);
    return Evaluator.evaluate(BuildCounting.instrument(parsed, OFF), SCOPE);
  }

  @Nested
  class Overflow {
    @ParameterizedTest
    @CsvSource(
        delimiter = '|',
        value = {
          "2147483647 + 1|+|32",
          "max + 1|+|32",
          "min - 1|-|32",
          "max * 2|*|32",
          "65536 * 65536|*|32",
          "min / -1|/|32",
          "-min|-|32",
          "lmax + 1|+|64",
          "lmin - 1|-|64",
          "lmax * 2|*|64",
          "lmin / -1|/|64",
          "-lmin|-|64",
          "lmax + max|+|64",
          "2 ^ 63|^|64",
          "3 ^ 40|^|64",
          "2 ^ 1000000|^|64",
          "-2 ^ 64|^|64",
          "lmax ^ 2|^|64",
        })
    void isAnErrorNotAWrappedNumber(String expression, char op, int bits) {
      assertThatThrownBy(() -> evaluate(expression))
          .isInstanceOf(EvaluationException.class)
          .hasMessage(
              "the operator '"
                  + op
                  + "' overflows: the result does not fit a "
                  + bits
                  + "-bit integer");
    }

    @Test
    void exactResultsKeepSpelsTypes() {
      assertThat(evaluate("max - 1 + 1")).isEqualTo(Integer.MAX_VALUE);
      assertThat(evaluate("max + 1L")).isEqualTo(2147483648L);
      assertThat(evaluate("min / 1")).isEqualTo(Integer.MIN_VALUE);
      assertThat(evaluate("min % -1")).isEqualTo(0);
      assertThat(evaluate("lmin % -1")).isEqualTo(0L);
      assertThat(evaluate("7 / 2")).isEqualTo(3);
      assertThat(evaluate("-7 % 3")).isEqualTo(-1);
      assertThat(evaluate("-max")).isEqualTo(-Integer.MAX_VALUE);
      assertThat(evaluate("+min")).isEqualTo(Integer.MIN_VALUE);
      assertThat(evaluate("2 ^ 30")).isEqualTo(1 << 30);
      assertThat(evaluate("2 ^ 31")).isEqualTo(1L << 31); // SpEL widens a power to a long
      assertThat(evaluate("2 ^ 62")).isEqualTo(1L << 62);
      assertThat(evaluate("-2 ^ 63")).isEqualTo(Long.MIN_VALUE);
      assertThat(evaluate("3 ^ 39")).isEqualTo(4052555153018976267L); // exact, not via double
      assertThat(evaluate("-1 ^ 1000001")).isEqualTo(-1);
      assertThat(evaluate("0 ^ 0")).isEqualTo(1);
      // A negative integer exponent is refused: ExactDecimalsTest.
      assertThat(evaluate("2L * 3")).isEqualTo(6L);
    }

    @Test
    void bigNumbersAndTextAreSpelsOwn() {
      assertThat(evaluate("big + 1")).isEqualTo(new BigInteger("100000000000000000000"));
      assertThat(evaluate("lmax + big")).isEqualTo(new BigInteger("109223372036854775806"));
      assertThat(evaluate("dec * 2")).isEqualTo(new BigDecimal("3.0"));
      assertThat(evaluate("s + 1 + 'c'")).isEqualTo("ab1c");
      assertThat(evaluate("s * 3")).isEqualTo("ababab");
      assertThat(evaluate("1.5 + 1")).isEqualTo(2.5);
      assertThat(evaluate("(1 + 2) * (3 + 4) - 10 / 5")).isEqualTo(19);
    }

    @Test
    void divisionByZeroStaysTheJavaError() {
      assertThatThrownBy(() -> evaluate("1 / 0"))
          .isInstanceOf(EvaluationException.class)
          .hasMessage("/ by zero");
      assertThatThrownBy(() -> evaluate("lmax % 0"))
          .isInstanceOf(EvaluationException.class)
          .hasMessage("/ by zero");
    }
  }

  @Nested
  class NotFinite {
    @ParameterizedTest
    @CsvSource(
        delimiter = '|',
        value = {
          "0.0 / 0.0|/|NaN",
          "1.0 / 0|/|Infinity",
          "-1.0 / 0|/|-Infinity",
          "1.0 % 0|%|NaN",
          "1e308 * 10|*|Infinity",
          "1e308 + 1e308|+|Infinity",
          "-1e308 - 1e308|-|-Infinity",
          "10.0 ^ 400|^|Infinity",
          "-1.0 ^ 0.5|^|NaN",
          "3e38f * 10f|*|Infinity",
        })
    void isAnError(String expression, char op, String value) {
      assertThatThrownBy(() -> evaluate(expression))
          .isInstanceOf(EvaluationException.class)
          .hasMessage(
              "the operator '" + op + "' gives " + value + ", which is not a number JSON can hold");
    }

    @Test
    void finiteDecimalsAreUnchanged() {
      assertThat(evaluate("1.0 / 4")).isEqualTo(0.25);
      assertThat(evaluate("-(1.5)")).isEqualTo(-1.5);
    }
  }

  @Nested
  class Conversions {
    @ParameterizedTest
    @CsvSource(
        delimiter = '|',
        value = {
          "lmax.intValue()|intValue|32",
          "big.longValue()|longValue|64",
          "big.intValue()|intValue|32",
          "1e10.intValue()|intValue|32",
          "1e19.longValue()|longValue|64",
          "huge.longValue()|longValue|64",
        })
    void beyondTheTypeIsAnError(String expression, String method, int bits) {
      assertThatThrownBy(() -> evaluate(expression))
          .isInstanceOf(EvaluationException.class)
          .hasMessage(
              "the method '"
                  + method
                  + "' overflows: the value does not fit a "
                  + bits
                  + "-bit integer");
    }

    @Test
    void aHugeIntegerHasNoDouble() {
      assertThatThrownBy(() -> evaluate("huge.doubleValue()"))
          .isInstanceOf(EvaluationException.class)
          .hasMessage(
              "the method 'doubleValue' gives Infinity, which is not a number JSON can hold");
      assertThatThrownBy(() -> evaluate("{huge.doubleValue()}"))
          .hasMessage(
              "the method 'doubleValue' gives Infinity, which is not a number JSON can hold");
    }

    @Test
    void aFractionIsDroppedAsBefore() {
      assertThat(evaluate("dec.intValue()")).isEqualTo(1);
      assertThat(evaluate("(-2147483648.9).intValue()")).isEqualTo(Integer.MIN_VALUE);
      assertThat(evaluate("lmax.longValue()")).isEqualTo(Long.MAX_VALUE);
      assertThat(evaluate("max.intValue()")).isEqualTo(Integer.MAX_VALUE);
      assertThat(evaluate("big.doubleValue()")).isEqualTo(1e20);
    }
  }
}
