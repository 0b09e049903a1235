package io.github.appsetmapper.diff;

import io.github.appsetmapper.expr.Equality;
import io.github.appsetmapper.expr.EvaluationBudget;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The rows one answer has that the other lacks. With a key (the parameters that identify an
 * Application), rows are matched by it and a matched row whose other parameters differ is
 * <em>changed</em>, parameter by parameter; without one, rows are whole parameter maps, compared as
 * multisets, and a changed row is one removed and one added. Each row hashed or compared checks the
 * deadline of the thread's evaluation budget first, where one is open (shadow mode compares within
 * the candidate's deadline; the {@code diff} command has none).
 */
public record RowDiff(
    List<String> key,
    int oldRows,
    int newRows,
    List<Map<String, Object>> added,
    List<Map<String, Object>> removed,
    List<ChangedRow> changed) {

  /** A row matched by its key whose parameters differ. */
  public record ChangedRow(Map<String, Object> key, List<ParameterChange> parameters) {}

  /**
   * One parameter of a changed row; {@code before}/{@code after} are absent ({@code hadBefore}
   * false, {@code hasAfter} false) when the parameter was added or removed.
   */
  public record ParameterChange(
      String name, Object before, Object after, boolean hadBefore, boolean hasAfter) {}

  public boolean keyed() {
    return !key.isEmpty();
  }

  public boolean same() {
    return added.isEmpty() && removed.isEmpty() && changed.isEmpty();
  }

  /**
   * Compares the rows of {@code before} and {@code after}, matched by {@code key} (empty: none).
   */
  public static RowDiff of(
      List<String> key, List<Map<String, Object>> before, List<Map<String, Object>> after) {
    return key.isEmpty() ? unkeyed(before, after) : keyed(key, before, after);
  }

  private static RowDiff keyed(
      List<String> key, List<Map<String, Object>> before, List<Map<String, Object>> after) {
    // Rows of one key pair in order, so that duplicates of a key are matched one to one.
    Map<List<Object>, Deque<Map<String, Object>>> waiting = new LinkedHashMap<>();
    for (Map<String, Object> row : after) {
      EvaluationBudget.check();
      waiting.computeIfAbsent(keyOf(key, row), k -> new ArrayDeque<>()).add(row);
    }
    List<Map<String, Object>> removed = new ArrayList<>();
    List<ChangedRow> changed = new ArrayList<>();
    for (Map<String, Object> row : before) {
      EvaluationBudget.check();
      Deque<Map<String, Object>> same = waiting.get(keyOf(key, row));
      Map<String, Object> match = same == null ? null : same.poll();
      if (match == null) {
        removed.add(row);
      } else if (!Equality.same(row, match)) {
        changed.add(new ChangedRow(keyMap(key, row), parameters(row, match)));
      }
    }
    // What no old row took is added, in the new answer's order.
    Set<Map<String, Object>> left = Collections.newSetFromMap(new IdentityHashMap<>());
    waiting.values().forEach(left::addAll);
    List<Map<String, Object>> added = after.stream().filter(left::contains).toList();
    return new RowDiff(
        List.copyOf(key),
        before.size(),
        after.size(),
        added,
        List.copyOf(removed),
        List.copyOf(changed));
  }

  private static RowDiff unkeyed(
      List<Map<String, Object>> before, List<Map<String, Object>> after) {
    // Rows compared as Equality says: numbers by value.
    Map<Object, Integer> unmatched = new HashMap<>();
    for (Map<String, Object> row : after) {
      EvaluationBudget.check();
      unmatched.merge(Equality.key(row), 1, Integer::sum);
    }
    List<Map<String, Object>> removed = new ArrayList<>();
    for (Map<String, Object> row : before) {
      EvaluationBudget.check();
      Object same = Equality.key(row);
      Integer count = unmatched.get(same);
      if (count == null) {
        removed.add(row);
      } else if (count == 1) {
        unmatched.remove(same);
      } else {
        unmatched.put(same, count - 1);
      }
    }
    List<Map<String, Object>> added = new ArrayList<>();
    for (Map<String, Object> row : after) {
      EvaluationBudget.check();
      Object same = Equality.key(row);
      Integer count = unmatched.get(same);
      if (count != null) {
        added.add(row);
        if (count == 1) {
          unmatched.remove(same);
        } else {
          unmatched.put(same, count - 1);
        }
      }
    }
    return new RowDiff(
        List.of(),
        before.size(),
        after.size(),
        List.copyOf(added),
        List.copyOf(removed),
        List.of());
  }

  private static List<Object> keyOf(List<String> key, Map<String, Object> row) {
    List<Object> values = new ArrayList<>(key.size());
    for (String name : key) {
      values.add(Equality.key(row.get(name)));
    }
    return values;
  }

  private static Map<String, Object> keyMap(List<String> key, Map<String, Object> row) {
    Map<String, Object> out = new LinkedHashMap<>();
    key.forEach(name -> out.put(name, row.get(name)));
    return out;
  }

  private static List<ParameterChange> parameters(
      Map<String, Object> before, Map<String, Object> after) {
    Set<String> names = new LinkedHashSet<>(before.keySet());
    names.addAll(after.keySet());
    List<ParameterChange> out = new ArrayList<>();
    for (String name : names) {
      boolean had = before.containsKey(name);
      boolean has = after.containsKey(name);
      Object was = before.get(name);
      Object is = after.get(name);
      if (had != has || !Equality.same(was, is)) {
        out.add(new ParameterChange(name, was, is, had, has));
      }
    }
    return List.copyOf(out);
  }
}
