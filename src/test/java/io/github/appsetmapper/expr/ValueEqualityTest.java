package io.github.appsetmapper.expr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.expression.spel.SpelCompilerMode;
import org.springframework.expression.spel.SpelParserConfiguration;
import org.springframework.expression.spel.standard.SpelExpression;
import org.springframework.expression.spel.standard.SpelExpressionParser;

/**
 * Two numbers are equal where {@code ==} says so, whatever their Java types, in every place an
 * expression compares or hashes values: Java's {@code equals} said {@code 1} and {@code 1.0}
 * differ, so {@code {1.0}.contains(1)} was false, {@code {1: 'a'}[1.0]} null and {@code {1} ==
 * {1.0}} false while {@code 1 == 1.0} is true.
 */
class ValueEqualityTest {
  private static final SpelParserConfiguration OFF =
      new SpelParserConfiguration(
          SpelCompilerMode.OFF, ValueEqualityTest.class.getClassLoader(), false, false, 0, 10_000);

  private static final Map<String, Object> SCOPE =
      Map.ofEntries(
          Map.entry("x", 9007199254740993L), // 2^53 + 1: no double holds it
          Map.entry("l", 9007199254740992L), // 2^53
          Map.entry("one", new BigDecimal("1.0")), // a decimal from JSON keeps its scale
          Map.entry("two", new BigDecimal("2.00")),
          Map.entry("hundred", new BigDecimal("1E+2")),
          Map.entry("big", new BigInteger("100000000000000000000")),
          Map.entry("ints", List.of(1, 2, 3)),
          Map.entry("decimals", List.of(new BigDecimal("1.0"), new BigDecimal("2.50"))),
          Map.entry("nested", List.of(List.of(1, 2), Map.of("a", 1))),
          Map.entry(
              "item",
              Map.of(
                  "one",
                  new BigDecimal("1.0"),
                  "hundred",
                  new BigDecimal("1E+2"),
                  "x",
                  9007199254740993L)),
          Map.entry("m", Map.of("a", 1, "b", new BigDecimal("2.0"), "1", "text")));

  private static Object evaluate(String expression) {
    SpelExpression parsed =
        (SpelExpression) new SpelExpressionParser(OFF).parseExpression(expression);
    return Evaluator.evaluate(BuildCounting.instrument(parsed, OFF), SCOPE);
  }

  @Nested
  class EqualByValue {
    @ParameterizedTest
    @ValueSource(
        strings = {
          "{9007199254740993.0}.contains(9007199254740993L)",
          "{9007199254740993.0}.contains(x)",
          "{1}.contains(1.0)",
          "{1.0}.contains(1)",
          "ints.contains(one)",
          "ints.contains(2L)",
          "decimals.contains(1)",
          "decimals.contains(2.5)",
          "{100}.contains(hundred)",
          "{1e20}.contains(big)",
          "ints.indexOf(2.0) == 1",
          "{x}.indexOf(9007199254740992.0) == -1",
          "decimals.indexOf(2.5) == 1",
          "ints.containsAll({1.0, 2.0, 3L})",
          "ints.containsAll({one})",
          "decimals.containsAll({1, 2.5})",
          "nested.contains({1.0, 2})",
          "nested.contains({a: 1.0})",
          "nested.containsAll({{1, 2.0}, {a: one}})",
          "m.containsValue(2)",
          "{1} == {1.0}",
          "{1, 2} == {1L, 2.0}",
          "{a: 1} == {a: 1.0}",
          "{a: {1, 2}} == {a: {one, two}}",
          "{1} != {2}",
          "1.equals(1.0)",
          "one.equals(1)",
          "hundred.equals(100L)",
          "{1: 'a'}[1.0] == 'a'",
          "{1: 'a'}[item.one] == 'a'",
          "{1.0: 'a'}[1] == 'a'",
          "{100: 'a'}[item.hundred] == 'a'",
          "{(item.one): 'a'}[1] == 'a'",
          "{9007199254740993.0: 'a'}[item.x] == 'a'",
          "{1: 'a'}.get(1.0) == 'a'",
          "{1: 'a'}.getOrDefault(one, 'no') == 'a'",
          "{1: 'a'}.containsKey(1.0)",
          "{2.5: 'a'}.containsKey(2.50)",
          "{0: 'a'}.containsKey(-0.0)",
        })
    void asEqualsSays(String expression) {
      assertThat(evaluate(expression)).as(expression).isEqualTo(true);
    }

