package io.github.appsetmapper.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import com.networknt.schema.path.NodePath;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;

/**
 * The JSON Schema of mapping files (format v1): the file {@code schema/mapping-v1.schema.json} of
 * the repository, shipped in the jar at {@link #RESOURCE}. Editors use it for completion; {@code
 * validate} checks every file against it as well as loading it, and the tests keep it equal to the
 * parser's keys. Problems come out as the loader's do: {@code file:line:column path: message}.
 */
public final class MappingSchema {
  public static final String RESOURCE = "/schema/mapping-v1.schema.json";

  /** The schema of mapping test files ({@code *.test.yaml}), checked the same way. */
  public static final String TEST_FILE_RESOURCE = "/schema/mapping-test-v1.schema.json";

  // Each compiled when first used: validate needs one, test the other.
  private static final class Mappings {
    static final Schema SCHEMA = load(RESOURCE);
  }

  private static final class TestFiles {
    static final Schema SCHEMA = load(TEST_FILE_RESOURCE);
  }

  private static final Pattern ALTERNATIVE = Pattern.compile("/(oneOf|anyOf)/\\d+(/|$)");

  private MappingSchema() {}

  private static Schema load(String resource) {
    try (InputStream in = MappingSchema.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException(resource + " is not on the classpath");
      }
      JsonNode schema = io.github.appsetmapper.json.JsonCodec.tree(in.readAllBytes());
      return SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_7).getSchema(schema);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The schema's problems with every document of a file; none when the YAML does not parse. */
  public static List<Problem> check(String file, String content) {
    return check(Mappings.SCHEMA, YamlLimits.MAPPING, file, content);
  }

  /** The test-file schema's problems with a {@code *.test.yaml}, as {@link #check} gives them. */
  public static List<Problem> checkTestFile(String file, String content) {
    return check(TestFiles.SCHEMA, YamlLimits.TEST, file, content);
  }

  private static List<Problem> check(
      Schema schema, YamlLimits limits, String file, String content) {
    List<Problem> problems = new ArrayList<>();
    Iterable<Node> documents;
    try {
      documents = limits.documents(content);
    } catch (YAMLException e) {
      return List.of(); // the loader names the YAML error
    }
    for (Node document : documents) {
      // A document too large once expanded is the loader's to report, never the schema's to walk.
      if (document instanceof MappingNode && limits.sizeProblem(document) == null) {
        YamlJson.Located located = YamlJson.convert(file, document);
        if (!located.truncated()) {
          problems.addAll(check(schema, located));
        }
      }
    }
    return List.copyOf(problems);
  }

  private static List<Problem> check(Schema schema, YamlJson.Located document) {
    List<Problem> out = new ArrayList<>();
    Set<String> seen = new TreeSet<>();
    for (Error error : schema.validate(document.json())) {
      if (ALTERNATIVE.matcher(error.getEvaluationPath().toString()).find()) {
        continue; // why each alternative failed; the oneOf's own error says it better
      }
      String pointer = pointer(error.getInstanceLocation());
      Pos pos;
      String property = error.getProperty();
      if ("additionalProperties".equals(error.getKeyword()) && property != null) {
        String child = pointer + "/" + property.replace("~", "~0").replace("/", "~1");
        pos = document.keys().get(child);
      } else if (reserved(error)) {
        pos = document.keys().get(pointer); // the key is the mistake, as the loader says
      } else {
        pos = document.values().get(pointer);
      }
      if (pos == null) {
        pos = document.values().get("");
      }
      Problem problem = new Problem(pos, "schema: " + message(error, pointer));
      if (seen.add(problem.toString())) {
        out.add(problem);
      }
    }
    out.sort(
        Comparator.comparingInt((Problem p) -> p.pos().line())
            .thenComparingInt(p -> p.pos().column()));
    return out;
  }

  private static boolean reserved(Error error) {
    JsonNode schema = error.getSchemaNode();
    return "not".equals(error.getKeyword())
        && schema != null
        && schema.isObject()
        && schema.isEmpty();
  }

  private static String pointer(NodePath path) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < path.getNameCount(); i++) {
      out.append('/')
          .append(String.valueOf(path.getElement(i)).replace("~", "~0").replace("/", "~1"));
    }
    return out.toString();
  }

  /** The validator's message, in the loader's words where a keyword's own would puzzle. */
  private static String message(Error error, String pointer) {
    JsonNode schema = error.getSchemaNode();
    String keyword = error.getKeyword();
    switch (keyword == null ? "" : keyword) {
      case "additionalProperties" -> {
        return "unknown key '" + error.getProperty() + "'";
      }
      case "required" -> {
        return "missing required key '" + error.getProperty() + "'";
      }
      case "not" -> {
        if (reserved(error)) {
          return "not supported by this version yet";
        }
        if (schema != null && schema.has("properties")) {
          List<String> keys = new ArrayList<>();
          schema.get("properties").fieldNames().forEachRemaining(k -> keys.add("'" + k + "'"));
          return "needs " + String.join(" or ", keys);
        }
        if (schema != null && schema.has("required")) {
          List<String> keys = new ArrayList<>();
          schema.get("required").forEach(k -> keys.add("'" + k.asText() + "'"));
          return keys.size() == 1
              ? "cannot hold " + keys.get(0) + " here"
              : "cannot hold both " + String.join(" and ", keys);
        }
        return error.getMessage();
      }
      case "oneOf", "anyOf" -> {
        List<String> keys = new ArrayList<>();
        if (schema != null && schema.isArray()) {
          for (JsonNode alternative : schema) {
            if (alternative.has("required")) {
              alternative.get("required").forEach(k -> keys.add(k.asText()));
            }
          }
        }
        if (keys.isEmpty()) {
          return error.getMessage();
        }
        return (keyword.equals("oneOf") ? "must hold exactly one of " : "needs one of ")
            + String.join(", ", keys);
      }
      case "dependencies" -> {
        String property = error.getProperty();
        JsonNode needs = schema == null || property == null ? null : schema.get(property);
        if (needs != null && needs.isArray()) {
          List<String> keys = new ArrayList<>();
          needs.forEach(k -> keys.add("'" + k.asText() + "'"));
          return "'" + property + "' needs " + String.join(" and ", keys);
        }
        return error.getMessage();
      }
      case "minProperties", "maxProperties" -> {
        if (pointer.endsWith("/auth")) {
          return "must hold exactly one of bearer, basic, header, oauth2, login, githubApp,"
              + " registry";
        }
        return error.getMessage();
      }
      default -> {
        return error.getMessage();
      }
    }
  }
}
