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
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.expression.EvaluationException;
import org.springframework.expression.spel.SpelCompilerMode;
import org.springframework.expression.spel.SpelParserConfiguration;
import org.springframework.expression.spel.standard.SpelExpression;
import org.springframework.expression.spel.standard.SpelExpressionParser;

/**
 * A double (or float) meeting an exact number it cannot hold (a long beyond 2^53, a big integer) is
 * computed and compared as exact decimals, the double by the decimal it is written as: SpEL made
 * both doubles, so {@code 9007199254740993 == 9007199254740992.0} was true and {@code + 0.5} gave
 * 9007199254740992. Where no precision is at stake, the answer and its type are SpEL's.
 */
class MixedNumbersTest {
  private static final SpelParserConfiguration OFF =
      new SpelParserConfiguration(
          SpelCompilerMode.OFF, MixedNumbersTest.class.getClassLoader(), false, false, 0, 10_000);

  private static final Map<String, Object> SCOPE =
      Map.of(
          "x",
          9007199254740993L, // 2^53 + 1: no double holds it
          "neg",
          -9007199254740993L,
          "l",
          9007199254740992L, // 2^53: a double holds it
          "big",
          new BigInteger("100000000000000000001"),
          "i",
          16777217, // 2^24 + 1: no float holds it
          "d",
          new BigDecimal("0.5"),
          "e",
          new BigDecimal("2"),
          "two",
          2,
          "forty",
          BigInteger.valueOf(40),
          "huge",
          new BigDecimal("1e400"));

  private static Object evaluate(String expression) {
    SpelExpression parsed =
        (SpelExpression) new SpelExpressionParser(OFF).parseExpression(expression);
    return Evaluator.evaluate(BuildCounting.instrument(parsed, OFF), SCOPE);
  }

  @Nested
  class Comparisons {
    @ParameterizedTest
    @ValueSource(
        strings = {
          "x != 9007199254740992.0",
          "9007199254740992.0 != x",
          "x != 9007199254740994.0",
          "x > 9007199254740992.0",
          "x >= 9007199254740992.0",
          "x < 9007199254740994.0",
          "x <= 9007199254740994.0",
          "9007199254740992.0 < x",
          "neg < -9007199254740992.0",
          "big > 100000000000000000000.0",
          "big != 1.0E20",
          "i > 16777216f",
          "i != 16777216.0f",
          "x gt 9007199254740992.0",
          "!(x eq 9007199254740992.0)",
        })
    void areExact(String expression) {
      assertThat(evaluate(expression)).as(expression).isEqualTo(true);
    }

    @ParameterizedTest
    @ValueSource(
        strings = {
          "x == 9007199254740992.0",
          "x <= 9007199254740992.0",
          "x < 9007199254740992.0",
          "9007199254740992.0 >= x",
          "big == 1.0E20",
          "x between {9007199254740990.0, 9007199254740992.0}",
          "i == 16777216f",
        })
    void sayFalseWhereTheValuesDiffer(String expression) {
      assertThat(evaluate(expression)).as(expression).isEqualTo(false);
    }

    @Test
    void aDoubleMeansTheDecimalItIsWrittenAs() {
      // 0.1 is 0.1, not the binary 0.1000000000000000055511151231257827...
      assertThat(evaluate("x * 0.1")).isEqualTo(new BigDecimal("900719925474099.3"));
      assertThat(evaluate("big * 0.1")).isEqualTo(new BigDecimal("10000000000000000000.1"));
    }

    @Test
    void whereADoubleHoldsTheIntegerTheAnswerIsSpels() {
      assertThat(evaluate("l == 9007199254740992.0")).isEqualTo(true);
      assertThat(evaluate("two == 2.0")).isEqualTo(true);
      assertThat(evaluate("two < 2.5")).isEqualTo(true);
      assertThat(evaluate("'a' < 'b'")).isEqualTo(true);
      assertThat(evaluate("null == x")).isEqualTo(false);
    }
  }

