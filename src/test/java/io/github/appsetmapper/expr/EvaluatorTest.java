package io.github.appsetmapper.expr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.appsetmapper.server.Json;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.springframework.expression.spel.SpelEvaluationException;
import org.springframework.expression.spel.standard.SpelExpressionParser;

class EvaluatorTest {

  private static final SpelExpressionParser PARSER = new SpelExpressionParser();

  /** A row scope as the engine builds it: plain maps and lists, as upstream JSON reads. */
  private static Map<String, Object> scope() {
    Map<String, Object> item = new HashMap<>();
    item.put("number", 42);
    item.put(
        "head",
        Map.of("ref", "Feature/Login_Page", "sha", "3f1c2a9d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39"));
    item.put("labels", List.of(Map.of("name", "bug"), Map.of("name", "ui")));
    item.put("milestone", null);
    item.put("tags", List.of("v1.2.3", "1.10.0", "1.10.0-rc.1", "latest"));
    Map<String, Object> scope = new HashMap<>();
    scope.put("item", item);
    scope.put("input", Map.of("branch", "feat/x"));
    return scope;
  }

  /** Parses without the load-time check, as if a tree had slipped past it. */
  private static Object evaluate(String expression) {
    return Evaluator.evaluate(PARSER.parseExpression(expression), scope());
  }

  @Nested
  class SecondWall {

    @Test
    void getClassCannotBeResolved() {
      assertThatThrownBy(() -> evaluate("''.getClass()"))
          .isInstanceOf(SpelEvaluationException.class)
          .hasMessage(
              "EL1004E: Method call: Method getClass() cannot be found on type java.lang.String");
    }

    @Test
    void getClassOnAMapCannotBeResolved() {
      assertThatThrownBy(() -> evaluate("item.getClass()"))
          .isInstanceOf(SpelEvaluationException.class)
          .hasMessage(
              "EL1004E: Method call: Method getClass() cannot be found on type java.util.HashMap");
    }

    @Test
    void typeReferencesFindNoType() {
      assertThatThrownBy(() -> evaluate("T(java.lang.Runtime)"))
          .isInstanceOf(SpelEvaluationException.class)
          .hasMessage("EL1005E: Type cannot be found 'java.lang.Runtime'");
      assertThatThrownBy(() -> evaluate("T(java.lang.Runtime).getRuntime().exec('id')"))
          .isInstanceOf(SpelEvaluationException.class)
          .hasMessage("EL1005E: Type cannot be found 'java.lang.Runtime'");
    }

    @Test
    void constructorsAreNotFound() {
      assertThatThrownBy(() -> evaluate("new java.io.File('x')"))
          .isInstanceOf(SpelEvaluationException.class)
          .hasMessage(
              "EL1002E: Constructor call: No suitable constructor found on type java.io.File for"
                  + " arguments (java.lang.String)");
    }

    @Test
    void beansCannotBeResolved() {
      assertThatThrownBy(() -> evaluate("@bean"))
          .isInstanceOf(SpelEvaluationException.class)
          .hasMessage(
              "EL1057E: No bean resolver registered in the context to resolve access to bean"
                  + " 'bean'");
    }

    @Test
    void assignmentIsRefused() {
      assertThatThrownBy(() -> evaluate("item.number = 1"))
          .isInstanceOf(SpelEvaluationException.class)
          .hasMessage("EL1068E: The expression component 'item.number=1' is not assignable");
      assertThatThrownBy(() -> evaluate("#x = 1"))
          .isInstanceOf(SpelEvaluationException.class)
          .hasMessage("EL1068E: The expression component '#x=1' is not assignable");
    }

    @Test
    void methodsOutsideTheAllowlistAreNotFound() {
      assertThatThrownBy(() -> evaluate("'x'.repeat(3)"))
          .isInstanceOf(SpelEvaluationException.class)
          .hasMessage(
              "EL1004E: Method call: Method repeat(java.lang.Integer) cannot be found on type"
                  + " java.lang.String");
      assertThatThrownBy(() -> evaluate("{1,2}.stream()"))
          .isInstanceOf(SpelEvaluationException.class)
          .hasMessage(
              "EL1004E: Method call: Method stream() cannot be found on type"
                  + " java.util.Collections$UnmodifiableRandomAccessList");
    }

