package io.github.appsetmapper.config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * A strict view of one YAML mapping node: typed reads that record problems with file:line:column
 * instead of throwing, duplicate and unknown keys refused. Merge keys ({@code <<: *anchor}) are
 * flattened, explicit keys winning, as YAML 1.1 specifies.
 */
final class YamlMap {
  private final String file;
  private final String path;
  private final Node node;
  private final Problems problems;
  private final Map<String, Node> entries = new LinkedHashMap<>();
  private final Map<String, Node> keyNodes = new LinkedHashMap<>();

  YamlMap(String file, String path, MappingNode node, Problems problems) {
    this.file = file;
    this.path = path;
    this.node = node;
    this.problems = problems;
    List<MappingNode> merged = new ArrayList<>();
    for (NodeTuple tuple : node.getValue()) {
      Node keyNode = tuple.getKeyNode();
      if (keyNode.getTag().equals(Tag.MERGE)) {
        collectMerged(
            tuple.getValueNode(),
            merged,
            java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>()));
        continue;
      }
      if (!(keyNode instanceof ScalarNode scalar)) {
        problems.add(pos(keyNode, path), "keys must be plain strings");
        continue;
      }
      String key = scalar.getValue();
      if (entries.containsKey(key)) {
        problems.add(
            pos(keyNode, join(key)),
            "duplicate key '"
                + key
                + "' (first at line "
                + (keyNodes.get(key).getStartMark().getLine() + 1)
                + ")");
        continue;
      }
      entries.put(key, tuple.getValueNode());
      keyNodes.put(key, keyNode);
    }
    for (MappingNode mergedNode : merged) {
      for (NodeTuple tuple : mergedNode.getValue()) {
        if (tuple.getKeyNode() instanceof ScalarNode scalar
            && !entries.containsKey(scalar.getValue())) {
          entries.put(scalar.getValue(), tuple.getValueNode());
          keyNodes.put(scalar.getValue(), tuple.getKeyNode());
        }
      }
    }
  }

  /** Each node once: an alias can list a sequence in itself ({@code <<: &m [*m]}). */
  private void collectMerged(Node value, List<MappingNode> into, Set<Node> seen) {
    if (!seen.add(value)) {
      return;
    }
    if (value instanceof MappingNode mapping) {
      into.add(mapping);
    } else if (value instanceof SequenceNode sequence) {
      for (Node element : sequence.getValue()) {
        collectMerged(element, into, seen);
      }
    } else {
      problems.add(pos(value, path), "'<<' merges only mappings");
    }
  }

  static Pos pos(String file, Node node, String path) {
    Mark mark = node.getStartMark();
    return new Pos(file, mark.getLine() + 1, mark.getColumn() + 1, path);
  }

  private Pos pos(Node n, String p) {
    return pos(file, n, p);
  }

  String file() {
    return file;
  }

  String path() {
    return path;
  }

  Problems problems() {
    return problems;
  }

  Pos pos() {
    return pos(node, path);
  }

  String join(String key) {
    return path.isEmpty() ? key : path + "." + key;
  }

  Pos pos(String key) {
    Node value = entries.get(key);
    return value == null ? pos() : pos(value, join(key));
  }

  Pos keyPos(String key) {
    return pos(keyNodes.get(key), join(key));
  }

  boolean has(String key) {
    return entries.containsKey(key);
  }

  Node raw(String key) {
    return entries.get(key);
  }

  Set<String> keys() {
    return entries.keySet();
  }

  void error(String key, String message) {
    problems.add(pos(key), message);
  }

  /** Refuses every key not in {@code allowed}, with a close-match suggestion. */
  void allowOnly(Collection<String> allowed) {
    for (String key : entries.keySet()) {
      if (!allowed.contains(key)) {
        problems.add(
            keyPos(key),
            "unknown key '" + key + "'" + Suggestions.hint(key, new TreeSet<>(allowed)));
      }
    }
  }

  String string(String key) {
    Node value = entries.get(key);
    if (value == null) {
      return null;
    }
    if (value instanceof ScalarNode scalar) {
      return scalar.getValue();
    }
    error(key, "must be a string");
    return null;
  }

  String requiredString(String key) {
    if (!has(key)) {
      problems.add(pos(), "missing required key '" + key + "'");
      return null;
    }
    return string(key);
  }

  /**
   * An expression or template field. An empty plain scalar is almost always a {@code #...} value
   * that YAML read as a comment, so the error says so.
   */
  Expr expr(String key) {
    Node value = entries.get(key);
    if (value == null) {
      return null;
    }
    if (!(value instanceof ScalarNode scalar)) {
      error(key, "must be a string expression");
      return null;
    }
    if (scalar.getValue().isBlank()) {
      error(
          key,
          "empty expression; a value starting with '#' must be quoted, or YAML reads it as a"
              + " comment");
      return null;
    }
    return new Expr(scalar.getValue(), pos(key));
  }

  boolean bool(String key, boolean fallback) {
    String text = string(key);
    if (text == null) {
      return fallback;
    }
    if (text.equals("true") || text.equals("false")) {
      return Boolean.parseBoolean(text);
    }
    error(key, "must be true or false, not '" + text + "'");
    return fallback;
  }

  Integer integer(String key, Integer fallback, int min) {
    String text = string(key);
    if (text == null) {
      return fallback;
    }
    try {
      int parsed = Integer.parseInt(text.trim());
      if (parsed < min) {
        error(key, "must be at least " + min + ", not " + parsed);
        return fallback;
      }
      return parsed;
    } catch (NumberFormatException e) {
      error(key, "must be a whole number, not '" + text + "'");
      return fallback;
    }
  }

  Duration duration(String key, Duration fallback) {
    String text = string(key);
    if (text == null) {
      return fallback;
    }
    try {
      return Durations.parse(text);
    } catch (IllegalArgumentException e) {
      error(key, e.getMessage());
      return fallback;
    }
  }

  <E extends Enum<E>> E choice(String key, Class<E> type, E fallback) {
    String text = string(key);
    if (text == null) {
      return fallback;
    }
    List<String> names = new ArrayList<>();
    for (E constant : type.getEnumConstants()) {
      String name = constant.toString();
      names.add(name);
      if (name.equals(text)) {
        return constant;
      }
    }
    error(key, "must be one of " + String.join(", ", names) + ", not '" + text + "'");
    return fallback;
  }

  /** A nested mapping, or null (with a problem) when the value is something else. */
  YamlMap map(String key) {
    Node value = entries.get(key);
    if (value == null) {
      return null;
    }
    if (value instanceof MappingNode mapping) {
      return new YamlMap(file, join(key), mapping, problems);
    }
    if (value instanceof ScalarNode scalar && scalar.getTag().equals(Tag.NULL)) {
      return new YamlMap(file, join(key), emptyMapping(value), problems);
    }
    error(key, "must be a mapping");
    return null;
  }

  private static MappingNode emptyMapping(Node at) {
    return new MappingNode(
        Tag.MAP,
        false,
        List.of(),
        at.getStartMark(),
        at.getEndMark(),
        org.yaml.snakeyaml.DumperOptions.FlowStyle.BLOCK);
  }

  List<String> stringList(String key) {
    Node value = entries.get(key);
    if (value == null) {
      return List.of();
    }
    if (!(value instanceof SequenceNode sequence)) {
      error(key, "must be a list of strings");
      return List.of();
    }
    List<String> out = new ArrayList<>();
    for (Node element : sequence.getValue()) {
      if (element instanceof ScalarNode scalar) {
        out.add(scalar.getValue());
      } else {
        problems.add(pos(element, join(key)), "must be a list of strings");
      }
    }
    return List.copyOf(out);
  }

  /** A map of string values whose values are templates, e.g. headers or query. */
  Map<String, Expr> exprMap(String key) {
    YamlMap nested = map(key);
    if (nested == null) {
      return Map.of();
    }
    Map<String, Expr> out = new LinkedHashMap<>();
    for (String name : nested.keys()) {
      Node value = nested.raw(name);
      if (value instanceof ScalarNode scalar) {
        out.put(name, new Expr(scalar.getValue(), nested.pos(name)));
      } else {
        nested.error(name, "must be a string");
      }
    }
    return out;
  }

  /** A plain data value (body, default): scalars typed by YAML's core schema. */
  Object data(String key) {
    Node value = entries.get(key);
    return value == null ? null : YamlData.toData(file, value, join(key), problems);
  }
}
