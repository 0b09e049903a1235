package io.github.appsetmapper.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.appsetmapper.json.Numbers;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * A YAML document as JSON for schema validation, with the position of every value and key by JSON
 * pointer. Plain scalars are typed as editors type them (YAML 1.2 core schema: {@code yes} is a
 * string), quoted ones are strings; merge keys are flattened as the loader flattens them.
 */
final class YamlJson {
  private static final Pattern INT = Pattern.compile("[-+]?[0-9]+");
  private static final Pattern FLOAT =
      Pattern.compile("[-+]?(\\.[0-9]+|[0-9]+(\\.[0-9]*)?)([eE][-+]?[0-9]+)?");
  private static final int MAX_VALUES = YamlData.MAX_VALUES;

  /**
   * The document, and where each of its values (and each map key) stands; {@code truncated} when it
   * was too large or too deep to convert whole (the loader reports that, and the schema's view of a
   * cut document would only add noise).
   */
  record Located(
      JsonNode json, Map<String, Pos> values, Map<String, Pos> keys, boolean truncated) {}

  private final String file;
  private final Map<String, Pos> values = new HashMap<>();
  private final Map<String, Pos> keys = new HashMap<>();
  private int count;
  private boolean truncated;

  private YamlJson(String file) {
    this.file = file;
  }

  static Located convert(String file, Node document) {
    YamlJson converter = new YamlJson(file);
    JsonNode json = converter.node(document, "", "", 0);
    return new Located(
        json, Map.copyOf(converter.values), Map.copyOf(converter.keys), converter.truncated);
  }

  private JsonNode node(Node node, String pointer, String path, int depth) {
    values.putIfAbsent(pointer, YamlMap.pos(file, node, path));
    if (++count > MAX_VALUES || depth > YamlData.MAX_DEPTH) {
      truncated = true;
      return JsonNodeFactory.instance.nullNode();
    }
    if (node instanceof ScalarNode scalar) {
      return scalar(scalar);
    }
    if (node instanceof SequenceNode sequence) {
      ArrayNode array = JsonNodeFactory.instance.arrayNode();
      int index = 0;
      for (Node element : sequence.getValue()) {
        array.add(node(element, pointer + "/" + index, path + "[" + index + "]", depth + 1));
        index++;
      }
      return array;
    }
    ObjectNode object = JsonNodeFactory.instance.objectNode();
    for (Map.Entry<String, NodeTuple> entry : entries((MappingNode) node).entrySet()) {
      String key = entry.getKey();
      String childPointer = pointer + "/" + key.replace("~", "~0").replace("/", "~1");
      String childPath = path.isEmpty() ? key : path + "." + key;
      keys.putIfAbsent(childPointer, YamlMap.pos(file, entry.getValue().getKeyNode(), childPath));
      object.set(key, node(entry.getValue().getValueNode(), childPointer, childPath, depth + 1));
    }
    return object;
  }

  /** The map's entries, explicit keys first and winning, then those merged in by {@code <<}. */
  private static Map<String, NodeTuple> entries(MappingNode mapping) {
    Map<String, NodeTuple> out = new LinkedHashMap<>();
    List<MappingNode> merged = new ArrayList<>();
    for (NodeTuple tuple : mapping.getValue()) {
      Node key = tuple.getKeyNode();
      if (key.getTag().equals(Tag.MERGE)) {
        collect(
            tuple.getValueNode(),
            merged,
            java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>()));
      } else if (key instanceof ScalarNode scalar) {
        out.putIfAbsent(scalar.getValue(), tuple);
      }
    }
    for (MappingNode m : merged) {
      for (NodeTuple tuple : m.getValue()) {
        if (tuple.getKeyNode() instanceof ScalarNode scalar) {
          out.putIfAbsent(scalar.getValue(), tuple);
        }
      }
    }
    return out;
  }

  /** Each node once: an alias can list a sequence in itself ({@code <<: &m [*m]}). */
  private static void collect(Node value, List<MappingNode> into, java.util.Set<Node> seen) {
    if (!seen.add(value)) {
      return;
    }
    if (value instanceof MappingNode mapping) {
      into.add(mapping);
    } else if (value instanceof SequenceNode sequence) {
      sequence.getValue().forEach(n -> collect(n, into, seen));
    }
  }

  private static JsonNode scalar(ScalarNode scalar) {
    JsonNodeFactory json = JsonNodeFactory.instance;
    String text = scalar.getValue();
    if (scalar.getScalarStyle() != DumperOptions.ScalarStyle.PLAIN) {
      return json.textNode(text);
    }
    switch (text) {
      case "", "~", "null", "Null", "NULL" -> {
        return json.nullNode();
      }
      case "true", "True", "TRUE" -> {
        return json.booleanNode(true);
      }
      case "false", "False", "FALSE" -> {
        return json.booleanNode(false);
      }
      default -> {}
    }
    // A number beyond the bounds stays text here: the loader reports it, naming the bounds.
    if (INT.matcher(text).matches() && text.length() <= Numbers.MAX_DIGITS + 1) {
      return json.numberNode(new BigInteger(text));
    }
    if (FLOAT.matcher(text).matches()) {
      try {
        return json.numberNode(Numbers.decimal(text));
      } catch (Numbers.Refused e) {
        return json.textNode(text);
      }
    }
    return json.textNode(text);
  }
}