    @Test
    void anAllowedNameOnTheWrongReceiverIsNotFound() {
      // keySet passes the load-time check (a Map method) but a String has no such allowed method.
      assertThatThrownBy(() -> evaluate("input.branch.keySet()"))
          .isInstanceOf(SpelEvaluationException.class)
          .hasMessage(
              "EL1004E: Method call: Method keySet() cannot be found on type java.lang.String");
    }

    @Test
    void beanPropertiesOfNonMapsAreNotReadable() {
      assertThatThrownBy(() -> evaluate("''.class"))
          .isInstanceOf(SpelEvaluationException.class)
          .hasMessage(
              "EL1008E: Property or field 'class' cannot be found on object of type"
                  + " 'java.lang.String' - maybe not public or not valid?");
    }

    @Test
    void rootClassOnAMapIsOnlyAMissingKey() {
      assertThat(evaluate("#root.class")).isNull();
    }

    @Test
    void textRepetitionIsBounded() {
      assertThatThrownBy(() -> evaluate("'x' * 1000"))
          .isInstanceOf(SpelEvaluationException.class)
          .hasMessage(
              "EL1076E: Repeated text is too long, exceeding the threshold of '256' characters");
    }
  }

  @Nested
  class MapAccess {

    @Test
    void aMissingKeyReadsNull() {
      assertThat(evaluate("item.nope")).isNull();
      assertThat(evaluate("item.milestone")).isNull();
    }

    @Test
    void safeNavigationThroughAMissingKey() {
      assertThat(evaluate("item.milestone?.title")).isNull();
      assertThat(evaluate("item.nope?.deeper?.still")).isNull();
    }

    @Test
    void nestedPropertiesAndIndexers() {
      assertThat(evaluate("item.head.ref")).isEqualTo("Feature/Login_Page");
      assertThat(evaluate("item['head']['ref']")).isEqualTo("Feature/Login_Page");
      assertThat(evaluate("item.labels[1].name")).isEqualTo("ui");
    }

    @Test
    void projectionAndSelection() {
      assertThat(evaluate("item.labels.![name]")).isEqualTo(List.of("bug", "ui"));
      assertThat(evaluate("item.labels.?[name == 'ui'].size()")).isEqualTo(1);
      assertThat(evaluate("item.labels.![name].contains('bug')")).isEqualTo(true);
    }

    @Test
    void allowlistedMethods() {
      assertThat(evaluate("input.branch.replace('/', '-')")).isEqualTo("feat-x");
      assertThat(evaluate("item.head.sha.substring(0, 7)")).isEqualTo("3f1c2a9");
      assertThat(evaluate("item.labels.size()")).isEqualTo(2);
      assertThat(evaluate("item.head.containsKey('ref')")).isEqualTo(true);
    }
  }

  @Nested
  class FunctionsInExpressions {

    @Test
    void slug() {
      assertThat(evaluate("#slug(item.head.ref, 50)")).isEqualTo("feature-login-page");
      assertThat(evaluate("#slug(item.head.ref, 7)")).isEqualTo("feature");
      assertThat(evaluate("#slug(item.nope, 50)")).isNull();
    }

    @Test
    void shortSha() {
      assertThat(evaluate("#shortSha(item.head.sha, 8)")).isEqualTo("3f1c2a9d");
      assertThat(evaluate("#shortSha('abc', 8)")).isEqualTo("abc");
      assertThat(evaluate("#shortSha(item.nope, 8)")).isNull();
    }

    @Test
    void lowerAndUpper() {
      assertThat(evaluate("#lower('Feature/ABC')")).isEqualTo("feature/abc");
      assertThat(evaluate("#upper('Feature/abc')")).isEqualTo("FEATURE/ABC");
      assertThat(evaluate("#lower(item.nope)")).isNull();
    }

