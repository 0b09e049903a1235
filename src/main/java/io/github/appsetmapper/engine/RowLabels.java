package io.github.appsetmapper.engine;

import io.github.appsetmapper.compile.CompiledExpression;
import io.github.appsetmapper.compile.CompiledMapping;
import io.github.appsetmapper.compile.RowSteps;
import io.github.appsetmapper.expr.EvaluationBudget;
import io.github.appsetmapper.expr.ExpressionLimitException;
import io.github.appsetmapper.expr.Scope;
import io.github.appsetmapper.logging.LogText;
import io.github.appsetmapper.secret.Redactor;
import java.util.List;
import java.util.Map;

/**
 * What a person knows a row by, for explain's dropped rows: the mapping's {@code label}, else the
 * item's own name or id (the same at every stage), else the mapping's first parameter when it can
 * be computed on the row, else the item itself when it is a plain value. Computed only for explain,
 * never for an answer.
 *
 * <p>Each label is work on the row's data (an expression, and its text redacted whole before it is
 * cut), so each checks the deadline first, and a label that the deadline stops stops the answer:
 * 60,000 dropped rows took 10 s of labels with nothing checking, each failed evaluation past the
 * deadline taken as "no label" and the next one tried.
 */
final class RowLabels {
  private static final List<String> NAMING_FIELDS =
      List.of("name", "id", "number", "key", "slug", "title", "tag");
  private static final int MAX = io.github.appsetmapper.text.Printable.LABEL_CHARS;

  private RowLabels() {}

  /**
   * Each row named by the mapping's {@code label}, computed once before enrich. A label is data:
   * redacted, its control characters escaped, then shortened (redacted before it is cut, so that no
   * cut leaves a secret's first characters); one that fails or is no plain value names nothing (it
   * never fails an answer).
   */
  static List<Row> labelled(
      CompiledMapping mapping, List<Row> rows, Scope base, Redactor redactor) {
    CompiledExpression label = mapping.rowSteps().label();
    if (label == null) {
      return rows;
    }
    List<Row> out = new java.util.ArrayList<>(rows.size());
    for (Row row : rows) {
      EvaluationBudget.check();
      Object value = quietly(label, Scopes.row(base, row));
      out.add(
          isPlain(value) || value instanceof Boolean
              ? row.labelled(shortened(value, redactor))
              : row);
    }
    return out;
  }

  /** Whether the label reads explode's element or a let: then it is computed again after them. */
  static boolean readsRowSteps(CompiledMapping mapping) {
    RowSteps steps = mapping.rowSteps();
    if (steps.label() == null) {
      return false;
    }
    var reads = steps.label().inspection();
    return (steps.explode() != null
            && steps.explode().as() != null
            && reads.reads(steps.explode().as()))
        || steps.lets().stream().anyMatch(let -> reads.reads(let.name()));
  }

  /**
   * The label a stage tells the trace for a row it drops ({@link Trace#dropped}): null unless the
   * trace is {@link Trace#explaining}. The deadline is checked first for every dropped row, whether
   * labelled or not: its reason is made from its data too ({@code distinctBy}'s key), and a stage
   * may drop hundreds of thousands.
   */
  static String ofDropped(
      Trace trace, CompiledMapping mapping, Row row, Scope base, Redactor redactor) {
    EvaluationBudget.check();
    return trace.explaining() ? of(mapping, row, base, redactor) : null;
  }

  static String of(CompiledMapping mapping, Row row, Scope base, Redactor redactor) {
    EvaluationBudget.check();
    String name = row.label() != null ? row.label() : guessed(mapping, row, base, redactor);
    if (row.element().isEmpty()) {
      return name;
    }
    return name == null ? "element " + row.element() : name + " " + row.element();
  }

  private static String guessed(CompiledMapping mapping, Row row, Scope base, Redactor redactor) {
    if (mapping.list() == null) {
      return null; // the one row of a mapping without a list: nothing to tell it from
    }
    if (row.item() instanceof Map<?, ?> item) {
      for (String field : NAMING_FIELDS) {
        Object value = item.get(field);
        if (isPlain(value)) {
          return field + " " + shortened(value, redactor);
        }
      }
    }
    var first = mapping.parameters().entrySet().stream().findFirst();
    if (first.isPresent()) {
      Object value = quietly(first.get().getValue(), Scopes.row(base, row));
      if (isPlain(value)) {
        return first.get().getKey() + " " + shortened(value, redactor);
      }
    }
    return isPlain(row.item()) ? shortened(row.item(), redactor) : null;
  }

  private static Object quietly(CompiledExpression expression, Scope scope) {
    try {
      return expression.evaluate(scope);
    } catch (ExpressionLimitException e) {
      if (e.deadline()) {
        throw e; // the answer's deadline, not this label's failure
      }
      return null;
    } catch (RuntimeException e) {
      // A parameter that reads an enrich result not made yet, a label that failed: no label.
      return null;
    }
  }

  private static boolean isPlain(Object value) {
    return value instanceof String text ? !text.isBlank() : value instanceof Number;
  }

  /** Redacted, escaped, then cut: the order that never leaves a secret's prefix behind. */
  private static String shortened(Object value, Redactor redactor) {
    String raw = String.valueOf(value);
    String text = LogText.escape(redactor == null ? raw : redactor.redact(raw));
    return io.github.appsetmapper.text.Printable.cut(text, MAX);
  }
}
