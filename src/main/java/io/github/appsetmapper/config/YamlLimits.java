package io.github.appsetmapper.config;

import io.github.appsetmapper.files.BoundedFiles;
import io.github.appsetmapper.json.Numbers;
import io.github.appsetmapper.json.YamlCodec;
import java.io.StringReader;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.composer.Composer;
import org.yaml.snakeyaml.constructor.AbstractConstruct;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;
import org.yaml.snakeyaml.parser.ParserImpl;
import org.yaml.snakeyaml.reader.StreamReader;
import org.yaml.snakeyaml.resolver.Resolver;

/**
 * The bounds of every YAML file the server or the CLI reads, in one place: its bytes (read through
 * {@link BoundedFiles}), its code points and nesting (SnakeYAML's own limits), and its size once
 * aliases are expanded ({@link YamlSize}). Mapping files are small; test files carry recorded
 * upstream answers, so theirs are larger, but still bounded.
 */
public record YamlLimits(long fileBytes, int codePoints, long expandedChars) {
  public static final YamlLimits MAPPING =
      new YamlLimits(BoundedFiles.MAPPING_BYTES, 2 * 1024 * 1024, YamlSize.MAX_CHARS);
  public static final YamlLimits TEST =
      new YamlLimits(BoundedFiles.TEST_BYTES, 16 * 1024 * 1024, 32L * 1024 * 1024);

  /**
   * The documents of {@code content}, without the empty ones: a {@code ---} with nothing after it
   * (a trailing one, as generators write) is no document, in every file. Throws SnakeYAML's
   * exceptions for YAML that does not parse or passes a bound.
   */
  public List<Node> documents(String content) {
    List<Node> out = new ArrayList<>();
    ValueLengthBound reader = new ValueLengthBound(content, new StringReader(content));
    LoaderOptions options = options();
    Composer composer =
        new Composer(
            reader.settling(new ParserImpl(new StreamReader(reader), options)),
            new Resolver(),
            options);
    try {
      while (composer.checkNode()) {
        Node document = composer.getNode();
        if (document != null && !isEmpty(document)) {
          out.add(document);
        }
      }
    } catch (NumberFormatException e) {
      // SnakeYAML decodes \\x, \\u and \\U escapes with an unguarded Integer.parseInt
      // ("\\UFFFFFFFF", a cut "\\x"): a YAML error as every other, for every reader of files.
      throw new YAMLException(YamlCodec.ESCAPE.substring("is not valid YAML: ".length()));
    } catch (YAMLException e) {
      if (e.getCause() instanceof io.github.appsetmapper.json.ValueBoundReader.TooLong) {
        throw reader.tooLong();
      }
      throw e;
    }
    return out;
  }

  /**
   * The line (from 1) and the problem of a value longer than a YAML file may hold, or null when
   * {@code e} is another problem: "FILE:LINE: PROBLEM" is the one line every reader says of it.
   */
  public static String valueTooLong(RuntimeException e) {
    return e instanceof ValueLengthBound.TooLong tooLong
        ? tooLong.line() + ": " + tooLong.getProblem()
        : null;
  }

  /** The problem with a document's size once its aliases are expanded, or null. */
  public String sizeProblem(Node document) {
    return YamlSize.problem(document, expandedChars);
  }

  /**
   * The first scalar holding half of a surrogate pair ({@code "\\ud800"} is valid YAML and no
   * character: it has no UTF-8 form, so an answer, a URL or a log line would carry a '?' or fail to
   * be written), or null. Each node is visited once, however many aliases name it.
   */
  public static ScalarNode loneSurrogate(Node document) {
    Set<Node> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    Deque<Node> todo = new ArrayDeque<>();
    todo.push(document);
    while (!todo.isEmpty()) {
      Node node = todo.pop();
      if (!seen.add(node)) {
        continue;
      }
      if (node instanceof ScalarNode scalar) {
        if (hasLoneSurrogate(scalar.getValue())) {
          return scalar;
        }
      } else if (node instanceof SequenceNode sequence) {
        sequence.getValue().forEach(todo::push);
      } else if (node instanceof MappingNode mapping) {
        for (NodeTuple tuple : mapping.getValue()) {
          todo.push(tuple.getValueNode());
          todo.push(tuple.getKeyNode());
        }
      }
    }
    return null;
  }