  @Nested
  class Arithmetic {
    @ParameterizedTest
    @CsvSource(
        delimiter = '|',
        value = {
          "x + 0.5 | 9007199254740993.5",
          "0.5 + x | 9007199254740993.5",
          "x - 0.5 | 9007199254740992.5",
          "x * 1.0 | 9007199254740993.0",
          "x * 2.5 | 22517998136852482.5",
          "x / 2.0 | 4503599627370496.5",
          "x % 2.0 | 1.0",
          "x / 3.0 | 3002399751580331",
          "big + 0.5 | 100000000000000000001.5",
          "neg - 0.5 | -9007199254740993.5",
          "i + 0.5f | 16777217.5",
          "x ^ 2.0 | 81129638414606699710187514626049",
          "x ^ e | 81129638414606699710187514626049",
          "3 ^ e | 9",
        })
    void isExactDecimal(String expression, String exact) {
      assertThat(evaluate(expression)).as(expression).isEqualTo(new BigDecimal(exact));
    }

    @Test
    void keepsTheDoubleWhereNoPrecisionIsAtStake() {
      assertThat(evaluate("two + 0.5")).isEqualTo(2.5);
      assertThat(evaluate("two * 1.5")).isEqualTo(3.0);
      assertThat(evaluate("two ^ 0.5")).isEqualTo(Math.sqrt(2));
      assertThat(evaluate("d + 0.25")).isEqualTo(new BigDecimal("0.75"));
    }

    @Test
    void aLongToTheExactExponentIsNoClampedDouble() {
      // Math.pow then (long): 3 ^ 40 was 9223372036854775807.
      assertThat(evaluate("3 ^ (e * 20)")).isEqualTo(new BigDecimal("12157665459056928801"));
      assertThat(evaluate("3 ^ forty")).isEqualTo(new BigInteger("12157665459056928801"));
    }

    @Test
    void keepsEveryBound() {
      assertThatThrownBy(() -> evaluate("x ^ 0.5"))
          .isInstanceOf(EvaluationException.class)
          .hasMessage(
              "the operator '^' needs a whole exponent from 0 to 2147483647 for a big integer or"
                  + " an exact decimal");
      assertThatThrownBy(() -> evaluate("x ^ 10000.0"))
          .isInstanceOf(EvaluationException.class)
          .hasMessage(
              "the operator '^' gives a number beyond 10000 digits or a scale beyond \u00b110000");
      assertThatThrownBy(() -> evaluate("x / 0.0"))
          .isInstanceOf(EvaluationException.class)
          .hasMessageContaining("zero");
    }
  }

  @Nested
  class Conversions {
    @Test
    void aNumberArgumentKeepsItsValueOrIsRefused() {
      assertThatThrownBy(() -> evaluate("(9007199254740992.0).compareTo(x)"))
          .isInstanceOf(EvaluationException.class)
          .hasMessage(
              "the number 9007199254740993 cannot be an argument that takes a double: it would"
                  + " become 9007199254740992");
      assertThatThrownBy(() -> evaluate("two.compareTo(2.5)"))
          .isInstanceOf(EvaluationException.class)
          .hasMessage(
              "the number 2.5 cannot be an argument that takes an integer: it would become 2");
      assertThatThrownBy(() -> evaluate("'abc'.charAt(1.5)"))
          .isInstanceOf(EvaluationException.class)
          .hasMessage(
              "the number 1.5 cannot be an argument that takes an integer: it would become 1");
    }

    @ParameterizedTest
    @ValueSource(strings = {"#shortSha('abcdef', 2.5)", "{1, 2, 3}[1.5]", "{1, 2, 3}.get(1.5)"})
    void inAFunctionAndAnIndexToo(String expression) {
      assertThatThrownBy(() -> evaluate(expression))
          .isInstanceOf(EvaluationException.class)
          .hasMessage(
              "the number 1.5 cannot be an argument that takes an integer: it would become 1"
                  .replace("1.5", expression.contains("2.5") ? "2.5" : "1.5")
                  .replace("become 1", expression.contains("2.5") ? "become 2" : "become 1"));
    }

    @Test
    void aDecimalNoDoubleReachesIsNoInfiniteArgument() {
      assertThatThrownBy(() -> evaluate("(1.0).compareTo(huge)"))
          .isInstanceOf(EvaluationException.class)
          .hasMessage(
              "the number 1000000000000000000000000000000000000000... cannot be an argument that"
                  + " takes a double: it would become Infinity");
    }

    @Test
    void aConversionThatKeepsTheValueStays() {
      assertThat(evaluate("x.compareTo(9007199254740992.0)")).isEqualTo(1);
      assertThat(evaluate("two.compareTo(2.0)")).isEqualTo(0);
      assertThat(evaluate("'abc'.charAt(1.0)")).isEqualTo('b');
      assertThat(evaluate("(2.5).compareTo(two)")).isEqualTo(1);
    }
  }
}
