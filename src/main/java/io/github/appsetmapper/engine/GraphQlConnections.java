package io.github.appsetmapper.engine;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * GraphQL's {@code pageInfo.hasNextPage}. Where the listing has an items path, read in the
 * connections that path walks through ({@link #walkedThrough}), whatever rows they hold. Else (an
 * enrich's {@code value}, a definite {@code select}) read from the connections the rows are in: a
 * connection is an object with a {@code pageInfo} object, and it holds a row when the way from the
 * top of the body to the row goes through one of its lists ({@code nodes}, or {@code edges} whose
 * {@code node} the row is). Every connection on that way is read: the one whose nodes are the rows,
 * an outer one ({@code true}: more of its nodes, so more rows under them), one between the elements
 * the path starts from and the rows it reads under them ({@code $.orgs.nodes[*].repos.nodes[*]}:
 * each org's repos). A connection under a row (each pull request's labels) is about that row, never
 * read. Rows are found by identity, not by equality: a sibling connection holding equal nodes is
 * another connection. A page with no elements reads the connections reached from the top through
 * objects alone (at most {@link #DEPTH} deep) whose lists are all empty: a page that holds none of
 * the listing and says more follow.
 */
final class GraphQlConnections {
  private GraphQlConnections() {}

  /** How deep a connection is looked for on a page without elements (objects only). */
  static final int DEPTH = 6;

  /** How deep the body is walked to find the elements. */
  private static final int WALK = 64;

  /**
   * A connection that says {@code hasNextPage: true}: its path as messages write it, and its keys
   * from the top, null when a list is crossed to reach it (no mode reads such a connection).
   */
  record Found(String path, List<String> keys) {}

  /**
   * The first connection of {@code body} on the way to the listing's {@code rows} (or its {@code
   * elements}, the objects its path starts from) that says {@code hasNextPage: true}, skipping one
   * whose {@code endCursor} is at {@code read} (the mode reads it itself), or null. Only objects
   * and lists are found by identity; a listing of scalars alone (numbers, strings) is found by
   * them, where an equal small number or a flag in another connection's list may stand for one.
   */
  static Found nextPage(Map<?, ?> body, List<Object> elements, List<Object> rows, String read) {
    List<Found> found = new ArrayList<>();
    Set<Object> stops = identities();
    Set<Object> starts = identities();
    for (Object row : rows == null ? List.of() : rows) {
      if (row instanceof Map<?, ?> || row instanceof List<?>) {
        stops.add(row);
      }
    }
    for (Object element : elements == null ? List.of() : elements) {
      if (element instanceof Map<?, ?> || element instanceof List<?>) {
        starts.add(element);
      }
    }
    if (stops.isEmpty()) {
      // Rows that are scalars (nodes[*].id), or none: the elements they are read from.
      stops.addAll(starts);
    }
    if (stops.isEmpty()) {
      if (elements == null || elements.isEmpty()) {
        empty(body, new ArrayList<>(), found, read);
        return found.isEmpty() ? null : found.get(0);
      }
      for (Object element : elements) {
        if (element != null) {
          stops.add(element);
        }
      }
    }
    // Rows under the elements ($.orgs.nodes[*].repos.nodes[*]): every connection on the way to an
    // element, and on from it to a row, is read.
    walk(
        body,
        new ArrayList<>(),
        stops,
        starts.containsAll(stops) ? identities() : starts,
        found,
        read);
    return found.isEmpty() ? null : found.get(0);
  }

  /**
   * The first of {@code connections} (where those the listing's path walks through are, as Jayway
   * writes definite paths) that says {@code hasNextPage: true}, skipping one whose {@code
   * endCursor} is at {@code read}, or null. Read whatever its nodes are: empty, or all filtered
   * out, it still says more of them follow. A sibling connection the path does not walk through (a
   * count-only {@code issues} beside {@code repositories}) is not read.
   */
  static Found walkedThrough(Map<?, ?> body, List<String> connections, String read) {
    for (String at : connections) {
      List<Step> way = new ArrayList<>();
      Object node = body;
      java.util.regex.Matcher step = STEP.matcher(at);
      int end = 1;
      while (node != null && step.find() && step.start() == end) {
        end = step.end();
        if (step.group(1) != null && node instanceof Map<?, ?> map) {
          String key = step.group(1).replace("\\'", "'");
          way.add(new Step(map, key));
          node = map.get(key);
        } else if (step.group(2) != null && node instanceof List<?> list) {
          int index = Integer.parseInt(step.group(2));
          way.add(new Step(list, index));
          node = index < list.size() ? list.get(index) : null;
        } else {
          node = null;
        }
      }
      if (end == at.length() && node instanceof Map<?, ?> connection && says(connection)) {
        Found one = found(way);
        if (!readBy(one, read)) {
          return one;
        }
      }
    }
    return null;
  }

  /** One step of a definite path as Jayway writes it: {@code ['key']} or {@code [3]}. */
  private static final java.util.regex.Pattern STEP =
      java.util.regex.Pattern.compile("\\['((?:[^'\\\\]|\\\\.)*)'\\]|\\[(\\d+)\\]");

  private static Set<Object> identities() {
    return java.util.Collections.newSetFromMap(new IdentityHashMap<>());
  }

  /** One step from the top: the object or list it leaves, and the key or index it takes. */
  private record Step(Object from, Object key) {}

  /**
   * Reads the connections on the way to each of {@code stops} (not under them) and each of {@code
   * passes} (walked on under them).
   */
  private static void walk(
      Object node,
      List<Step> way,
      Set<Object> stops,
      Set<Object> passes,
      List<Found> found,
      String read) {
    if (!found.isEmpty() || way.size() > WALK) {
      return;
    }
    if (!way.isEmpty() && stops.contains(node)) {
      connections(way, found, read);
      return; // what is under a row is about the row (each pull request's labels)
    }
    if (!way.isEmpty() && passes.contains(node)) {
      connections(way, found, read);
    }
    if (node instanceof Map<?, ?> map) {
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        way.add(new Step(map, entry.getKey()));
        walk(entry.getValue(), way, stops, passes, found, read);
        way.remove(way.size() - 1);
      }
    } else if (node instanceof List<?> list) {
      for (int i = 0; i < list.size(); i++) {
        way.add(new Step(list, i));
        walk(list.get(i), way, stops, passes, found, read);
        way.remove(way.size() - 1);
      }
    }
  }

  /** The connections on {@code way} to an element, the innermost first. */
  private static void connections(List<Step> way, List<Found> found, String read) {
    for (int at = way.size() - 1; at >= 0; at--) {
      Step step = way.get(at);
      if (step.from() instanceof Map<?, ?> map
          && map.get(step.key()) instanceof List<?>
          && says(map)) {
        Found one = found(way.subList(0, at));
        if (!readBy(one, read)) {
          found.add(one);
          return;
        }
      }
    }
  }

  private static void empty(Map<?, ?> node, List<Step> way, List<Found> found, String read) {
    boolean lists = false;
    boolean empty = true;
    for (Object value : node.values()) {
      if (value instanceof List<?> list) {
        lists = true;
        empty &= list.isEmpty();
      }
    }
    if (lists && empty && says(node)) {
      Found one = found(way);
      if (!readBy(one, read)) {
        found.add(one);
        return;
      }
    }
    if (way.size() >= DEPTH) {
      return;
    }
    for (Map.Entry<?, ?> entry : node.entrySet()) {
      if (found.isEmpty() && entry.getValue() instanceof Map<?, ?> child) {
        way.add(new Step(node, entry.getKey()));
        empty(child, way, found, read);
        way.remove(way.size() - 1);
      }
    }
  }

  private static boolean says(Map<?, ?> connection) {
    return connection.get("pageInfo") instanceof Map<?, ?> info
        && NextPageSignals.isTrue(info.get("hasNextPage"));
  }

  private static Found found(List<Step> way) {
    StringBuilder path = new StringBuilder("$");
    List<String> keys = new ArrayList<>();
    for (Step step : way) {
      if (step.key() instanceof Integer index) {
        path.append('[').append(index).append(']');
        keys = null;
      } else {
        String key = String.valueOf(step.key());
        path.append(key.matches("[A-Za-z_][A-Za-z0-9_]*") ? "." + key : "['" + key + "']");
        if (keys != null) {
          keys.add(key);
        }
      }
    }
    return new Found(path.toString(), keys);
  }

  private static boolean readBy(Found found, String read) {
    if (read == null || found.keys() == null) {
      return false;
    }
    List<String> all = new ArrayList<>(found.keys());
    all.add("pageInfo");
    all.add("endCursor");
    return read.equals(NextPageSignals.jsonPath(all));
  }
}
