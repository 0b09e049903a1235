package io.github.appsetmapper.json;

import java.io.ByteArrayInputStream;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeId;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;
import org.yaml.snakeyaml.reader.UnicodeReader;
import org.yaml.snakeyaml.representer.Representer;
import org.yaml.snakeyaml.resolver.Resolver;

/**
 * Reads an upstream's YAML answer (a Helm repository's {@code index.yaml}) into the same plain data
 * as {@link JsonCodec}, under the same policy: a key twice in one map, a number beyond {@link
 * Numbers}' bounds, nesting deeper than {@value JsonCodec#MAX_DEPTH} are refused; and what is
 * YAML's own: a tag ({@code !!python/object}, {@code !foo}, {@code !!binary}) is refused, never
 * turned into a type; aliases may repeat at most {@value #MAX_REPEATED} values in all (a "billion
 * laughs" is refused, not expanded), and at most {@value #MAX_COLLECTION_ALIASES} aliases may name
 * a collection; one document only; a key must be a scalar.
 *
 * <p>Plain scalars are typed by the YAML 1.2 core schema, not SnakeYAML's YAML 1.1 resolver: {@code
 * yes}, {@code on}, {@code 2024-01-02}, {@code 1_000} and {@code 0:30} stay text; {@code
 * true}/{@code false}, {@code null}/{@code ~}/empty, decimal, {@code 0x} and {@code 0o} integers,
 * and decimals are typed. A decimal keeps its text ({@code 1.10} is the exact decimal 1.10, written
 * back as {@code 1.10}, never the double 1.1). {@code .inf} and {@code .nan}, which JSON cannot
 * hold, stay text.
 *
 * <p>The parse is SnakeYAML's composer (the node tree, with its position marks) under a resolver
 * that types nothing: no constructor runs, so no class is ever named by the document.
 */
public final class YamlCodec {
  /** How many values aliases may repeat, in all: far past real files, far short of a bomb. */
  static final int MAX_REPEATED = 100_000;

  /** SnakeYAML's own default: enough for anchors in real files. */
  static final int MAX_COLLECTION_ALIASES = 50;

  /**
   * Characters read at most: the upstream response cap (10 MiB, counted after decompression), as
   * every character takes at least one byte. So a YAML answer is bounded in size exactly as a JSON
   * one is. SnakeYAML's 3 MB default would refuse real repository indexes (a busy Helm repository's
   * {@code index.yaml} is several megabytes: every version of every chart) that the same answer as
   * JSON would pass.
   */
  public static final int MAX_CODE_POINTS = 10 * 1024 * 1024;

  /** The tag the resolver gives every plain scalar: typed here, by the 1.2 core schema. */
  private static final Tag PLAIN = new Tag("tag:appset-mapper,2024:plain");

  private static final Pattern INT = Pattern.compile("[-+]?[0-9]+");
  private static final Pattern OCTAL = Pattern.compile("0o[0-7]+");
  private static final Pattern HEX = Pattern.compile("0x[0-9a-fA-F]+");
  private static final Pattern FLOAT =
      Pattern.compile("[-+]?(\\.[0-9]+|[0-9]+(\\.[0-9]*)?)([eE][-+]?[0-9]+)?");

  private YamlCodec() {}

  /** Reads {@code yaml} and estimates the heap its data takes (for the memory budget). */
  public static JsonCodec.Measured measure(byte[] yaml) throws JsonRefusal {
    return measure(yaml, MAX_CODE_POINTS);
  }

  /** As {@link #measure(byte[])}, reading at most {@code codePoints} characters. */
  static JsonCodec.Measured measure(byte[] yaml, int codePoints) throws JsonRefusal {
    Iterator<Node> documents;
    Node document;
    try {
      documents =
          yaml(codePoints).composeAll(new UnicodeReader(new ByteArrayInputStream(yaml))).iterator();
      document = documents.hasNext() ? documents.next() : null;
      if (document == null) {
        throw new JsonRefusal(JsonRefusal.Kind.SYNTAX, "is empty", null);
      }
      if (documents.hasNext()) {
        Node second = documents.next();
        throw new JsonRefusal(
            JsonRefusal.Kind.UNSUPPORTED,
            "holds more than one YAML document (one is read)",
            where(second.getStartMark()));
      }
    } catch (YAMLException e) {
      throw refusal(e, codePoints);
    }
    Builder builder = new Builder();
    Object data = builder.build(document, 0, false);
    return new JsonCodec.Measured(data, builder.bytes);
  }

