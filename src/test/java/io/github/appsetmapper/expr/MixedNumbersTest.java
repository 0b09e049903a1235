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
      Map.ofEntries(
          Map.entry("x", 9007199254740993L), // 2^53 + 1: no double holds it
          Map.entry("neg", -9007199254740993L),
          Map.entry("l", 9007199254740992L), // 2^53: a double holds it
          Map.entry("big", new BigInteger("100000000000000000001")),
          Map.entry("i", 16777217), // 2^24 + 1: no float holds it
          Map.entry("d", new BigDecimal("0.5")),
          Map.entry("e", new BigDecimal("2")),
          Map.entry("two", 2),
          Map.entry("forty", BigInteger.valueOf(40)),
          Map.entry("huge", new BigDecimal("1e400")),
          Map.entry("size", new BigInteger("9223372036854775808")), // 2^63
          Map.entry("nsize", new BigInteger("-9223372036854775808")),
          Map.entry("hundred", new BigDecimal("1E+2")),
          Map.entry("text", "abcdef"));

  private static Object evaluate(String expression) {
    SpelExpression parsed =
        (SpelExpression) new SpelExpressionParser(OFF).parseExpression(expression);
    return Evaluator.evaluate(BuildCounting.instrument(parsed, OFF), SCOPE);
  }

  /**
   * A real literal counts as the decimal it is written as, not as its double's shortest text: an
   * outside tester's find, {@code size >= 9223372036854775808.0} was false for a size of 2^63 (the
   * literal counted as 9.223372036854776E18), so a filter kept no row.
   */
  @Nested
  class WrittenLiterals {
    @ParameterizedTest
    @ValueSource(
        strings = {
          "size >= 9223372036854775808.0",
          "nsize <= -9223372036854775808.0",
          "size >= 9223372036854775808.0 or size <= -9223372036854775808.0",
          "size == 9223372036854775808.0d",
          "x == 9007199254740993.0",
          "x == 9007199254740993d",
          "x == 9007199254740993.0f",
          "-x == -9007199254740993.0",
          "x between {9007199254740993.0, 9007199254740994.0}",
          "x != 9007199254740992.0",
          "0.30000000000000001 != 0.3",
          "i == 16777217f",
        })
    void holdTheirWrittenValue(String expression) {
      assertThat(evaluate(expression)).as(expression).isEqualTo(true);
    }

    @Test
    void areTheExactDecimalWritten() {
      assertThat(evaluate("size - 9223372036854775808.0")).isEqualTo(BigDecimal.ZERO);
      assertThat(evaluate("9007199254740993.0")).isEqualTo(new BigDecimal("9007199254740993"));
      assertThat(evaluate("-9223372036854775808.0"))
          .isEqualTo(new BigDecimal("-9223372036854775808"));
      assertThat(evaluate("0.30000000000000001")).isEqualTo(new BigDecimal("0.30000000000000001"));
      assertThat(evaluate("{9007199254740993.0, -9007199254740993.0}"))
          .isEqualTo(
              java.util.List.of(
                  new BigDecimal("9007199254740993"), new BigDecimal("-9007199254740993")));
    }

    @Test
    void aLiteralItsDoubleShowsStaysADouble() {
      assertThat(evaluate("0.1")).isEqualTo(0.1);
      assertThat(evaluate("2.5")).isEqualTo(2.5);
      assertThat(evaluate("1e3")).isEqualTo(1000.0);
      assertThat(evaluate("0.1f")).isEqualTo(0.1f);
      assertThat(evaluate("9007199254740992.0")).isEqualTo(9007199254740992.0);
    }
  }

  /**
   * An integer argument of a method the evaluator runs itself ({@code indexOf}, {@code
   * lastIndexOf}, {@code split}) keeps its value or fails the row, as every converted argument
   * does: {@code intValue()} read 4294967298 as 2 and 2.5 as 2 (an outside tester's find).
   */
  @Nested
  class IntegerArguments {
    @ParameterizedTest
    @CsvSource(
        delimiter = '|',
        value = {
          "text.indexOf('c', 4294967298L) | 4294967298",
          "text.lastIndexOf('c', 4294967298L) | 4294967298",
          "text.split('b', 4294967297L) | 4294967297",
          "text.indexOf(4294967395L) | 4294967395",
          "text.indexOf('c', size) | 9223372036854775808",
          "text.charAt(4294967297L) | 4294967297",
          "text.substring(size) | 9223372036854775808",
          "text.startsWith('b', 4294967297L) | 4294967297",
          "{1, 2}.get(4294967297L) | 4294967297",
          "{1, 2}[4294967297L] | 4294967297",
          "#shortSha('abcdef', 4294967298L) | 4294967298",
        })
    void beyondAnIntFails(String expression, String number) {
      assertThatThrownBy(() -> evaluate(expression))
          .as(expression)
          .isInstanceOf(EvaluationException.class)
          .hasMessage(
              "the number "
                  + number
                  + " cannot be an argument that takes an integer from -2147483648 to 2147483647");
    }

    @ParameterizedTest
    @CsvSource(
        delimiter = '|',
        value = {
          "text.indexOf('c', 2.5) | 2.5 | 2",
          "text.lastIndexOf('c', 1.5) | 1.5 | 1",
          "text.split('b', 1.5) | 1.5 | 1",
          "text.indexOf(99.5) | 99.5 | 99",
          "text.indexOf('c', d) | 0.5 | 0",
        })
    void aFractionFails(String expression, String number, String made) {
      assertThatThrownBy(() -> evaluate(expression))
          .as(expression)
          .isInstanceOf(EvaluationException.class)
          .hasMessage(
              "the number "
                  + number
                  + " cannot be an argument that takes an integer: it would become "
                  + made);
    }

    @Test
    void aWholeArgumentStays() {
      assertThat(evaluate("text.indexOf('c', 2.0)")).isEqualTo(2);
      assertThat(evaluate("text.indexOf('c', 2L)")).isEqualTo(2);
      assertThat(evaluate("text.lastIndexOf('c', e)")).isEqualTo(2);
      assertThat(evaluate("text.split('b', forty)")).isEqualTo(java.util.List.of("a", "cdef"));
      assertThat(evaluate("text.indexOf(99)")).isEqualTo(2);
    }
  }

  /** A number made into text is written plainly, as a template writes it (one writer). */
  @Nested
  class Text {
    @Test
    void isPlain() {
      assertThat(evaluate("'' + hundred")).isEqualTo("100");
      assertThat(evaluate("hundred.toString()")).isEqualTo("100");
      assertThat(evaluate("'' + 0.1f")).isEqualTo("0.1");
      assertThat(evaluate("(0.1f).toString()")).isEqualTo("0.1");
      assertThat(Values.text(evaluate("0.1f"))).isEqualTo("0.1");
      assertThat(Values.parameter(evaluate("0.1f"), true)).isEqualTo(new BigDecimal("0.1"));
      assertThat(Values.parameter(evaluate("{(hundred * 1): 'a', (hundred ^ 200): 'b'}"), false))
          .isEqualTo(Map.of("100", "a", "1" + "0".repeat(400), "b"));
    }
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