    /** 2^53 + 1 as a long is not 2^53 as a double, as == says: equal values, no closer. */
    @ParameterizedTest
    @ValueSource(
        strings = {
          "{9007199254740992.0}.contains(x)",
          "{x}.contains(9007199254740992.0)",
          "{l}.contains(x)",
          "{x, 1}.containsAll({9007199254740992.0, 1})",
          "{x} == {9007199254740992.0}",
          "{9007199254740992.0: 'a'}[item.x] == 'a'",
          "{9007199254740992.0: 'a'}.containsKey(x)",
          "x.equals(9007199254740992.0)",
          "{0.1 + 0.2}.contains(0.3)",
          "ints.contains(1.5)",
          "{'1'}.contains(1)",
          "{1}.contains('1')",
          "m.containsKey(1)",
          "{1, 2} == {2, 1}",
          "{1} == {1, 1}",
          "{a: 1} == {a: 1, b: 2}",
          "1.equals('1')",
        })
    void differentValuesStayDifferent(String expression) {
      assertThat(evaluate(expression)).as(expression).isEqualTo(false);
    }

    @Test
    void aMapFromJsonKeepsItsTextKeys() {
      assertThat(evaluate("m['1']")).isEqualTo("text");
      assertThat(evaluate("m[1]")).isNull(); // a number is no text key, as 1 == '1' is false
      assertThat(evaluate("m.get('a')")).isEqualTo(1);
      assertThat(evaluate("m.getOrDefault('z', 'none')")).isEqualTo("none");
      assertThat(evaluate("m.getOrDefault(1, 'none')")).isEqualTo("none");
      assertThat(evaluate("m['a']")).isEqualTo(1);
      // A bare name reads the scope's name (IndexByNameTest), never the text: none here.
      assertThatThrownBy(() -> evaluate("m[a]")).isNotNull();
    }

    @Test
    void indexesOfListsAndTextsAreAsBefore() {
      assertThat(evaluate("ints[1.0]")).isEqualTo(2);
      assertThat(evaluate("ints[item.one]")).isEqualTo(2);
      assertThat(evaluate("'abc'[2L]")).isEqualTo("c");
      assertThatThrownBy(() -> evaluate("ints[1.5]"))
          .hasMessageContaining("the number 1.5 cannot be");
    }

    @Test
    void anInlineMapWritesItsKeysAsBefore() {
      assertThat(Values.parameter(evaluate("{1.0: 'a', 2: 'b', 2.5: 'c'}"), false))
          .isEqualTo(Map.of("1", "a", "2", "b", "2.5", "c"));
      assertThat(evaluate("{1: 'a'}.keySet().contains(1.0)")).isEqualTo(true);
      assertThat(evaluate("m.keySet().contains('a')")).isEqualTo(true);
      assertThat(evaluate("m.keySet().contains(1)")).isEqualTo(false);
      // A map's keys and values have no indexOf, as a set or a collection had none.
      assertThatThrownBy(() -> evaluate("m.values().indexOf(1)")).hasMessageContaining("indexOf");
    }
  }

  @Nested
  class Bounded {
    /** containsAll hashes (linear), by value: 100,000 wanted of 100,000 answers at once. */
    @Test
    void containsAllStaysLinear() {
      List<Object> many = new ArrayList<>();
      List<Object> wanted = new ArrayList<>();
      for (int i = 0; i < 100_000; i++) {
        many.add(i);
        wanted.add(new BigDecimal(i + ".0"));
      }
      SpelExpression parsed =
          (SpelExpression)
              new SpelExpressionParser(OFF).parseExpression("many.containsAll(wanted)");
      assertThat(
              Evaluator.evaluate(
                  BuildCounting.instrument(parsed, OFF), Map.of("many", many, "wanted", wanted)))
          .isEqualTo(true);
    }

    @Test
    void theDeadlineStopsAComparison() {
      List<Object> many = new ArrayList<>();
      for (int i = 0; i < 100_000; i++) {
        many.add(i);
      }
      SpelExpression parsed =
          (SpelExpression) new SpelExpressionParser(OFF).parseExpression("many.contains(-1)");
      try (EvaluationBudget.Scope ignored = EvaluationBudget.until(System.nanoTime() - 1)) {
        assertThatThrownBy(
                () ->
                    Evaluator.evaluate(BuildCounting.instrument(parsed, OFF), Map.of("many", many)))
            .hasMessage("the deadline ran out while evaluating");
      }
    }

    @Test
    void aWrongArgumentIsNamed() {
      assertThatThrownBy(() -> evaluate("ints.containsAll(1)"))
          .hasMessage("containsAll: expected a list argument, got Integer");
    }
  }
}
