package io.github.appsetmapper.engine;

import io.github.appsetmapper.compile.CompiledExpression;
import io.github.appsetmapper.compile.CompiledMapping;
import io.github.appsetmapper.expr.Scope;
import io.github.appsetmapper.expr.Values;
import io.github.appsetmapper.json.JsonCodec;
import io.github.appsetmapper.upstream.call.RequestFailure;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code parameters} step: each row's parameter map, in row order, counted against the memory
 * budget as the answer grows (what a small answer can grow into is written out whole).
 */
final class Parameters {
  /** One budget call per this many bytes of answer, not one per row. */
  private static final long BATCH_BYTES = 256 * 1024;

  /** A row's parameter map without its members, as JsonCodec.estimate counts it. */
  private static final long MAP_BYTES = 96;

  private Parameters() {}

  static List<Map<String, Object>> answer(Execution run, List<Row> rows, Scope base)
      throws RequestFailure {
    List<Map<String, Object>> answer = new ArrayList<>(rows.size());
    long[] unheld = {0};
    for (Row row : rows) {
      // Each value counted as it is made, before the secret pass walks it: a row of large values
      // is refused before it is whole.
      Map<String, Object> parameters =
          of(
              run.mapping(),
              row,
              Scopes.row(base, row),
              bytes -> {
                unheld[0] += bytes;
                if (unheld[0] > BATCH_BYTES) {
                  run.books().holdAnswer(answer.size() + 1, unheld[0]);
                  unheld[0] = 0;
                }
              });
      refuseSecretsAndHalves(run, row, parameters);
      run.trace().parameters(row.index(), row.element(), parameters);
      answer.add(parameters);
    }
    run.books().holdAnswer(answer.size(), unheld[0]);
    return answer;
  }

  /** Hears the estimated bytes of each parameter value as it is made. */
  private interface Made {
    void bytes(long bytes) throws RequestFailure;
  }

  /**
   * Refuses a row that would carry a secret value this server uses (an upstream echoing the token
   * it was sent into a field a parameter maps), in any form the {@link
   * io.github.appsetmapper.secret.Redactor} knows (as is, JSON-escaped, percent-encoded, base64):
   * masking it would not do, Argo CD would create Applications from the mask; the failure names the
   * parameter and row, never the value. Then a row holding half of a surrogate pair (an
   * expression's {@code substring} or {@code charAt} cutting an emoji in two): it has no UTF-8
   * form, so the answer would carry '?' in its place on a 200, while the same text from an upstream
   * is refused where it is read ({@link JsonCodec#halfSurrogate}, the one check). One walk over the
   * row's texts for both; a secret anywhere in the row is refused first, as it was when each check
   * walked the row on its own.
   */
  private static void refuseSecretsAndHalves(Execution run, Row row, Map<String, Object> parameters)
      throws RequestFailure {
    String halfParameter = null;
    String halfProblem = null;
    String[] problem = {null};
    for (Map.Entry<String, Object> parameter : parameters.entrySet()) {
      boolean wanted = halfProblem == null;
      problem[0] = null;
      boolean clean =
          Texts.each(
              parameter.getValue(),
              text -> {
                if (!run.redactor().redact(text).equals(text)) {
                  return false;
                }
                if (wanted && problem[0] == null) {
                  problem[0] = JsonCodec.halfSurrogate(text);
                }
                return true;
              });
      if (!clean) {
        throw new RequestFailure(
            "parameter '"
                + parameter.getKey()
                + "' of row "
                + row.named()
                + " holds a secret value this server uses (an upstream echoing a credential?);"
                + " refused so that no secret reaches Argo CD",
            RequestFailure.Kind.FAILED);
      }
      if (wanted && problem[0] != null) {
        halfParameter = parameter.getKey();
        halfProblem = problem[0];
      }
    }
    if (halfProblem != null) {
      // The mapping's expression made it: an expression's failure (500), as any other.
      throw RequestFailure.expression(
          "parameter '" + halfParameter + "' of row " + row.named() + " " + halfProblem, null);
    }
  }

  private static Map<String, Object> of(CompiledMapping mapping, Row row, Scope scope, Made made)
      throws RequestFailure {
    Map<String, Object> out = new LinkedHashMap<>();
    made.bytes(MAP_BYTES);
    for (Map.Entry<String, CompiledExpression> parameter : mapping.parameters().entrySet()) {
      Object value =
          Values.parameter(
              Expressions.onRow(parameter.getValue(), scope, row), mapping.keepTypes());
      // As JsonCodec.estimate counts a map's member.
      made.bytes(
          JsonCodec.estimate(value == null ? "" : value) + 72 + 3L * parameter.getKey().length());
      out.put(parameter.getKey(), value);
    }
    return Collections.unmodifiableMap(out);
  }
}