  private static Yaml yaml(int codePoints) {
    LoaderOptions options = new LoaderOptions();
    options.setAllowDuplicateKeys(false);
    options.setMaxAliasesForCollections(MAX_COLLECTION_ALIASES);
    options.setAllowRecursiveKeys(false);
    options.setNestingDepthLimit(JsonCodec.MAX_DEPTH);
    options.setCodePointLimit(codePoints);
    options.setMergeOnCompose(false);
    return new Yaml(
        new SafeConstructor(options),
        new Representer(new org.yaml.snakeyaml.DumperOptions()),
        new org.yaml.snakeyaml.DumperOptions(),
        options,
        new CoreSchemaResolver());
  }

  /**
   * Leaves every plain scalar untyped ({@link #PLAIN}), so that the builder types it by the 1.2
   * core schema; a quoted scalar is a string, a collection a map or a list, as YAML says.
   */
  private static final class CoreSchemaResolver extends Resolver {
    @Override
    public Tag resolve(NodeId kind, String value, boolean implicit) {
      if (kind == NodeId.scalar && implicit) {
        return PLAIN;
      }
      return super.resolve(kind, value, implicit);
    }
  }

  private static JsonRefusal refusal(YAMLException e, int codePoints) {
    String message = e.getMessage() == null ? "" : e.getMessage();
    if (message.contains("Number of aliases for non-scalar nodes exceeds")) {
      return new JsonRefusal(
          JsonRefusal.Kind.LIMIT,
          "names a collection by an alias more than " + MAX_COLLECTION_ALIASES + " times",
          null);
    }
    if (message.contains("Nesting Depth exceeded")) {
      return new JsonRefusal(
          JsonRefusal.Kind.LIMIT, "is nested deeper than " + JsonCodec.MAX_DEPTH + " levels", null);
    }
    if (message.contains("document exceeds the limit")) {
      return new JsonRefusal(
          JsonRefusal.Kind.LIMIT, "is longer than " + codePoints + " characters", null);
    }
    if (e instanceof MarkedYAMLException marked) {
      String problem = marked.getProblem() == null ? "" : marked.getProblem().strip();
      if (problem.startsWith(GLOBAL_TAG)) {
        // SnakeYAML's own guard met it first (its tag inspector allows no global tag).
        return tagRefusal(problem.substring(GLOBAL_TAG.length()).strip(), marked.getProblemMark());
      }
      return new JsonRefusal(
          JsonRefusal.Kind.SYNTAX,
          problem.isEmpty() ? "is not valid YAML" : "is not valid YAML: " + firstLine(problem),
          where(marked.getProblemMark()));
    }
    return new JsonRefusal(
        JsonRefusal.Kind.SYNTAX,
        message.isBlank() ? "is not valid YAML" : "is not valid YAML: " + firstLine(message),
        null);
  }

  private static final String GLOBAL_TAG = "Global tag is not allowed:";

  private static JsonRefusal tagRefusal(String tag, Mark mark) {
    return new JsonRefusal(
        JsonRefusal.Kind.UNSUPPORTED,
        "has the tag '"
            + Numbers.shorten(tag)
            + "' (tags are not read: write the value without it)",
        where(mark));
  }

  private static String firstLine(String text) {
    String line = text.lines().findFirst().orElse("").strip();
    return line.length() > 160 ? line.substring(0, 160) + "..." : line;
  }

  private static String where(Mark mark) {
    if (mark == null) {
      return null;
    }
    return "line " + (mark.getLine() + 1) + ", column " + (mark.getColumn() + 1);
  }

  /** Plain data from the node tree, counting the estimated heap and the values aliases repeat. */
  private static final class Builder {
    long bytes;
    int repeated;
    final Set<Node> seen = Collections.newSetFromMap(new IdentityHashMap<>());

