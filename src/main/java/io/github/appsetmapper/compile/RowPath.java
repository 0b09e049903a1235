package io.github.appsetmapper.compile;

import com.jayway.jsonpath.Configuration;
import com.jayway.jsonpath.JsonPath;
import com.jayway.jsonpath.Option;
import com.jayway.jsonpath.PathNotFoundException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A JsonPath that selects rows (a list's {@code items}, an enrich's indefinite {@code select}) and
 * the checks that make "none" mean none: every container the path walks must exist and be of the
 * kind the step needs (an object for a name, a list for {@code [*]}, a filter, a slice or an
 * index), at every depth, not only the leading definite part. So {@code $.groups[*].items[*]} with
 * one group lacking {@code items} is an error, never the other groups' rows. With {@code
 * missingIsEmpty} a missing or null container counts as empty (Go's {@code omitempty} drops empty
 * lists), while a container of the wrong kind stays an error. What a filter's condition reads may
 * be missing (the element just does not match); a deep scan ({@code ..}) finds what is there, so it
 * needs {@code missingIsEmpty}. Compiled once at load.
 */
public final class RowPath {
  /** A container the path walks is missing, null or of the wrong kind. */
  public static final class Missing extends Exception {
    private static final long serialVersionUID = 1L;

    Missing(String message) {
      super(message, null, false, false);
    }
  }

  /** One check: the nodes {@code prefix} reaches must suit {@code token}. */
  private record Check(JsonPath prefix, JsonPaths.Token token) {}

  private static final Configuration PATHS =
      JsonPaths.CONFIGURATION.addOptions(Option.AS_PATH_LIST);

  /**
   * Where a page's elements are: the list the first walk ({@code [*]}, a filter, a slice) or deep
   * scan of the path iterates, reached by {@code prefix} (null: the body itself).
   */
  private record Elements(JsonPath prefix) {}

  private final JsonPath path;
  private final boolean missingIsEmpty;
  private final List<Check> checks;
  private final Elements elements;
  private final List<JsonPath> connections;

  private RowPath(
      JsonPath path,
      boolean missingIsEmpty,
      List<Check> checks,
      Elements elements,
      List<JsonPath> connections) {
    this.path = path;
    this.missingIsEmpty = missingIsEmpty;
    this.checks = checks;
    this.elements = elements;
    this.connections = connections;
  }

  /**
   * Compiles the checks of {@code path} as written in {@code text}.
   *
   * @throws IllegalArgumentException naming why the path cannot be checked (a deep scan without
   *     missingIsEmpty)
   */
  public static RowPath compile(String text, JsonPath path, boolean missingIsEmpty) {
    String written = text.strip();
    if (!written.startsWith("$")) {
      written = "$." + written;
    }
    List<JsonPaths.Token> tokens = JsonPaths.tokens(written);
    if (tokens == null) {
      tokens = JsonPaths.tokens(path.getPath());
      written = path.getPath();
    }
    List<Check> checks = new ArrayList<>();
    Elements elements = null;
    if (tokens != null && !path.isDefinite()) {
      for (JsonPaths.Token token : tokens) {
        if (elements == null
            && (token.step() == JsonPaths.Step.WALK || token.step() == JsonPaths.Step.SCAN)) {
          String prefix = written.substring(0, token.start()).strip();
          elements = new Elements(prefix.equals("$") ? null : JsonPath.compile(prefix));
        }
        if (token.step() == JsonPaths.Step.SCAN) {
          if (!missingIsEmpty) {
            throw new IllegalArgumentException(
                "a deep scan (..) finds what is there and cannot tell a missing container from an"
                    + " empty one; set missingIsEmpty: true to use it");
          }
          break;
        }
        if (token.step() == JsonPaths.Step.FUNCTION) {
          break;
        }
        String prefix = written.substring(0, token.start()).strip();
        checks.add(new Check(prefix.equals("$") ? null : JsonPath.compile(prefix), token));
      }
    }
    return new RowPath(
        path, missingIsEmpty, List.copyOf(checks), elements, connections(written, tokens));
  }

