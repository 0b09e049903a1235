package io.github.appsetmapper.compile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.appsetmapper.config.MappingParser;
import io.github.appsetmapper.expr.Scope;
import io.github.appsetmapper.secret.Redactor;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Expressions stay interpreted, however often they run: compiled SpEL bytecode would skip the
 * interpreter's sandbox checks (see ExpressionCompiler). Whoever turns compilation on makes {@link
 * #nothingIsCompiledAfterManyEvaluations} fail, and must then rerun the sandbox, red-team and fault
 * corpora compiled. The other cases keep the answers the same over many runs.
 */
class CompiledModeTest {
  private static CompiledExpression parameter(String expression) throws Exception {
    String yaml =
        "name: m\nlist:\n  request: {url: \"https://api.example.com/a\"}\n  items: \"$[*]\"\n"
            + "parameters:\n  x: "
            + io.github.appsetmapper.server.Json.write(expression)
            + "\n";
    CompiledMapping mapping =
        MappingCompiler.compile(
            MappingParser.parse("m.yaml", yaml).get(0),
            new CompileOptions(Map.of(), n -> null, new Redactor()));
    return mapping.parameters().get("x");
  }

  private static Scope scope(Object item) {
    return Scope.empty().with(Scope.Name.ITEM, item).with(Scope.Name.INPUT, Map.of());
  }

  @Test
  void nothingIsCompiledAfterManyEvaluations() throws Exception {
    CompiledExpression expression =
        parameter("item.name.toUpperCase() + '-' + #slug(item.name, 9)");
    for (int i = 0; i < 2_000; i++) {
      assertThat(expression.evaluate(scope(Map.of("name", "n" + i)))).isEqualTo("N" + i + "-n" + i);
    }
    java.lang.reflect.Field compiled =
        org.springframework.expression.spel.standard.SpelExpression.class.getDeclaredField(
            "compiledAst");
    compiled.setAccessible(true);
    assertThat(compiled.get(expression.expression())).isNull();
  }

  @Test
  void missingKeysStayNullAfterCompilation() throws Exception {
    CompiledExpression expression = parameter("item.milestone?.title");
    for (int i = 0; i < 400; i++) {
      Object item = i % 3 == 0 ? Map.of() : Map.of("milestone", Map.of("title", "v" + i));
      assertThat(expression.evaluate(scope(item))).isEqualTo(i % 3 == 0 ? null : "v" + i);
    }
  }

  @Test
  void aTypeChangeFallsBackToTheSandboxedInterpreter() throws Exception {
    CompiledExpression expression = parameter("item.name.toUpperCase()");
    for (int i = 0; i < 400; i++) {
      assertThat(expression.evaluate(scope(Map.of("name", "n" + i)))).isEqualTo("N" + i);
    }
    // A list has no toUpperCase: the compiled call fails, the interpreter's allowlist refuses it.
    assertThatThrownBy(() -> expression.evaluate(scope(Map.of("name", List.of("a")))))
        .isInstanceOf(org.springframework.expression.EvaluationException.class)
        .hasMessageContaining("toUpperCase");
    assertThat(expression.evaluate(scope(Map.of("name", "back")))).isEqualTo("BACK");
  }

  @Test
  void functionsAndProjectionsGiveTheSameAnswers() throws Exception {
    CompiledExpression expression = parameter("#slug(item.ref, 50) + ':' + item.labels.![name]");
    Map<String, Object> item =
        Map.of("ref", "Feature/Login_Page", "labels", List.of(Map.of("name", "a")));
    for (int i = 0; i < 400; i++) {
      assertThat(expression.evaluate(scope(item))).isEqualTo("feature-login-page:a");
    }
  }

  @Test
  void projectionsWalkAMapsEntries() throws Exception {
    CompiledExpression expression = parameter("item.env.?[value > 1].![key]");
    Map<String, Object> env = new java.util.LinkedHashMap<>();
    env.put("a", 1);
    env.put("b", 2);
    env.put("c", 3);
    for (int i = 0; i < 200; i++) {
      assertThat(expression.evaluate(scope(Map.of("env", env)))).isEqualTo(List.of("b", "c"));
    }
  }
}