    Object build(Node node, int depth, boolean repeating) throws JsonRefusal {
      if (depth > JsonCodec.MAX_DEPTH) {
        throw new JsonRefusal(
            JsonRefusal.Kind.LIMIT,
            "is nested deeper than " + JsonCodec.MAX_DEPTH + " levels (an alias inside itself?)",
            where(node.getStartMark()));
      }
      // A node met again is an alias: everything under it is a repeat, and repeats are bounded.
      boolean repeat = repeating || !seen.add(node);
      if (repeat && ++repeated > MAX_REPEATED) {
        throw new JsonRefusal(
            JsonRefusal.Kind.LIMIT,
            "repeats more than " + MAX_REPEATED + " values through aliases",
            where(node.getStartMark()));
      }
      bytes += JsonCodec.VALUE_BYTES;
      if (node instanceof ScalarNode scalar) {
        return scalar(scalar);
      }
      checkTag(node, node instanceof MappingNode ? Tag.MAP : Tag.SEQ);
      if (node instanceof SequenceNode sequence) {
        bytes += JsonCodec.LIST_BYTES;
        List<Object> out = new ArrayList<>(sequence.getValue().size());
        for (Node element : sequence.getValue()) {
          out.add(build(element, depth + 1, repeat));
        }
        return out;
      }
      bytes += JsonCodec.OBJECT_BYTES;
      Map<String, Object> out = new LinkedHashMap<>();
      for (NodeTuple tuple : ((MappingNode) node).getValue()) {
        if (!(tuple.getKeyNode() instanceof ScalarNode keyNode)) {
          throw new JsonRefusal(
              JsonRefusal.Kind.UNSUPPORTED,
              "has a key that is not a string (a list or a map as a key)",
              where(tuple.getKeyNode().getStartMark()));
        }
        checkTag(keyNode, Tag.STR);
        String key = keyNode.getValue();
        if ("<<".equals(key) && keyNode.getScalarStyle() == DumperOptions.ScalarStyle.PLAIN) {
          // A merge key: Helm (Go yaml) merges the aliased map in; read as a plain key it would
          // make a phantom row and lose the merged ones, so it is refused, never half-read.
          throw new JsonRefusal(
              JsonRefusal.Kind.UNSUPPORTED,
              "has a merge key '<<', which is not supported",
              where(keyNode.getStartMark()));
        }
        if (out.containsKey(key)) {
          throw new JsonRefusal(
              JsonRefusal.Kind.DUPLICATE_KEY,
              "has the key '" + Numbers.shorten(key) + "' twice in one map",
              where(keyNode.getStartMark()));
        }
        bytes += JsonCodec.MEMBER_BYTES + JsonCodec.STRING_BYTES + key.length();
        out.put(key, build(tuple.getValueNode(), depth + 1, repeat));
      }
      return out;
    }

    private Object scalar(ScalarNode scalar) throws JsonRefusal {
      String text = scalar.getValue();
      if (!scalar.getTag().equals(PLAIN)) {
        checkTag(scalar, Tag.STR);
        bytes += JsonCodec.STRING_BYTES + text.length();
        return text;
      }
      Object typed = typed(text, scalar);
      if (typed instanceof String) {
        bytes += JsonCodec.STRING_BYTES + text.length();
      } else if (typed instanceof Number && !(typed instanceof Integer)) {
        bytes += JsonCodec.BIG_NUMBER_BYTES + text.length();
      }
      return typed;
    }

    /** The YAML 1.2 core schema (https://yaml.org/spec/1.2.2/#1023-core-schema). */
    private static Object typed(String text, ScalarNode scalar) throws JsonRefusal {
      switch (text) {
        case "", "~", "null", "Null", "NULL" -> {
          return null;
        }
        case "true", "True", "TRUE" -> {
          return Boolean.TRUE;
        }
        case "false", "False", "FALSE" -> {
          return Boolean.FALSE;
        }
        default -> {}
      }
      try {
        if (INT.matcher(text).matches() || FLOAT.matcher(text).matches()) {
          return Numbers.parse(text);
        }
        if (OCTAL.matcher(text).matches() || HEX.matcher(text).matches()) {
          String digits = text.substring(2);
          if (digits.length() > Numbers.MAX_DIGITS) {
            throw new Numbers.Refused("too many digits", true);
          }
          return Numbers.parse(new BigInteger(digits, text.charAt(1) == 'o' ? 8 : 16).toString());
        }
      } catch (Numbers.Refused e) {
        throw new JsonRefusal(
            JsonRefusal.Kind.NUMBER,
            "has a number beyond the bounds (" + Numbers.BOUNDS + ")",
            where(scalar.getStartMark()));
      }
      return text;
    }

    /** Only the tags a plain document has: anything else names a type, and is refused. */
    private static void checkTag(Node node, Tag allowed) throws JsonRefusal {
      Tag tag = node.getTag();
      if (!tag.equals(allowed) && !tag.equals(PLAIN)) {
        throw tagRefusal(tag.getValue(), node.getStartMark());
      }
    }
  }
}
