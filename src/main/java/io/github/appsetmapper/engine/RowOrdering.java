package io.github.appsetmapper.engine;

import io.github.appsetmapper.compile.CompiledExpression;
import io.github.appsetmapper.compile.CompiledMapping;
import io.github.appsetmapper.config.MappingSpec.SortOrder;
import io.github.appsetmapper.expr.Equality;
import io.github.appsetmapper.expr.EvaluationBudget;
import io.github.appsetmapper.expr.Scope;
import io.github.appsetmapper.secret.Redactor;
import io.github.appsetmapper.upstream.call.RequestFailure;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * After the filter: sortBy/sortOrder, distinctBy (first per key kept) and limit. A key step never
 * loses a row silently: a row without a {@code distinctBy} key, or {@code sortBy} keys of different
 * kinds (which have no order), fail the answer naming the step and the rows. Every key kept (each
 * row's sort key until the sort is done, each distinct key in the set of those seen) counts against
 * the memory budget as a let's value does ({@link CallAccounting#holdBuilt}): uncounted, 600 sort
 * keys of a million characters each ended a 256 MiB JVM that refused the same value as a let.
 */
final class RowOrdering {
  private RowOrdering() {}

  static List<Row> apply(Execution run, List<Row> rows, Scope base) throws RequestFailure {
    CompiledMapping mapping = run.mapping();
    Trace trace = run.trace();
    Redactor redactor = run.redactor();
    List<Row> kept = new ArrayList<>(rows);
    if (mapping.sortBy() != null) {
      kept = sorted(run, mapping.sortBy(), mapping.sortOrder(), kept, base);
      trace.stage("sortBy", kept.size());
    }
    if (mapping.distinctBy() != null) {
      Set<Object> seen = new HashSet<>();
      List<Row> distinct = new ArrayList<>();
      for (Row row : kept) {
        Object made = key(mapping.distinctBy(), row, base);
        // Read right after the evaluation, before anything else evaluates on this thread.
        long bytes = BuiltValues.bytes(made);
        Object key = normalize(made);
        if (key == null) {
          // Every row without a key would be one key: all but the first would vanish from a 2xx.
          throw RequestFailure.expression(
              "distinctBy '"
                  + mapping.distinctBy().source().text()
                  + "' gave no key (null) on row "
                  + row.named()
                  + ": rows without a key are never merged; filter them out first if they should"
                  + " go",
              null);
        }
        // A list or map key by value too: [1] and [1.0] are one key, as == says.
        if (seen.add(Equality.key(key))) {
          hold(run, "distinctBy", mapping.distinctBy(), row, bytes);
          distinct.add(row);
        } else {
          trace.dropped(
              "distinctBy",
              row.index(),
              label(mapping, row, base, trace, redactor),
              "an earlier row has the key " + key);
        }
      }
      kept = distinct;
      trace.stage("distinctBy", kept.size());
    }
    if (mapping.limit() != null && kept.size() > mapping.limit()) {
      for (Row row : kept.subList(mapping.limit(), kept.size())) {
        trace.dropped(
            "limit",
            row.index(),
            label(mapping, row, base, trace, redactor),
            "beyond limit " + mapping.limit());
      }
      kept = new ArrayList<>(kept.subList(0, mapping.limit()));
      trace.stage("limit", kept.size());
    }
    return kept;
  }

  private static String label(
      CompiledMapping mapping, Row row, Scope base, Trace trace, Redactor redactor) {
    return RowLabels.ofDropped(trace, mapping, row, base, redactor);
  }

  private record Keyed(Row row, Object key) {}

  /** Counts a key kept ({@code bytes} as {@link BuiltValues} estimated it) against the budget. */
  private static void hold(
      Execution run, String step, CompiledExpression expression, Row row, long bytes)
      throws RequestFailure {
    if (bytes > 0) {
      run.books()
          .holdBytes(step + " '" + expression.source().text() + "' on row " + row.named(), bytes);
    }
  }

  private static List<Row> sorted(
      Execution run, CompiledExpression sortBy, SortOrder order, List<Row> rows, Scope base)
      throws RequestFailure {
    List<Keyed> keyed = new ArrayList<>(rows.size());
    Keyed first = null;
    for (Row row : rows) {
      Object made = key(sortBy, row, base);
      hold(run, "sortBy", sortBy, row, BuiltValues.bytes(made));
      Keyed next = new Keyed(row, normalize(made));
      String kind = kind(next.key());
      if (kind == null) {
        throw RequestFailure.expression(
            "sortBy '"
                + sortBy.source().text()
                + "' gave "
                + (next.key() instanceof Map
                    ? "an object"
                    : next.key() instanceof List
                        ? "a list"
                        : "a " + next.key().getClass().getSimpleName())
                + " on row "
                + row.named()
                + "; a sort key is a number, a string or a boolean",
            null);
      }
      if (next.key() != null) {
        if (first == null) {
          first = next;
        } else if (!kind.equals(kind(first.key()))) {
          // Mixed kinds have no order: compared as text one pair at a time they make cycles.
          throw RequestFailure.expression(
              "sortBy '"
                  + sortBy.source().text()
                  + "' gave "
                  + kind(first.key())
                  + " on row "
                  + first.row().named()
                  + " and "
                  + kind
                  + " on row "
                  + row.named()
                  + "; the keys must be of one kind to be ordered",
              null);
        }
      }
      keyed.add(next);
    }
    Comparator<Object> byKey = RowOrdering::compareKeys;
    Comparator<Object> directed = order == SortOrder.DESC ? byKey.reversed() : byKey;
    // Nulls last in either direction: rows without a key are the least interesting.
    keyed.sort(Comparator.comparing(Keyed::key, Comparator.nullsLast(directed)));
    List<Row> out = new ArrayList<>(keyed.size());
    keyed.forEach(k -> out.add(k.row()));
    return out;
  }

  private static Object key(CompiledExpression expression, Row row, Scope base)
      throws RequestFailure {
    return Expressions.onRow(expression, Scopes.row(base, row), row);
  }

  /** "a number", "a string", "a boolean", "none" for null; null for a key that has no order. */
  private static String kind(Object key) {
    if (key == null) {
      return "none";
    }
    if (key instanceof Number) {
      return "a number";
    }
    if (key instanceof String) {
      return "a string";
    }
    if (key instanceof Boolean) {
      return "a boolean";
    }
    return null;
  }

  /** Numbers compare by value whatever their Java type; 1 and 1.0 are one key. */
  private static Object normalize(Object key) {
    EvaluationBudget.step(key, null); // a big integer's key is its whole text parsed again
    if (key instanceof Character c) {
      return c.toString();
    }
    if ((key instanceof Double || key instanceof Float)
        && !Double.isFinite(((Number) key).doubleValue())) {
      // NaN and infinity have no BigDecimal: kept as doubles (against a number, compared as text).
      return ((Number) key).doubleValue();
    }
    if (key instanceof Float f) {
      // As == sees it: the double it widens to (0.1f is not 0.1), as Equality keys it.
      return BigDecimal.valueOf(f.doubleValue()).stripTrailingZeros();
    }
    if (key instanceof Number n && !(key instanceof BigDecimal)) {
      return new BigDecimal(n.toString()).stripTrailingZeros();
    }
    if (key instanceof BigDecimal d) {
      return d.stripTrailingZeros();
    }
    return key;
  }

  /**
   * The order of two keys of one kind. The sort runs outside any expression, on keys they made: the
   * deadline is checked here as an operator checks it (two decimals of 10,000 digits and different
   * scales take about a tenth of a millisecond to compare, and a sort makes n log n comparisons).
   */
  @SuppressWarnings({"unchecked", "rawtypes"})
  static int compareKeys(Object a, Object b) {
    EvaluationBudget.step(a, b);
    if (a instanceof Double || b instanceof Double) {
      // NaN or an infinity beside decimals: one total order, NaN last.
      return Double.compare(((Number) a).doubleValue(), ((Number) b).doubleValue());
    }
    return ((Comparable) a).compareTo(b);
  }
}
