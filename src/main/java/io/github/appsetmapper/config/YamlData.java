package io.github.appsetmapper.config;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * Turns a YAML node into plain immutable data (String, Long/BigInteger, BigDecimal, Boolean, null,
 * List, Map). String leaves become {@link Expr} when {@code templates} is set, so a request body
 * can hold templates with their positions.
 */
final class YamlData {
  private YamlData() {}

  static Object toData(String file, Node node, String path, Problems problems) {
    return convert(file, node, path, problems, false);
  }

  static Object toTemplateData(String file, Node node, String path, Problems problems) {
    return convert(file, node, path, problems, true);
  }

  private static Object convert(
      String file, Node node, String path, Problems problems, boolean templates) {
    if (node instanceof ScalarNode scalar) {
      Object value = scalar(scalar);
      if (templates && value instanceof String text) {
        return new Expr(text, YamlMap.pos(file, node, path));
      }
      return value;
    }
    if (node instanceof SequenceNode sequence) {
      List<Object> out = new ArrayList<>();
      int index = 0;
      for (Node element : sequence.getValue()) {
        out.add(convert(file, element, path + "[" + index++ + "]", problems, templates));
      }
      return Collections.unmodifiableList(out);
    }
    MappingNode mapping = (MappingNode) node;
    YamlMap view = new YamlMap(file, path, mapping, problems);
    Map<String, Object> out = new LinkedHashMap<>();
    for (String key : view.keys()) {
      out.put(key, convert(file, view.raw(key), view.join(key), problems, templates));
    }
    return Collections.unmodifiableMap(out);
  }

  private static Object scalar(ScalarNode scalar) {
    String text = scalar.getValue();
    Tag tag = scalar.getTag();
    if (tag.equals(Tag.NULL)) {
      return null;
    }
    if (tag.equals(Tag.BOOL)) {
      return Boolean.parseBoolean(text)
          || text.equalsIgnoreCase("yes")
          || text.equalsIgnoreCase("on");
    }
    if (tag.equals(Tag.INT)) {
      try {
        BigInteger big = new BigInteger(text.replace("_", ""));
        return big.bitLength() < 64 ? (Object) big.longValue() : big;
      } catch (NumberFormatException e) {
        return text;
      }
    }
    if (tag.equals(Tag.FLOAT)) {
      try {
        return new BigDecimal(text.replace("_", ""));
      } catch (NumberFormatException e) {
        return text;
      }
    }
    return text;
  }
}
