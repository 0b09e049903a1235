package io.github.appsetmapper.engine;

import io.github.appsetmapper.expr.EvaluationBudget;
import io.github.appsetmapper.json.Numbers;
import io.github.appsetmapper.json.WritePace;
import java.util.Map;

/**
 * Every text in a value an expression made (a map's keys and values, a list's items, nested; a
 * number as the text it is written as), in order: the one walk the checks on what a row answers or
 * a request sends run over. Each text is a step of the evaluation's budget ({@link
 * EvaluationBudget#step}): a number of thousands of digits (a millisecond to make into text) or a
 * long text checks the deadline before it is handed on, a run of cheap ones every 1,024th; one
 * row's value may hold as many as the memory budget allows.
 */
final class Texts {
  private Texts() {}

  /** Hears one text; false stops the walk. */
  interface Visitor {
    boolean text(String text);
  }

  /** Hands each text in {@code value} to {@code visitor}; false when the visitor stopped it. */
  static boolean each(Object value, Visitor visitor) {
    return each(value, visitor, EvaluationBudget.pace());
  }

  private static boolean each(Object value, Visitor visitor, WritePace steps) {
    steps.before(value);
    if (value instanceof String text) {
      return visitor.text(text);
    }
    if (value instanceof Number number) {
      // Written as text in the answer: an upstream's bare number may be a secret echoed.
      return visitor.text(Numbers.written(number));
    }
    if (value instanceof Map<?, ?> map) {
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        steps.before(entry.getKey());
        if (!visitor.text(String.valueOf(entry.getKey()))
            || !each(entry.getValue(), visitor, steps)) {
          return false;
        }
      }
    } else if (value instanceof Iterable<?> items) {
      for (Object item : items) {
        if (!each(item, visitor, steps)) {
          return false;
        }
      }
    }
    return true;
  }

  /** The first problem {@code check} finds in a text of {@code value}, or null. */
  static String problem(Object value, java.util.function.Function<String, String> check) {
    String[] found = {null};
    each(
        value,
        text -> {
          found[0] = check.apply(text);
          return found[0] == null;
        });
    return found[0];
  }
}