  /**
   * GraphQL's connections the path walks through: the path up to each {@code nodes} or {@code
   * edges} step, its filters, slices and indexes read as {@code [*]} (a connection whose rows are
   * all filtered out is still walked through); none past a deep scan or a function, null when the
   * path crosses no such step.
   */
  private static List<JsonPath> connections(String written, List<JsonPaths.Token> tokens) {
    if (tokens == null) {
      return null;
    }
    List<JsonPath> found = new ArrayList<>();
    StringBuilder prefix = new StringBuilder("$");
    for (JsonPaths.Token token : tokens) {
      if (token.step() == JsonPaths.Step.SCAN || token.step() == JsonPaths.Step.FUNCTION) {
        break;
      }
      if (token.step() == JsonPaths.Step.PROPERTY
          && (token.names().equals(List.of("nodes")) || token.names().equals(List.of("edges")))
          && prefix.length() > 1) {
        found.add(JsonPath.compile(prefix.toString()));
      }
      String step = written.substring(token.start(), token.end()).strip();
      if (token.step() != JsonPaths.Step.PROPERTY) {
        step = "[*]";
      } else if (!step.startsWith(".") && !step.startsWith("[")) {
        step = "." + step; // "items[*]" is "$.items[*]"
      }
      prefix.append(step);
    }
    return found.isEmpty() ? null : List.copyOf(found);
  }

  /**
   * Where the GraphQL connections the path walks through are in {@code document}, each as Jayway
   * writes a definite path ({@code $['data']['orgs']['nodes'][0]['repos']}), in document order;
   * null when the path crosses no {@code nodes} or {@code edges} step.
   */
  public List<String> connections(Object document) {
    if (connections == null) {
      return null;
    }
    List<String> found = new ArrayList<>();
    for (JsonPath prefix : connections) {
      try {
        Object paths = prefix.read(document, PATHS);
        if (paths instanceof List<?> list) {
          for (Object one : list) {
            found.add(String.valueOf(one));
          }
        }
      } catch (PathNotFoundException | IllegalArgumentException e) {
        // Not there on this page: no connection to read.
      }
    }
    return found;
  }

  public JsonPath path() {
    return path;
  }

  public boolean missingIsEmpty() {
    return missingIsEmpty;
  }

  /**
   * The rows: every match, in document order; for a definite path, the elements of the list it
   * names, or the one value it names.
   *
   * @throws Missing when a container is missing or null (unless {@code missingIsEmpty}) or of the
   *     wrong kind, or a definite path finds nothing
   */
  public List<Object> rows(Object document) throws Missing {
    if (path.isDefinite()) {
      Object value = read(path, document);
      if (value == null) {
        throw new Missing("found nothing");
      }
      return value instanceof List<?> values ? new ArrayList<>(values) : List.of(value);
    }
    for (Check check : checks) {
      check(check, document);
    }
    Object selected;
    try {
      selected = path.read(document, JsonPaths.CONFIGURATION);
    } catch (PathNotFoundException e) {
      if (!missingIsEmpty) {
        throw new Missing("found nothing");
      }
      selected = List.of();
    }
    if (selected instanceof List<?> values) {
      return new ArrayList<>(values);
    }
    return selected == null ? List.of() : List.of(selected);
  }

  /**
   * How many elements a page holds, the one count pagination compares with {@code X-Total}, {@code
   * X-Total-Pages}'s pages and {@code size}: the elements of the list the path starts from (its
   * first {@code [*]}, filter, slice or deep scan), never the path's matches, which a path that
   * descends into each element ({@code $[*].tags[*]}) makes more or fewer. A definite path counts
   * the elements of the list it names, or one value. Call after {@link #rows}, which checks the
   * containers.
   */
  public int elements(Object document) throws Missing {
    return elementValues(document).size();
  }

  /**
   * Whether the path reads a listing: an indefinite path, or a definite one naming a list. A
   * definite path naming one value ({@code $[0]}, the newest of a listing sorted newest first)
   * reads that value, which pages after it do not change.
   */
  public boolean listing(Object document) {
    return !path.isDefinite() || read(path, document) instanceof List<?>;
  }

  /**
   * The elements {@link #elements} counts, as they are: what tells a page read twice (its elements,
   * never the path's matches, which two pages of different elements can share: {@code $[*].cluster}
   * gave {@code prod, dev} on two pages of different clusters' rows).
   */
  public List<Object> elementValues(Object document) throws Missing {
    if (path.isDefinite()) {
      Object value = read(path, document);
      if (value == null) {
        throw new Missing("found nothing");
      }
      return value instanceof List<?> values ? new ArrayList<>(values) : List.of(value);
    }
    if (elements == null) {
      // Only names ($['a','b']) or a path not understood: each match is an element.
      return rows(document);
    }
    List<Object> found = new ArrayList<>();
    for (Object node : nodes(elements.prefix(), document)) {
      if (node instanceof List<?> list) {
        found.addAll(list);
      } else if (node != null) {
        found.add(node);
      }
    }
    return found;
  }

