package io.github.appsetmapper.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.github.appsetmapper.compile.CompileOptions;
import io.github.appsetmapper.compile.CompiledMapping;
import io.github.appsetmapper.compile.MappingCompiler;
import io.github.appsetmapper.config.MappingParser;
import io.github.appsetmapper.expr.EvaluationBudget;
import io.github.appsetmapper.expr.ExpressionLimitException;
import io.github.appsetmapper.expr.Scope;
import io.github.appsetmapper.expr.Values;
import io.github.appsetmapper.secret.Redactor;
import io.github.appsetmapper.upstream.cache.MemoryBudget;
import io.github.appsetmapper.upstream.cache.SharedCalls;
import io.github.appsetmapper.upstream.call.Deadline;
import io.github.appsetmapper.upstream.call.Headers;
import io.github.appsetmapper.upstream.call.UpstreamRequest;
import io.github.appsetmapper.upstream.call.UpstreamResponse;
import java.math.BigInteger;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Work done after the expressions of an answer ran, proportional to the answer (its JSON written,
 * its texts walked for secrets, the labels of the rows a stage dropped), checks the answer's
 * deadline as an expression does: before, an answer of 881 numbers of 8,991 digits was written a
 * second past its deadline and answered 200, and 60,000 dropped rows took 10 s of labels. No
 * timing: the deadline here has passed before the step starts, and a step that never checks it
 * finishes.
 */
class DeadlineAfterEvaluationTest {
  /** A number of 9,001 digits: about a millisecond to write. */
  private static final BigInteger BIG = BigInteger.TEN.pow(9000).add(BigInteger.ONE);

  private static EvaluationBudget.Scope past() {
    return EvaluationBudget.until(System.nanoTime() - 1);
  }

  private static void assertDeadline(Throwable thrown) {
    assertThat(thrown).isInstanceOf(ExpressionLimitException.class);
    assertThat(((ExpressionLimitException) thrown).deadline()).isTrue();
  }

  private static Throwable catchIt(Runnable step) {
    return catchThrowable(step::run);
  }

  @Test
  void anAnswerOfBigNumbersIsWrittenWithinItsDeadline() {
    List<Map<String, Object>> answer = List.of(Map.of("n", BIG));
    assertThat(AnswerBody.of(answer))
        .startsWith("{\"output\":{\"parameters\":[{\"n\":1000")
        .endsWith("0001}]}}");
    try (EvaluationBudget.Scope scope = past()) {
      assertDeadline(catchIt(() -> AnswerBody.of(answer)));
    }
  }

  /**
   * The bytes sent are made within the deadline too: encoded as each value is written, and the
   * deadline checked once more at the last byte. The server encoded the answer's text when it sent
   * it, after the deadline's last check.
   */
  @Test
  void theAnswersBytesAreMadeWithinItsDeadline() {
    List<Map<String, Object>> answer =
        List.of(
            Map.of("n", BIG, "s", "caf\u00e9 \ud83d\ude00", "d", new java.math.BigDecimal("1.50")));
    assertThat(AnswerBody.bytes(answer))
        .isEqualTo(AnswerBody.of(answer).getBytes(StandardCharsets.UTF_8));
    try (EvaluationBudget.Scope scope = past()) {
      assertDeadline(catchIt(() -> AnswerBody.bytes(answer)));
      // No value costly enough to check, nor a thousand of them: the check at the last byte.
      assertDeadline(catchIt(() -> AnswerBody.bytes(List.of(Map.of("s", "x")))));
    }
  }

  @Test
  void anAnswerOfManySmallValuesChecksEveryThousandValues() {
    List<Map<String, Object>> answer = Collections.nCopies(2_000, Map.of("n", "x"));
    try (EvaluationBudget.Scope scope = past()) {
      assertDeadline(catchIt(() -> AnswerBody.of(answer)));
    }
  }

  @Test
  void jsonOfBigNumbersIsWrittenWithinTheDeadline() {
    // #json and a template's list: what the budget counted is written after it was counted.
    List<Object> numbers = Collections.nCopies(3, BIG);
    assertThat(Values.text(numbers)).hasSize(3 * 9001 + 4);
    try (EvaluationBudget.Scope scope = past()) {
      assertDeadline(catchIt(() -> Values.text(numbers)));
    }
  }

