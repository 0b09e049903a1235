package io.github.appsetmapper.config;

import io.github.appsetmapper.files.BoundedFiles;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.Tag;

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
    for (Node document :
        new Yaml(new SafeConstructor(options())).composeAll(new StringReader(content))) {
      if (document != null && !isEmpty(document)) {
        out.add(document);
      }
    }
    return out;
  }

  /** The problem with a document's size once its aliases are expanded, or null. */
  public String sizeProblem(Node document) {
    return YamlSize.problem(document, expandedChars);
  }

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

  private static final class Constructor extends SafeConstructor {
    Constructor(LoaderOptions options) {
      super(options);
    }

    Object construct(Node document) {
      return constructDocument(document);
    }
  }
}
