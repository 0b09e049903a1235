package io.github.appsetmapper.config;

import io.github.appsetmapper.json.Numbers;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

/**
 * Turns a YAML node into plain immutable data (String, Long/BigInteger, BigDecimal, Boolean, null,
 * List, Map). String leaves become {@link Expr} when {@code templates} is set, so a request body
 * can hold templates with their positions.
 */
final class YamlData {
  /** Aliases can make a small file expand enormously ("billion laughs"); data stops here. */
  static final int MAX_VALUES = 100_000;

  /**
   * Aliases can also nest a value in itself ({@code body: &r {a: *r}}): every walk over YAML nodes
   * stops this deep, with a problem, instead of overflowing the stack.
   */
  static final int MAX_DEPTH = 64;

  private final String file;
  private final Problems problems;
  private final boolean templates;
  private int values;
  private boolean tooDeep;

  private YamlData(String file, Problems problems, boolean templates) {
    this.file = file;
    this.problems = problems;
    this.templates = templates;
  }

  static Object toData(String file, Node node, String path, Problems problems) {
    return new YamlData(file, problems, false).convert(node, path, 0);
  }

  static Object toTemplateData(String file, Node node, String path, Problems problems) {
    return new YamlData(file, problems, true).convert(node, path, 0);
  }

  private Object convert(Node node, String path, int depth) {
    if (++values > MAX_VALUES) {
      if (values == MAX_VALUES + 1) {
        problems.add(
            YamlMap.pos(file, node, path),
            "expands to more than " + MAX_VALUES + " values (aliases nested too deep?)");
      }
      return null;
    }
    if (depth > MAX_DEPTH) {
      if (!tooDeep) {
        tooDeep = true;
        problems.add(YamlMap.pos(file, node, path), tooDeep());
      }
      return null;
    }
    if (node instanceof ScalarNode scalar) {
      String either = YamlScalars.eitherWay(scalar);
      if (either != null) {
        problems.add(YamlMap.pos(file, node, path), either);
        return null;
      }
      Object value;
      try {
        value = scalar(scalar);
      } catch (Numbers.Refused e) {
        problems.add(YamlMap.pos(file, node, path), e.getMessage());
        return null;
      }
      if (templates && value instanceof String text) {
        return new Expr(text, YamlMap.pos(file, node, path));
      }
      return value;
    }
    if (node instanceof SequenceNode sequence) {
      List<Object> out = new ArrayList<>();
      int index = 0;
      for (Node element : sequence.getValue()) {
        out.add(convert(element, path + "[" + index++ + "]", depth + 1));
      }
      return Collections.unmodifiableList(out);
    }
    MappingNode mapping = (MappingNode) node;
    YamlMap view = new YamlMap(file, path, mapping, problems);
    Map<String, Object> out = new LinkedHashMap<>();
    for (String key : view.keys()) {
      out.put(key, convert(view.raw(key), view.join(key), depth + 1));
    }
    return Collections.unmodifiableMap(out);
  }

  /** The problem of a walk that went past {@link #MAX_DEPTH}. */
  static String tooDeep() {
    return "nested deeper than " + MAX_DEPTH + " levels (an alias that contains itself?)";
  }

  private static Object scalar(ScalarNode scalar) throws Numbers.Refused {
    return YamlScalars.value(scalar);
  }
}
