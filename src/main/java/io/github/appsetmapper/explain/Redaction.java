package io.github.appsetmapper.explain;

import io.github.appsetmapper.expr.EvaluationBudget;
import io.github.appsetmapper.json.WritePace;
import io.github.appsetmapper.secret.Redactor;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every scalar inside plain data (maps, lists) passed through the redactor: texts and numbers. Each
 * value is a step of the evaluation's budget ({@link EvaluationBudget#step}): a whole answer
 * redacted for explain stops with the deadline when one is open on the thread ({@link Explainer}).
 */
final class Redaction {
  private Redaction() {}

  static Object deep(Object value, Redactor redactor) {
    return deep(value, redactor, EvaluationBudget.pace());
  }

  private static Object deep(Object value, Redactor redactor, WritePace steps) {
    steps.before(value);
    if (value instanceof Map<?, ?> map) {
      Map<String, Object> out = new LinkedHashMap<>();
      map.forEach(
          (k, v) -> {
            steps.before(k);
            out.put(redactor.redact(String.valueOf(k)), deep(v, redactor, steps));
          });
      return Collections.unmodifiableMap(out);
    }
    if (value instanceof List<?> list) {
      List<Object> out = new ArrayList<>(list.size());
      list.forEach(v -> out.add(deep(v, redactor, steps)));
      return Collections.unmodifiableList(out);
    }
    return redactor.redactScalar(value);
  }
}
