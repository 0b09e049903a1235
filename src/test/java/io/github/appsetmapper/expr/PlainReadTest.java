package io.github.appsetmapper.expr;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.expression.Expression;
import org.springframework.expression.spel.standard.SpelExpressionParser;

/**
 * Plain reads answer what the interpreter answers, value for value and failure for failure; the
 * reads that skip it are the commonest parameter shapes, a {@code #function} of text included.
 */
class PlainReadTest {
  private static final SpelExpressionParser PARSER = new SpelExpressionParser();

  private static Map<String, Object> root() {
    Map<String, Object> input = new HashMap<>();
    input.put("name", "Val1");
    input.put("number", 42);
    input.put("none", null);
    input.put("list", List.of("a", "b"));
    input.put("date", "2026-12-02T07:00:00Z");
    input.put("notADate", "yesterday");
    Map<String, Object> root = new HashMap<>();
    root.put("input", input);
    root.put("applicationSetName", "bench");
    root.put("vars", Map.of("suffix", "-x"));
    return root;
  }

  @Test
  void aFunctionOfTextArgumentsIsReadWithoutTheInterpreter() {
    for (String text :
        List.of(
            "#upper(input.name)",
            "#lower(applicationSetName)",
            "#upper('abc')",
            "#sha256(input.name)",
            "#dateCompare(input.date, '2026-01-01T00:00:00Z')",
            "'3'",
            "input.name")) {
      assertThat(PlainRead.of(PARSER.parseExpression(text))).as(text).isNotNull();
    }
  }

  @Test
  void everythingElseGoesToTheInterpreter() {
    for (String text :
        List.of(
            "#upper(input.name + 'x')",
            "#slug(input.name, 10)",
            "#upper(#lower(input.name))",
            "#default(input.name, 'x')",
            "#upper(input.name, 'x')",
            "#nosuch(input.name)",
            "#upper(3)",
            "input.name.length()")) {
      assertThat(PlainRead.of(PARSER.parseExpression(text))).as(text).isNull();
    }
  }

  @Test
  void theAnswerAndTheFailureAreTheInterpreters() {
    List<String> texts =
        List.of(
            "#upper(input.name)",
            "#upper(input.number)",
            "#upper(input.none)",
            "#upper(input.missing)",
            "#upper(input.list)",
            "#upper(input.name.first)",
            "#lower(vars.suffix)",
            "#sha256(applicationSetName)",
            "#epochSeconds(input.date)",
            "#epochSeconds(input.notADate)",
            "#dateFormat(input.date, 'yyyy')",
            "#dateFormat(input.date, 'no such pattern {')",
            "#semverValid(input.name)",
            "#urlEncode(input.name)");
    for (String text : texts) {
      Expression expression = PARSER.parseExpression(text);
      assertThat(outcome(() -> Evaluator.evaluate(expression, PlainRead.of(expression), root())))
          .as(text)
          .isEqualTo(outcome(() -> Evaluator.evaluate(expression, root())));
    }
  }

  private static List<Object> outcome(java.util.function.Supplier<Object> evaluation) {
    List<Object> seen = new ArrayList<>();
    try {
      seen.add(evaluation.get());
    } catch (RuntimeException e) {
      seen.add(e.getClass());
      seen.add(e.getMessage());
    }
    return seen;
  }
}
