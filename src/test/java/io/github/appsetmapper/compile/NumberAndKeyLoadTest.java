package io.github.appsetmapper.compile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.github.appsetmapper.config.MappingException;
import io.github.appsetmapper.config.MappingParser;
import io.github.appsetmapper.config.Problem;
import io.github.appsetmapper.expr.Scope;
import io.github.appsetmapper.secret.Redactor;
import io.github.appsetmapper.server.Json;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.expression.EvaluationException;

/**
 * What the mapping writes is refused when it loads: a number literal no decimal holds, an inline
 * map's key written twice (as text: {@code 1} and {@code '1'} are one parameter key).
 */
class NumberAndKeyLoadTest {
  private static String yaml(String parameter) {
    return "name: m\nlist:\n  request: {url: \"https://api.example.com/a\"}\n  items: \"$[*]\"\n"
        + "parameters:\n  x: "
        + Json.write(parameter)
        + "\n";
  }

  private static CompiledMapping compile(String parameter) throws MappingException {
    return MappingCompiler.compile(
        MappingParser.parse("m.yaml", yaml(parameter)).get(0),
        new CompileOptions(Map.of(), n -> null, new Redactor()));
  }

  private static List<String> problems(String parameter) {
    MappingException e = catchThrowableOfType(MappingException.class, () -> compile(parameter));
    assertThat(e).as("refused").isNotNull();
    return e.problems().stream().map(Problem::toString).toList();
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "{1: 'a', '1': 'c'} | the inline map {1:'a','1':'c'} has the key '1' twice (keys are text:"
            + " 1 and '1' are one key)",
        "{a: 1, 'a': 2} | the inline map {a:1,'a':2} has the key 'a' twice (keys are text: 1 and"
            + " '1' are one key)",
        "{'x': {true: 1, 'true': item.n}} | the inline map {true:1,'true':item.n} has the key"
            + " 'true' twice (keys are text: 1 and '1' are one key)",
        "{-1: 'a', '-1': 'b'} | the inline map {-1:'a','-1':'b'} has the key '-1'"
            + " twice (keys are text: 1 and '1' are one key)",
        "{-1: 'a', -1: 'b'} | the inline map {-1:'a',-1:'b'} has the key '-1'"
            + " twice (keys are text: 1 and '1' are one key)",
        "{-1L: 'a', '-1': 'b'} | the inline map {-1:'a','-1':'b'} has the key '-1'"
            + " twice (keys are text: 1 and '1' are one key)",
        "{-1.5: 'a', '-1.5': 'b'} | the inline map {-1.5:'a','-1.5':'b'} has the key '-1.5'"
            + " twice (keys are text: 1 and '1' are one key)",
        "{-(1): 'a', '-1': 'b'} | the inline map {-1:'a','-1':'b'} has the key '-1'"
            + " twice (keys are text: 1 and '1' are one key)",
        "{(-1): 'a', '-1': 'b'} | the inline map {-1:'a','-1':'b'} has the key '-1'"
            + " twice (keys are text: 1 and '1' are one key)",
        "{-0: 'a', 0: 'b'} | the inline map {-0:'a',0:'b'} has the key '0'"
            + " twice (keys are text: 1 and '1' are one key)",
        "{-1: item.n, '-1': 'b'} | the inline map {-1:item.n,'-1':'b'} has the key '-1'"
            + " twice (keys are text: 1 and '1' are one key)",
        "{{1}: 'a', '[1]': 'b'} | the inline map {{1}:'a','[1]':'b'} has the key {1}: an inline"
            + " map's key must be text, a number or a boolean",
        "{{a: 1}: 'a', '{a=1}': 'b'} | the inline map {{a:1}:'a','{a=1}':'b'} has the key {a:1}:"
            + " an inline map's key must be text, a number or a boolean",
        "{{item.n}: 'a'} | the inline map {{item.n}:'a'} has the key {item.n}: an inline map's key"
            + " must be text, a number or a boolean",
        "{1.0: 'a', '1': 'b'} | the inline map {1.0:'a','1':'b'} has the key '1'"
            + " twice (keys are text: 1 and '1' are one key)",
        "1e400 | the number 1e400 is beyond a decimal's range (about 1.8e308)",
        "{-1e999f} | the number 1e999f is beyond a decimal's range (about 1.8e308)",
      })
  void isRefusedAtLoad(String parameter, String message) {
    assertThat(problems(parameter))
        .containsExactly("m.yaml:6:6 parameters.x: " + message + " (in '" + parameter + "')");
  }

  @Test
  void aComputedKeyIsCheckedWhenTheMapIsBuilt() throws MappingException {
    CompiledExpression x = compile("{(item.a): 1, (item.b): 2}").parameters().get("x");
    Scope one = Scope.empty().with(Scope.Name.ITEM, Map.of("a", 1, "b", "1"));
    Scope two = Scope.empty().with(Scope.Name.ITEM, Map.of("a", 1, "b", 2));
    assertThat(x.evaluate(two)).isEqualTo(Map.of(1, 1, 2, 2));
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> x.evaluate(one))
        .isInstanceOf(EvaluationException.class)
        .hasMessage("the inline map {item.a:1,item.b:2} has two keys that are the same text");
    Scope same = Scope.empty().with(Scope.Name.ITEM, Map.of("a", "k", "b", "k"));
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> x.evaluate(same))
        .hasMessage("the inline map {item.a:1,item.b:2} has two keys that are the same text");
  }

  @Test
  void aComputedKeyThatIsAListOrAMapIsRefusedWhenTheMapIsBuilt() throws MappingException {
    // As text a list key is [1] and a map key {a=1}: the answer would carry Java's rendering.
    CompiledExpression x = compile("{(item.k): 'a', '[1]': 'b'}").parameters().get("x");
    for (Object key : List.of(List.of(1), Map.of("a", 1))) {
      Scope scope = Scope.empty().with(Scope.Name.ITEM, Map.of("k", key));
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> x.evaluate(scope))
          .isInstanceOf(EvaluationException.class)
          .hasMessage(
              "the inline map {item.k:'a','[1]':'b'} has a list or a map as a key: an inline map's"
                  + " key must be text, a number or a boolean");
    }
    assertThat(x.evaluate(Scope.empty().with(Scope.Name.ITEM, Map.of("k", 1))))
        .isEqualTo(Map.of(1, "a", "[1]", "b"));
  }

  @Test
  void aConstantMapWithNegatedKeysStillAnswers() throws MappingException {
    // SpEL folds it into a constant; it is checked when built, and its distinct keys pass.
    CompiledExpression x = compile("{-1: 'a', 1: 'b', -(2): {-3: 'c'}}").parameters().get("x");
    assertThat(x.evaluate(Scope.empty())).isEqualTo(Map.of(-1, "a", 1, "b", -2, Map.of(-3, "c")));
    assertThat(x.evaluate(Scope.empty())).isEqualTo(Map.of(-1, "a", 1, "b", -2, Map.of(-3, "c")));
  }

  @Test
  void keysWrittenWithMoreDigitsThanADoubleHoldsAreTheirDecimals() throws MappingException {
    // As doubles 9007199254740993.0 and 9007199254740992.0 are one key (an outside tester's find).
    CompiledExpression x =
        compile(
                "{9007199254740993.0: 'a', 9007199254740992.0: 'b', -9007199254740993.0: 'c',"
                    + " -9007199254740992.0: 'd'}")
            .parameters()
            .get("x");
    assertThat(io.github.appsetmapper.expr.Values.parameter(x.evaluate(Scope.empty()), false))
        .isEqualTo(
            Map.of(
                "9007199254740993", "a",
                "9007199254740992", "b",
                "-9007199254740993", "c",
                "-9007199254740992", "d"));
  }
}