    @Test
    void semverFunctionsRefuseWhatIsNotAList() {
      // SpEL would turn a map into an empty list and a text into a list of its comma parts: an
      // error object would become "no versions" and a filter would drop rows from a 2xx.
      assertThatThrownBy(() -> evaluate("#semverSort({a: '1.0.0'})"))
          .hasMessageContaining("#semverSort needs a list, got a map");
      assertThatThrownBy(() -> evaluate("#semverMax('2.0.0')"))
          .hasMessageContaining("#semverMax needs a list, got a text");
      assertThatThrownBy(() -> evaluate("#semverSort(1)"))
          .hasMessageContaining("#semverSort needs a list, got a number");
    }

    @Test
    void semverMaxPicksTheHighestRelease() {
      assertThat(evaluate("#semverMax(item.tags)")).isEqualTo("1.10.0");
      assertThat(evaluate("#semverMax({'1.0.0-rc.1', '1.0.0-rc.10', '1.0.0-beta'})"))
          .isEqualTo("1.0.0-rc.10");
      assertThat(evaluate("#semverMax({'v2.0.0', '10.0.0-alpha', '9.9.9'})"))
          .isEqualTo("10.0.0-alpha");
      assertThat(evaluate("#semverMax({'latest', 'main'})")).isNull();
      assertThat(evaluate("#semverMax(item.nope)")).isNull();
    }

