package io.github.appsetmapper.bench;

import com.jayway.jsonpath.JsonPath;
import io.github.appsetmapper.compile.JsonPaths;
import io.github.appsetmapper.expr.Evaluator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.springframework.expression.Expression;
import org.springframework.expression.spel.SpelCompilerMode;
import org.springframework.expression.spel.SpelParserConfiguration;
import org.springframework.expression.spel.standard.SpelExpressionParser;

/**
 * The per-row cost of the compiled engine: a JsonPath select on a GitHub pull request, and the
 * github-pulls mapping's parameter expressions. The parser modes OFF and MIXED both run
 * interpreted: the evaluator's context does not support compilation, on purpose
 * (docs/performance.md). Run: bash bench/jmh
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class EngineBenchmark {
  private static final List<String> PARAMETERS =
      List.of(
          "item.number",
          "item.title",
          "item.head.ref",
          "#slug(item.head.ref, 50)",
          "item.base.ref",
          "item.head.sha",
          "#shortSha(item.head.sha, 8)",
          "item.labels.![name]",
          "#default(item.user?.login, 'ghost')",
          "input.labels.isEmpty() or item.labels.![name].containsAll(input.labels)");

  @Param({"OFF", "MIXED"})
  public String compiler;

  private List<Expression> expressions;
  private Map<String, Object> scope;
  private Object document;
  private JsonPath select;

  @Setup
  public void setup() throws Exception {
    SpelExpressionParser parser =
        new SpelExpressionParser(
            new SpelParserConfiguration(
                SpelCompilerMode.valueOf(compiler), getClass().getClassLoader()));
    expressions = PARAMETERS.stream().map(parser::parseExpression).toList();
    String pull =
        "{\"number\":1347,\"title\":\"Amazing new feature\",\"user\":{\"login\":\"octocat\"},"
            + "\"labels\":[{\"name\":\"bug\"},{\"name\":\"preview\"}],"
            + "\"head\":{\"ref\":\"feature/Login_Page\",\"sha\":\"6dcb09b5b57875f334f61aebed695e2e4193db5e\"},"
            + "\"base\":{\"ref\":\"main\",\"sha\":\"9b34ff5bfa1e8ccc6bc1d3a5e2c4b5d7e1f2a3b4\"}}";
    document =
        io.github.appsetmapper.json.JsonCodec.read(
            "{\"check_runs\":[{\"name\":\"build\",\"conclusion\":\"success\"}],\"pull\":"
                + pull
                + "}");
    select = JsonPath.compile("$.check_runs[?(@.name == 'build')].conclusion");
    scope = new HashMap<>();
    scope.put("item", io.github.appsetmapper.json.JsonCodec.read(pull));
    scope.put("input", Map.of("labels", List.of("preview")));
    scope.put("vars", Map.of());
    scope.put("applicationSetName", "bench");
  }

  @Benchmark
  public Object jsonPathSelect() {
    return select.read(document, JsonPaths.CONFIGURATION);
  }

  @Benchmark
  public Object parametersOfOneRow() {
    Object last = null;
    for (Expression expression : expressions) {
      last = Evaluator.evaluate(expression, scope);
    }
    return last;
  }
}
