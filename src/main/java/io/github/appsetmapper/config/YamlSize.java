package io.github.appsetmapper.config;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

/**
 * How large a YAML document is once its aliases are expanded, computed without expanding it: six
 * strings of 100,000 characters behind four levels of six aliases are a 600 KB file and 778 MB of
 * data, and a request body made of it ended the JVM at its first call. Each node's expanded size
 * (its characters, and one per value) is computed once, bottom up, however many aliases name it; a
 * node that contains itself counts nothing here (the depth checks report it).
 */
public final class YamlSize {
  /** The most characters a document may expand to: far above any real mapping or test file. */
  public static final long MAX_CHARS = 4L * 1024 * 1024;

  private YamlSize() {}

  /** The problem with {@code document}, or null when it expands within {@link #MAX_CHARS}. */
  public static String problem(Node document) {
    return problem(document, MAX_CHARS);
  }

  /** The problem with {@code document}, or null when it expands within {@code maxChars}. */
  public static String problem(Node document, long maxChars) {
    long size = expanded(document, maxChars);
    return size <= maxChars
        ? null
        : "expands to more than "
            + maxChars
            + " characters once its aliases are expanded (aliases of aliases?)";
  }

  /** The expanded size, capped just above {@code cap}. */
  static long expanded(Node root, long cap) {
    Map<Node, Long> sizes = new IdentityHashMap<>();
    Map<Node, Boolean> open = new IdentityHashMap<>();
    Deque<Node> todo = new ArrayDeque<>();
    todo.push(root);
    while (!todo.isEmpty()) {
      Node node = todo.peek();
      if (sizes.containsKey(node)) {
        todo.pop();
        continue;
      }
      List<Node> children = children(node);
      if (open.put(node, Boolean.TRUE) == null) {
        for (Node child : children) {
          if (!sizes.containsKey(child) && !open.containsKey(child)) {
            todo.push(child);
          }
        }
        continue;
      }
      todo.pop();
      long size = node instanceof ScalarNode scalar ? scalar.getValue().length() + 1L : 1L;
      for (Node child : children) {
        // A child still open is an ancestor: a value that contains itself.
        size = Math.min(cap + 1, size + sizes.getOrDefault(child, 0L));
      }
      sizes.put(node, size);
      open.remove(node);
    }
    return sizes.getOrDefault(root, 0L);
  }

  private static List<Node> children(Node node) {
    if (node instanceof SequenceNode sequence) {
      return sequence.getValue();
    }
    if (node instanceof MappingNode mapping) {
      List<Node> out = new java.util.ArrayList<>(2 * mapping.getValue().size());
      for (NodeTuple tuple : mapping.getValue()) {
        out.add(tuple.getKeyNode());
        out.add(tuple.getValueNode());
      }
      return out;
    }
    return List.of();
  }
}