  @Test
  void theSecretWalkOverAnAnswersValuesChecksTheDeadline() {
    List<Object> numbers = Collections.nCopies(3, BIG);
    assertThat(Texts.each(numbers, text -> true)).isTrue();
    try (EvaluationBudget.Scope scope = past()) {
      assertDeadline(catchIt(() -> Texts.each(numbers, text -> true)));
      List<Object> texts = Collections.nCopies(2_000, "x");
      assertDeadline(catchIt(() -> Texts.each(texts, text -> true)));
    }
  }

  private static CompiledMapping mapping(String label) throws Exception {
    String yaml =
        "name: m\nlist:\n  request: {url: \"https://api.example.com/a\"}\n  items: \"$[*]\"\n"
            + (label == null ? "" : "label: \"" + label + "\"\n")
            + "parameters:\n  x: \"item.name\"\n";
    return MappingCompiler.compile(
        MappingParser.parse("m.yaml", yaml).get(0),
        new CompileOptions(Map.of(), n -> null, new Redactor()));
  }

  private static List<Row> rows(int count) {
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      rows.add(new Row(i, Map.of("name", "row-" + i), Map.of()));
    }
    return rows;
  }

  /**
   * A label that the deadline stopped was taken as "no label" and the next row's tried: the labels
   * of every row went on past the deadline, each a failed evaluation.
   */
  @Test
  void labelsStopWithTheDeadline() throws Exception {
    CompiledMapping mapping = mapping("item.name");
    Scope base = Scopes.base(Map.of(), "set", Map.of());
    Redactor redactor = new Redactor();
    assertThat(RowLabels.labelled(mapping, rows(2), base, redactor).get(1).label())
        .isEqualTo("row-1");
    try (EvaluationBudget.Scope scope = past()) {
      assertDeadline(catchIt(() -> RowLabels.labelled(mapping, rows(2), base, redactor)));
    }
  }

  /** The label of a dropped row for explain, guessed from the item: no expression checked it. */
  @Test
  void theLabelOfADroppedRowChecksTheDeadline() throws Exception {
    CompiledMapping mapping = mapping(null);
    Scope base = Scopes.base(Map.of(), "set", Map.of());
    Redactor redactor = new Redactor();
    Row row = rows(1).get(0);
    Trace explaining =
        new Trace() {
          @Override
          public boolean explaining() {
            return true;
          }
        };
    assertThat(RowLabels.ofDropped(explaining, mapping, row, base, redactor))
        .isEqualTo("name row-0");
    assertThat(RowLabels.ofDropped(Trace.NONE, mapping, row, base, redactor)).isNull();
    try (EvaluationBudget.Scope scope = past()) {
      assertDeadline(catchIt(() -> RowLabels.of(mapping, row, base, redactor)));
      assertDeadline(catchIt(() -> RowLabels.ofDropped(explaining, mapping, row, base, redactor)));
      // Not labelled, still checked: its reason is made from its data (distinctBy's key).
      assertDeadline(catchIt(() -> RowLabels.ofDropped(Trace.NONE, mapping, row, base, redactor)));
    }
  }

  /**
   * An answer the cache stood in for keeps a few reasons, not one per call: each is redacted and
   * joined into its WARN line after the answer is made.
   */
  @Test
  void staleReasonsAreBounded() throws Exception {
    CallAccounting books =
        new CallAccounting(new MemoryBudget(1 << 20), Trace.NONE, Deadline.NONE, new Redactor());
    try {
      for (int i = 0; i < 100; i++) {
        URI uri = URI.create("https://api.example.com/items/" + i);
        UpstreamRequest request = UpstreamRequest.builder().method("GET").uri(uri).build();
        UpstreamResponse response =
            new UpstreamResponse(
                200, Headers.of(List.of()), "{}".getBytes(StandardCharsets.UTF_8), uri);
        books
            .start("enrich.x", request, 1)
            .answered(
                new SharedCalls.Outcome(
                    response, SharedCalls.Source.STALE, "GET " + uri + ": answered 503"));
      }
      List<String> reasons = books.staleReasons();
      assertThat(reasons).hasSize(CallAccounting.KEEP_STALE + 1);
      assertThat(reasons.get(0))
          .isEqualTo("enrich.x GET https://api.example.com/items/0: answered 503");
      assertThat(reasons.get(CallAccounting.KEEP_STALE)).isEqualTo("and 90 more");
    } finally {
      books.release();
    }
  }
}