  /**
   * The matches as they are: for a definite path its one value (a list stays one list), else every
   * match, the containers checked as for {@link #rows}.
   */
  public List<Object> matches(Object document) throws Missing {
    if (path.getPath().equals("$")) {
      // The document itself, null included: an entry whose value is null is still an entry.
      return java.util.Collections.singletonList(document);
    }
    if (path.isDefinite()) {
      Object value = read(path, document);
      if (value == null) {
        throw new Missing("found nothing");
      }
      return List.of(value);
    }
    return rows(document);
  }

  private void check(Check check, Object document) throws Missing {
    List<Object> nodes = nodes(check.prefix(), document);
    for (int i = 0; i < nodes.size(); i++) {
      String problem = problem(check.token(), nodes.get(i));
      if (problem != null) {
        String path = where(check.prefix(), document, i);
        throw new Missing(
            problem
                .replace("{path}", path)
                .replace("{at}", check.prefix() == null ? "the body" : path));
      }
    }
  }

  /**
   * What is wrong with {@code node} for {@code token}, or null: "{path}" stands for its path,
   * "{at}" for how to name it ("the body" for the root).
   */
  private String problem(JsonPaths.Token token, Object node) {
    if (node == null) {
      return missingIsEmpty ? null : "{at} is missing or null";
    }
    switch (token.step()) {
      case PROPERTY -> {
        if (!(node instanceof Map<?, ?> object)) {
          return "expected an object at {at}, got " + kind(node);
        }
        for (String name : token.names()) {
          if (!object.containsKey(name) && !missingIsEmpty) {
            return "{path}['" + name + "'] is missing or null";
          }
        }
        return null;
      }
      case INDEX -> {
        if (!(node instanceof List<?> list)) {
          return "expected a list at {at}, got " + kind(node);
        }
        int index = token.index() < 0 ? list.size() + token.index() : token.index();
        return index >= 0 && index < list.size() || missingIsEmpty
            ? null
            : "{path}[" + token.index() + "] is missing";
      }
      default -> {
        return node instanceof List ? null : "expected a list at {at}, got " + kind(node);
      }
    }
  }

  /** The nodes {@code prefix} reaches (the body for none), in document order. */
  private List<Object> nodes(JsonPath prefix, Object document) {
    if (prefix == null) {
      List<Object> root = new ArrayList<>(1);
      root.add(document);
      return root;
    }
    Object found;
    try {
      found = prefix.read(document, JsonPaths.CONFIGURATION);
    } catch (PathNotFoundException e) {
      // Reached only where a check before this one let a missing container pass.
      return List.of();
    }
    if (prefix.isDefinite()) {
      List<Object> one = new ArrayList<>(1);
      one.add(found);
      return one;
    }
    @SuppressWarnings("unchecked")
    List<Object> many = (List<Object>) found;
    return many;
  }

  /** Where the {@code i}th node of {@code prefix} is: "$['groups'][2]['items']", or "$". */
  private static String where(JsonPath prefix, Object document, int i) {
    if (prefix == null) {
      return "$";
    }
    if (prefix.isDefinite()) {
      return prefix.getPath();
    }
    try {
      List<?> paths = prefix.read(document, PATHS);
      return i < paths.size() ? String.valueOf(paths.get(i)) : prefix.getPath();
    } catch (PathNotFoundException e) {
      return prefix.getPath();
    }
  }

  private static Object read(JsonPath path, Object document) {
    try {
      return path.read(document, JsonPaths.CONFIGURATION);
    } catch (PathNotFoundException e) {
      return null;
    }
  }

  static String kind(Object value) {
    if (value instanceof Map) {
      return "an object";
    }
    if (value instanceof List) {
      return "a list";
    }
    if (value instanceof String) {
      return "a string";
    }
    if (value instanceof Boolean) {
      return "a boolean";
    }
    return value instanceof Number ? "a number" : "a " + value.getClass().getSimpleName();
  }
}