    @Test
    void sha256KnownVector() {
      assertThat(evaluate("#sha256('abc')"))
          .isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
      assertThat(evaluate("#sha256('')"))
          .isEqualTo("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    }

    @Test
    void json() {
      assertThat(evaluate("#json(item.labels)"))
          .isEqualTo("[{\"name\":\"bug\"},{\"name\":\"ui\"}]");
      assertThat(evaluate("#json({a: 1, b: {true, null}})"))
          .isEqualTo("{\"a\":1,\"b\":[true,null]}");
      assertThat(evaluate("#json(item.nope)")).isEqualTo("null");
    }

    @Test
    void defaultReplacesNullAndEmpty() {
      assertThat(evaluate("#default(item.x, 'none')")).isEqualTo("none");
      assertThat(evaluate("#default('', 'none')")).isEqualTo("none");
      assertThat(evaluate("#default(item.head.ref, 'none')")).isEqualTo("Feature/Login_Page");
      assertThat(evaluate("#default(item.milestone?.title, 'no milestone')"))
          .isEqualTo("no milestone");
    }
  }

  /** The functions of issue 12: semantic versions, dates, escapes, entries. */
  @Nested
  class VersionDateAndEscapeFunctions {
    private Object at(String expression, String now) {
      try (EvaluationBudget.Scope scope =
          EvaluationBudget.until(Long.MAX_VALUE, java.time.Instant.parse(now))) {
        return evaluate(expression);
      }
    }

    @Test
    void semverCompareSortAndValid() {
      assertThat(evaluate("#semverCompare('1.10.0', '1.9.3')")).isEqualTo(1);
      assertThat(evaluate("#semverCompare('v1.0.0', '1.0.0+build.7')")).isEqualTo(0);
      assertThat(evaluate("#semverCompare('1.0.0-rc.1', '1.0.0')")).isEqualTo(-1);
      assertThat(evaluate("#semverCompare('latest', '1.0.0')")).isNull();
      assertThat(evaluate("#semverCompare(null, '1.0.0')")).isNull();
      assertThat(evaluate("#semverSort(item.tags)"))
          .isEqualTo(List.of("v1.2.3", "1.10.0-rc.1", "1.10.0"));
      assertThat(evaluate("#semverSort(item.nope)")).isNull();
      assertThat(evaluate("#semverValid('v1.2.3')")).isEqualTo(true);
      assertThat(evaluate("#semverValid('1.2')")).isEqualTo(false);
      assertThat(evaluate("#semverValid('1.999.0')")).isEqualTo(true);
      assertThat(evaluate("item.tags.?[#semverValid(#this)].size()")).isEqualTo(3);
    }

    @Test
    void aVersionLongerThanAnyTagIsNoVersion() {
      assertThat(Functions.semverValid("1.0." + "9".repeat(300))).isFalse();
    }

    @Test
    void datesAreRfc3339AndNowIsTheRequestsTime() {
      String now = "2026-12-01T12:00:00Z";
      assertThat(at("#now()", now)).isEqualTo("2026-12-01T12:00:00Z");
      assertThat(at("#daysSince('2026-11-01T12:00:00Z')", now)).isEqualTo(30L);
      assertThat(at("#daysSince('2026-11-01T12:00:01+00:00') <= 29", now)).isEqualTo(true);
      assertThat(at("#daysSince('2026-12-24')", now)).isEqualTo(-23L);
      assertThat(at("#secondsSince('2026-12-01t11:59:00z')", now)).isEqualTo(60L);
      assertThat(at("#epochSeconds('1970-01-01T01:00:00+01:00')", now)).isEqualTo(0L);
      assertThat(at("#dateCompare('2024-05-02T18:40:11+02:00', '2024-05-02T16:40:11Z')", now))
          .isEqualTo(0);
      assertThat(at("#dateFormat('2024-05-02T18:40:11.5+02:00', 'yyyy-MM-dd HH:mm')", now))
          .isEqualTo("2024-05-02 16:40");
      assertThat(at("#daysSince(item.nope)", now)).isNull();
    }

    @Test
    void aTextThatIsNoDateFailsNamingIt() {
      assertThatThrownBy(() -> evaluate("#daysSince('last tuesday')"))
          .isInstanceOf(SpelEvaluationException.class)
          .hasMessageContaining(
              "'last tuesday' is not an RFC 3339 date-time (2024-05-02T16:40:11Z,"
                  + " 2024-05-02T18:40:11+02:00, or 2024-05-02)");
      assertThatThrownBy(() -> evaluate("#dateFormat('2024-05-02', 'yyyy-MM-dd' + 'X' * 60)"))
          .isInstanceOf(SpelEvaluationException.class)
          .hasMessageContaining("a date pattern of more than 64 characters is not allowed");
    }

    @Test
    void escapes() {
      assertThat(evaluate("#urlEncode('feat/a b&c=d~é')")).isEqualTo("feat%2Fa%20b%26c%3Dd~%C3%A9");
      assertThat(evaluate("#regexQuote('1.2.3+b (x)')")).isEqualTo("1\\.2\\.3\\+b \\(x\\)");
      assertThat(evaluate("'v1.2.3+b (x)'.matches('v' + #regexQuote('1.2.3+b (x)'))"))
          .isEqualTo(true);
      assertThat(evaluate("#shellQuote('it''s $HOME')")).isEqualTo("'it'\\''s $HOME'");
      assertThat(evaluate("#json('a\"b')")).isEqualTo("\"a\\\"b\"");
    }

    @Test
    void escapesAreBounded() {
      assertThatThrownBy(() -> Functions.urlEncode("/".repeat(400_000)))
          .isInstanceOf(ExpressionLimitException.class)
          .hasMessage(
              "#urlEncode would build a string of 1200000 characters, more than 1048576 allowed");
    }

    @Test
    void entriesOfAMap() {
      Map<String, Object> env = new LinkedHashMap<>();
      env.put("A", "1");
      env.put("B", null);
      assertThat(Functions.entries(env))
          .isEqualTo(
              List.of(
                  Map.of("key", "A", "value", "1"),
                  new LinkedHashMap<>(Map.of("key", "B")) {
                    {
                      put("value", null);
                    }
                  }));
      assertThat(Functions.entries(null)).isNull();
    }
  }

  @Nested
  class ParameterValues {

    @Test
    void scalarsBecomePlainStrings() {
      assertThat(Values.parameter(10000000L, false)).isEqualTo("10000000");
      assertThat(Values.parameter(1.0E7, false)).isEqualTo("10000000");
      assertThat(Values.parameter(new BigDecimal("1E+7"), false)).isEqualTo("10000000");
      assertThat(Values.parameter(1.5, false)).isEqualTo("1.5");
      assertThat(Values.parameter(1.0E-7, false)).isEqualTo("0.0000001");
      assertThat(Values.parameter(42, false)).isEqualTo("42");
      assertThat(Values.parameter(true, false)).isEqualTo("true");
      assertThat(Values.parameter("text", false)).isEqualTo("text");
    }

    @Test
    void nullStaysNull() {
      assertThat(Values.parameter(null, false)).isNull();
      assertThat(Values.parameter(null, true)).isNull();
    }

    @Test
    void scalarsInsideListsAndMapsBecomeStringsToo() {
      Map<String, Object> nested = new LinkedHashMap<>();
      nested.put("n", 1.0E7);
      nested.put("b", false);
      nested.put("none", null);
      nested.put("list", List.of(new BigDecimal("1E+7"), true, List.of(3L)));

      Object value = Values.parameter(nested, false);

      Map<String, Object> expected = new LinkedHashMap<>();
      expected.put("n", "10000000");
      expected.put("b", "false");
      expected.put("none", null);
      expected.put("list", List.of("10000000", "true", List.of("3")));
      assertThat(value).isEqualTo(expected);
      assertThat(Json.write(value))
          .isEqualTo(
              "{\"n\":\"10000000\",\"b\":\"false\",\"none\":null,\"list\":[\"10000000\",\"true\",[\"3\"]]}");
    }

    @Test
    void anArrayBecomesAList() {
      assertThat(Values.parameter(new String[] {"a", "b"}, false)).isEqualTo(List.of("a", "b"));
    }

    @Test
    void keepTypesKeepsNumbersWrittenPlainly() {
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("long", 10000000L);
      row.put("double", 1.0E7);
      row.put("decimal", new BigDecimal("1E+7"));
      row.put("flag", true);
      row.put("list", List.of(1.0E7, new BigDecimal("1E+7")));

      String json = Json.write(Values.parameter(row, true));

      assertThat(json)
          .isEqualTo(
              "{\"long\":10000000,\"double\":10000000,\"decimal\":10000000,\"flag\":true,"
                  + "\"list\":[10000000,10000000]}")
          .doesNotContain("1.0E7", "1E+7");
    }

    @Test
    void keepTypesKeepsNumberTypes() {
      assertThat(Values.parameter(10000000L, true)).isEqualTo(10000000L);
      assertThat(Values.parameter(true, true)).isEqualTo(true);
      assertThat(Values.parameter(1.5, true)).isEqualTo(new BigDecimal("1.5"));
    }

    @Test
    void textOfValuesForTemplates() {
      assertThat(Values.text(null)).isEmpty();
      assertThat(Values.text(1.0E7)).isEqualTo("10000000");
      assertThat(Values.text(new BigDecimal("1E+7"))).isEqualTo("10000000");
      assertThat(Values.text(List.of("a", 1))).isEqualTo("[\"a\",1]");
    }
  }

  @Nested
  class KnownBugs {

    @Test
    void anArrayWithNullKeepsTheNull() {
      assertThat(Values.parameter(new Object[] {"a", null}, false))
          .isEqualTo(new ArrayList<>(Arrays.asList("a", null)));
    }

    @Test
    void jsonWritesNumbersPlainly() {
      assertThat(Functions.json(List.of(new BigDecimal("1E+7"), 1.0E7)))
          .isEqualTo("[10000000,10000000]");
    }
  }

  /** The RE2 and bounded methods answer as the JDK's did, on everything RE2 accepts. */
  @Nested
  class BoundedMethodsAnswerAsTheJdk {
    private Object on(String text, String call) {
      Map<String, Object> scope = new HashMap<>();
      scope.put("t", text);
      return Evaluator.evaluate(PARSER.parseExpression("t." + call), scope);
    }

    @Test
    void splitKeepsTheJdksRulesAsAList() {
      for (String text : List.of("a,b,,", ",a,b", "a,,b", "", ",", "abc", "a1b22c333")) {
        for (String regex : List.of(",", "", "\\d+", ",+")) {
          for (int limit : new int[] {0, -1, 1, 2, 5}) {
            assertThat((List<Object>) on(text, "split('" + regex + "', " + limit + ")"))
                .as("'%s'.split('%s', %d)", text, regex, limit)
                .containsExactly((Object[]) text.split(regex, limit));
          }
          assertThat((List<Object>) on(text, "split('" + regex + "')"))
              .as("'%s'.split('%s')", text, regex)
              .containsExactly((Object[]) text.split(regex));
        }
      }
    }

    @Test
    void replacementsKeepTheJdksRules() {
      String text = "feature/Login_Page-2";
      for (String[] call :
          new String[][] {
            {"[^a-z0-9]+", "-"},
            {"([a-z]+)/(.*)", "$2:$1"},
            {"(?i)login", "\\$x"},
            {"(?<kind>[a-z]+)/", "${kind}."},
            {"", "."},
          }) {
        assertThat(on(text, "replaceAll('" + call[0] + "', '" + call[1] + "')"))
            .as("replaceAll(%s, %s)", call[0], call[1])
            .isEqualTo(text.replaceAll(call[0], call[1]));
        assertThat(on(text, "replaceFirst('" + call[0] + "', '" + call[1] + "')"))
            .as("replaceFirst(%s, %s)", call[0], call[1])
            .isEqualTo(text.replaceFirst(call[0], call[1]));
      }
      assertThat(on(text, "matches('[a-z]+/.*')")).isEqualTo(true);
      assertThat(on(text, "matches('login')")).isEqualTo(false);
      assertThat(on(text, "replace('-', '--')")).isEqualTo(text.replace("-", "--"));
      assertThat(on(text, "replace('', '.')")).isEqualTo(text.replace("", "."));
      assertThat(on(text, "concat('!')")).isEqualTo(text.concat("!"));
      assertThat(on(text, "toUpperCase()")).isEqualTo("FEATURE/LOGIN_PAGE-2");
      assertThat(evaluate("item.tags.toString()"))
          .isEqualTo(List.of("v1.2.3", "1.10.0", "1.10.0-rc.1", "latest").toString());
      assertThat(evaluate("item.head.toString().length()"))
          .isEqualTo(((Map<?, ?>) scope().get("item")).get("head").toString().length());
    }
  }

  /**
   * #upper and #lower build a new string as the methods' case changes do, and are bounded the same:
   * ß upper-cases to SS, so a text within the bound doubled past it on a 200 (an outside tester's
   * find; toUpperCase() refused it). Both are linear: the JDK's took 45 s for 530,000 ß.
   */
  @Test
  void caseFunctionsAreBoundedAsTheCaseMethodsAre() {
    Map<String, Object> scope = new HashMap<>(scope());
    scope.put("input", Map.of("s", "\u00df".repeat(600_000)));
    for (String expression : List.of("#upper(input.s)", "input.s.toUpperCase()")) {
      assertThatThrownBy(() -> Evaluator.evaluate(PARSER.parseExpression(expression), scope))
          .as(expression)
          .hasMessageContaining("would build a string of")
          .hasMessageContaining("more than 1048576 allowed");
    }
    assertThat(Evaluator.evaluate(PARSER.parseExpression("#lower('AB')"), scope)).isEqualTo("ab");
    scope.put("input", Map.of("s", "stra\u00dfe \u0149 \ud83d\ude00 \ufb03"));
    assertThat(Evaluator.evaluate(PARSER.parseExpression("#upper(input.s)"), scope))
        .isEqualTo("stra\u00dfe \u0149 \ud83d\ude00 \ufb03".toUpperCase(java.util.Locale.ROOT));
  }
}