  static boolean hasLoneSurrogate(String text) {
    return io.github.appsetmapper.json.JsonCodec.halfSurrogate(text) != null; // the one rule
  }

  /** The problem a {@link #loneSurrogate} gives, in the loader's words. */
  public static final String LONE_SURROGATE =
      "holds half of a surrogate pair (a \\uD800-\\uDFFF escape alone), which is not Unicode"
          + " text";

  /**
   * Plain Java data (maps, lists, scalars) of a document already checked by {@link #sizeProblem}.
   */
  public Object data(Node document) {
    return new Constructor(options()).construct(document);
  }

  private LoaderOptions options() {
    LoaderOptions options = new LoaderOptions();
    options.setAllowDuplicateKeys(false);
    options.setMaxAliasesForCollections(200);
    options.setNestingDepthLimit(50);
    options.setCodePointLimit(codePoints);
    return options;
  }

  private static boolean isEmpty(Node document) {
    return document instanceof ScalarNode scalar
        && Tag.NULL.equals(scalar.getTag())
        && scalar.getValue().isEmpty();
  }

  /** A decimal beyond {@link Numbers#BOUNDS} in a file read as data; {@code text} as written. */
  public static final class NumberOutOfBounds extends YAMLException {
    private static final long serialVersionUID = 1L;
    private final String text;
    private final boolean notANumber;

    NumberOutOfBounds(String text, boolean notANumber) {
      super("a number beyond the bounds");
      this.text = text;
      this.notANumber = notANumber;
    }

    /** Whether it is no number at all ({@code .inf}, {@code .nan}) rather than one too large. */
    public boolean notANumber() {
      return notANumber;
    }

    /** The number as written, shortened. */
    public String text() {
      return text.length() <= 40 ? text : text.substring(0, 37) + "...";
    }
  }

  /**
   * SnakeYAML's safe constructor with decimals read exactly ({@link Numbers#decimal}), as mapping
   * files and JSON answers are: its own made them doubles, so a test file's expected {@code
   * 12.50000000000000001} (or a recorded body's) was read as {@code 12.5}.
   */
  private static final class Constructor extends SafeConstructor {
    Constructor(LoaderOptions options) {
      super(options);
      this.yamlConstructors.put(Tag.FLOAT, new ExactDecimal());
      this.yamlConstructors.put(Tag.INT, new AsMappingsRead());
      this.yamlConstructors.put(Tag.BOOL, new AsMappingsRead());
    }

    /**
     * An integer or a boolean by {@link YamlScalars}' rule, as a mapping's data reads it, not by
     * YAML 1.1's: a test file's {@code version: 010} was 8, {@code port: 22:22} 1342 and {@code on}
     * or {@code yes} true. An integer keeps SnakeYAML's Integer where it fits.
     */
    private static final class AsMappingsRead extends AbstractConstruct {
      @Override
      public Object construct(Node node) {
        Object value;
        try {
          value = YamlScalars.value((ScalarNode) node);
        } catch (Numbers.Refused e) {
          throw new NumberOutOfBounds(((ScalarNode) node).getValue(), !e.outOfBounds());
        }
        return value instanceof Long small && small == small.intValue()
            ? (Object) small.intValue()
            : value;
      }
    }

    private static final class ExactDecimal extends AbstractConstruct {
      @Override
      public Object construct(Node node) {
        String text = ((ScalarNode) node).getValue();
        if (text.indexOf('_') >= 0) {
          return text; // YAML 1.1's 1_000.5 is the core schema's text, as a mapping reads it
        }
        try {
          return Numbers.decimal(text);
        } catch (Numbers.Refused e) {
          // .inf and .nan are no number JSON can hold: refused as one beyond the bounds is.
          throw new NumberOutOfBounds(text, !e.outOfBounds());
        }
      }
    }

    Object construct(Node document) {
      return constructDocument(document);
    }
  }
}
