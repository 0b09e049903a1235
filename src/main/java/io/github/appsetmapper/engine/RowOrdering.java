package io.github.appsetmapper.engine;

import io.github.appsetmapper.compile.CompiledExpression;
import io.github.appsetmapper.compile.CompiledMapping;
import io.github.appsetmapper.config.MappingSpec.SortOrder;
import io.github.appsetmapper.expr.Scope;
import io.github.appsetmapper.upstream.call.RequestFailure;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** After the filter: sortBy/sortOrder, distinctBy (first per key kept) and limit. */
final class RowOrdering {
  private RowOrdering() {}

  static List<Row> apply(CompiledMapping mapping, List<Row> rows, Scope base, Trace trace)
      throws RequestFailure {
    List<Row> kept = new ArrayList<>(rows);
    if (mapping.sortBy() != null) {
      kept = sorted(mapping.sortBy(), mapping.sortOrder(), kept, base);
      trace.stage("sortBy", kept.size());
    }
    if (mapping.distinctBy() != null) {
      Set<Object> seen = new HashSet<>();
      List<Row> distinct = new ArrayList<>();
      for (Row row : kept) {
        Object key = normalize(key(mapping.distinctBy(), row, base));
        if (seen.add(key)) {
          distinct.add(row);
        } else {
          trace.dropped(
              "distinctBy",
              row.index(),
              label(mapping, row, base, trace),
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
            label(mapping, row, base, trace),
            "beyond limit " + mapping.limit());
      }
      kept = new ArrayList<>(kept.subList(0, mapping.limit()));
      trace.stage("limit", kept.size());
    }
    return kept;
  }

  private static String label(CompiledMapping mapping, Row row, Scope base, Trace trace) {
    return trace.explaining() ? RowLabels.of(mapping, row, base) : null;
  }

  private record Keyed(Row row, Object key) {}

  private static List<Row> sorted(
      CompiledExpression sortBy, SortOrder order, List<Row> rows, Scope base)
      throws RequestFailure {
    List<Keyed> keyed = new ArrayList<>(rows.size());
    for (Row row : rows) {
      keyed.add(new Keyed(row, normalize(key(sortBy, row, base))));
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

  /** Numbers compare by value whatever their Java type; 1 and 1.0 are one key. */
  private static Object normalize(Object key) {
    if ((key instanceof Double || key instanceof Float)
        && !Double.isFinite(((Number) key).doubleValue())) {
      // NaN and infinity have no BigDecimal: kept as doubles (against a number, compared as text).
      return ((Number) key).doubleValue();
    }
    if (key instanceof Number n && !(key instanceof BigDecimal)) {
      return new BigDecimal(n.toString()).stripTrailingZeros();
    }
    if (key instanceof BigDecimal d) {
      return d.stripTrailingZeros();
    }
    return key;
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static int compareKeys(Object a, Object b) {
    if (a instanceof Comparable ca && b != null && a.getClass() == b.getClass()) {
      return ca.compareTo(b);
    }
    return String.valueOf(a).compareTo(String.valueOf(b));
  }
}
