package io.github.appsetmapper.config;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.ScalarNode;

/**
 * Parses mapping files (format v1) from SnakeYAML's node tree, which keeps both the line marks and
 * the aliases, into {@link MappingSpec} records. Every problem of a file is reported at once.
 */
public final class MappingParser {
  static final List<String> TOP_KEYS =
      List.of(
          "version",
          "name",
          "description",
          "input",
          "inputAdditional",
          "vars",
          "secrets",
          "defaults",
          "list",
          "enrich",
          "filter",
          "sortBy",
          "sortOrder",
          "distinctBy",
          "limit",
          "parameters",
          "keepTypes",
          "minItems",
          "concurrency",
          "allowedHosts",
          "deadline",
          "maxDrop",
          "key",
          "let",
          "explode",
          "label");
  static final List<String> INPUT_KEYS =
      List.of("type", "required", "default", "pattern", "enum", "description");
  static final List<String> VAR_KEYS = List.of("default", "env", "description");
  static final List<String> SECRET_KEYS = List.of("file", "env");
  static final List<String> LIST_KEYS =
      List.of("request", "items", "paginate", "missingIsEmpty", "entries");
  static final List<String> ENRICH_KEYS =
      List.of(
          "request",
          "select",
          "value",
          "onMissing",
          "explode",
          "paginate",
          "missingIsEmpty",
          "forEach");
  private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  private MappingParser() {}

  /** Parses every document of one file; {@code file} is the name used in error messages. */
  public static List<MappingSpec> parse(String file, String content) throws MappingException {
    List<MappingSpec> specs = parseLeavingNames(file, content);
    Problems problems = new Problems();
    specs.stream().map(MappingNames::problem).filter(p -> p != null).forEach(problems::add);
    problems.throwIfAny();
    return specs;
  }

  /**
   * As {@link #parse}, but a mapping whose only problem is its name is returned: the caller that
   * compiles it reports {@link MappingNames#problem} with the compile's problems. The names are
   * among the problems when parsing fails.
   */
  public static List<MappingSpec> parseLeavingNames(String file, String content)
      throws MappingException {
    Problems problems = new Problems();
    List<MappingSpec> specs = new ArrayList<>();
    try {
      for (Node document : YamlLimits.MAPPING.documents(content)) {
        if (!(document instanceof MappingNode mapping)) {
          problems.add(YamlMap.pos(file, document, "(document)"), "a mapping must be a YAML map");
          continue;
        }
        // Its size once aliases are expanded is checked on the nodes, before any walk expands it.
        String tooLarge = YamlLimits.MAPPING.sizeProblem(document);
        if (tooLarge != null) {
          problems.add(YamlMap.pos(file, document, "(document)"), tooLarge);
          continue;
        }
        ScalarNode notText = YamlLimits.loneSurrogate(document);
        if (notText != null) {
          problems.add(YamlMap.pos(file, notText, "(text)"), YamlLimits.LONE_SURROGATE);
          continue;
        }
        MappingSpec spec = mapping(new YamlMap(file, "", mapping, problems));
        if (spec != null) {
          specs.add(spec);
        }
      }
    } catch (MarkedYAMLException e) {
      var mark = e.getProblemMark() != null ? e.getProblemMark() : e.getContextMark();
      int line = mark == null ? 1 : mark.getLine() + 1;
      int column = mark == null ? 1 : mark.getColumn() + 1;
      problems.add(new Pos(file, line, column, "(yaml)"), e.getProblem());
    } catch (YAMLException e) {
      problems.add(new Pos(file, 1, 1, "(yaml)"), e.getMessage());
    }
    if (specs.isEmpty() && problems.isEmpty()) {
      problems.add(new Pos(file, 1, 1, "(file)"), "holds no mapping");
    }
    if (!problems.isEmpty()) {
      specs.stream().map(MappingNames::problem).filter(p -> p != null).forEach(problems::add);
    }
    problems.throwIfAny(specs);
    return List.copyOf(specs);
  }

  private static MappingSpec mapping(YamlMap top) {
    top.allowOnly(TOP_KEYS);
    String version = top.string("version");
    if (version != null && !version.equals("1")) {
      top.error("version", "unsupported format version '" + version + "'; this reads version 1");
    }
    String name = top.requiredString("name"); // its form is MappingNames' to check
    Map<String, InputSpec> input = inputs(top.map("input"));
    Map<String, VarSpec> vars = vars(top.map("vars"));
    Map<String, SecretSpec> secrets = secrets(top.map("secrets"));
    RequestOptions defaults = RequestParser.defaults(top.map("defaults"));
    ListSpec list = list(top.map("list"));
    Map<String, EnrichSpec> enrich = enrich(top.map("enrich"));
    Map<String, Expr> parameters = parameters(top);
    List<String> allowedHosts = top.stringList("allowedHosts");
    // Read in the order of the file's keys as before, so that problems keep their order.
    MappingSettings.Builder settings =
        MappingSettings.builder()
            .namePos(top.pos("name"))
            .name(name)
            .description(top.string("description"));
    MappingSpec.Builder spec = MappingSpec.builder().pos(top.pos()).input(input);
    settings.inputAdditional(top.bool("inputAdditional", false));
    spec.vars(vars)
        .secrets(secrets)
        .defaults(defaults)
        .list(list)
        .enrich(enrich)
        .filter(top.expr("filter"))
        .sortBy(top.expr("sortBy"));
    settings.sortOrder(
        top.choice("sortOrder", MappingSpec.SortOrder.class, MappingSpec.SortOrder.ASC));
    spec.distinctBy(top.expr("distinctBy"));
    settings.limit(top.integer("limit", null, 0));
    spec.parameters(parameters);
    settings
        .keepTypes(top.bool("keepTypes", false))
        .minItems(top.integer("minItems", 0, 0))
        .concurrency(top.integer("concurrency", MappingSpec.DEFAULT_CONCURRENCY, 1));
    spec.allowedHosts(allowedHosts);
    settings
        .deadline(top.duration("deadline", MappingSpec.DEFAULT_DEADLINE))
        .maxDrop(maxDrop(top))
        .key(key(top, parameters));
    return spec.let(let(top.map("let")))
        .explode(explode(top.map("explode")))
        .label(top.expr("label"))
        .settings(settings.build())
        .build();
  }

  /**
   * {@code key}: the parameters that identify a row (an Application), one name or a list; {@code
   * diff} and shadow mode match rows by them. Each must be a parameter of the mapping.
   */
  private static List<String> key(YamlMap top, Map<String, Expr> parameters) {
    if (!top.has("key")) {
      return List.of();
    }
    Node raw = top.raw("key");
    List<String> names =
        raw instanceof ScalarNode scalar ? List.of(scalar.getValue()) : top.stringList("key");
    if (names.isEmpty()) {
      if (raw instanceof org.yaml.snakeyaml.nodes.SequenceNode) {
        top.error("key", "must name at least one parameter");
      }
      return List.of();
    }
    java.util.Set<String> seen = new java.util.LinkedHashSet<>();
    for (String name : names) {
      if (!seen.add(name)) {
        top.error("key", "names parameter '" + name + "' twice");
      } else if (!parameters.isEmpty() && !parameters.containsKey(name)) {
        top.error(
            "key",
            "'"
                + name
                + "' is not a parameter of this mapping"
                + Suggestions.hint(name, parameters.keySet()));
      }
    }
    return List.copyOf(seen);
  }

  private static MaxDrop maxDrop(YamlMap top) {
    String text = top.string("maxDrop");
    if (text == null) {
      return null;
    }
    MaxDrop parsed = MaxDrop.parse(text);
    if (parsed == null) {
      top.error(
          "maxDrop",
          "must be a count of rows (10) or a percentage from 0% to 100% (50%), not '" + text + "'");
    }
    return parsed;
  }

  private static Map<String, InputSpec> inputs(YamlMap map) {
    Map<String, InputSpec> out = new LinkedHashMap<>();
    if (map == null) {
      return out;
    }
    for (String key : map.keys()) {
      YamlMap entry = map.map(key);
      if (entry == null) {
        continue;
      }
      entry.allowOnly(INPUT_KEYS);
      List<String> enumValues = entry.stringList("enum");
      out.put(
          key,
          new InputSpec(
              entry.pos(),
              key,
              entry.choice("type", InputSpec.InputType.class, InputSpec.InputType.STRING),
              entry.bool("required", false),
              entry.data("default"),
              entry.expr("pattern"),
              enumValues,
              entry.string("description")));
    }
    return out;
  }

  private static Map<String, VarSpec> vars(YamlMap map) {
    Map<String, VarSpec> out = new LinkedHashMap<>();
    if (map == null) {
      return out;
    }
    for (String key : map.keys()) {
      identifier(map, key);
      YamlMap entry = map.map(key);
      if (entry == null) {
        continue;
      }
      entry.allowOnly(VAR_KEYS);
      out.put(
          key,
          new VarSpec(
              entry.pos(),
              key,
              entry.string("default"),
              entry.string("env"),
              entry.string("description")));
    }
    return out;
  }

  private static Map<String, SecretSpec> secrets(YamlMap map) {
    Map<String, SecretSpec> out = new LinkedHashMap<>();
    if (map == null) {
      return out;
    }
    for (String key : map.keys()) {
      identifier(map, key);
      YamlMap entry = map.map(key);
      if (entry == null) {
        continue;
      }
      entry.allowOnly(SECRET_KEYS);
      String file = entry.string("file");
      String env = entry.string("env");
      if (file == null && env == null) {
        entry.problems().add(entry.pos(), "needs 'file' or 'env'");
      }
      out.put(key, new SecretSpec(entry.pos(), key, file, env));
    }
    return out;
  }

  private static void identifier(YamlMap map, String key) {
    if (!IDENTIFIER.matcher(key).matches()) {
      map.problems()
          .add(
              map.keyPos(key),
              "'"
                  + key
                  + "' must be an identifier (letters, digits, '_'), so expressions can name it");
    }
  }

  private static ListSpec list(YamlMap map) {
    if (map == null) {
      return null;
    }
    map.allowOnly(LIST_KEYS);
    YamlMap request = map.map("request");
    if (request == null && !map.has("request")) {
      map.problems().add(map.pos(), "missing required key 'request'");
    }
    Expr items = map.expr("items");
    if (items == null && !map.has("items")) {
      map.problems().add(map.pos(), "missing required key 'items' (a JsonPath such as $[*])");
    }
    return new ListSpec(
        map.pos(),
        request == null ? null : RequestParser.request(request),
        items,
        RequestParser.paginate(map.map("paginate")),
        map.bool("missingIsEmpty", false),
        map.expr("entries"));
  }

  private static Map<String, EnrichSpec> enrich(YamlMap map) {
    Map<String, EnrichSpec> out = new LinkedHashMap<>();
    if (map == null) {
      return out;
    }
    for (String key : map.keys()) {
      identifier(map, key);
      YamlMap entry = map.map(key);
      if (entry == null) {
        continue;
      }
      entry.allowOnly(ENRICH_KEYS);
      YamlMap request = entry.map("request");
      if (request == null && !entry.has("request")) {
        entry.problems().add(entry.pos(), "missing required key 'request'");
      }
      Expr select = entry.expr("select");
      Expr value = entry.expr("value");
      if (select != null && value != null) {
        entry.problems().add(entry.pos(), "holds both 'select' and 'value'; keep one");
      }
      out.put(
          key,
          EnrichSpec.builder()
              .pos(entry.pos())
              .name(key)
              .request(request == null ? null : RequestParser.request(request))
              .select(select)
              .value(value)
              .onMissing(
                  entry.choice("onMissing", EnrichSpec.OnMissing.class, EnrichSpec.OnMissing.ERROR))
              .explode(entry.bool("explode", false))
              .paginate(RequestParser.paginate(entry.map("paginate")))
              .missingIsEmpty(entry.bool("missingIsEmpty", false))
              .forEach(forEach(entry.map("forEach")))
              .build());
    }
    return out;
  }

  /** {@code let}: name (an identifier) to expression, in the order written. */
  private static Map<String, Expr> let(YamlMap map) {
    Map<String, Expr> out = new LinkedHashMap<>();
    if (map == null) {
      return out;
    }
    for (String key : map.keys()) {
      identifier(map, key);
      if (!(map.raw(key) instanceof ScalarNode)) {
        map.error(key, "must be an expression string");
        continue;
      }
      Expr expr = map.expr(key);
      if (expr != null) {
        out.put(key, expr);
      }
    }
    return out;
  }

  private static ExplodeSpec explode(YamlMap map) {
    if (map == null) {
      return null;
    }
    map.allowOnly(ExplodeSpec.KEYS);
    Expr in = map.expr("in");
    if (in == null && !map.has("in")) {
      map.problems().add(map.pos(), "missing required key 'in' (the list, as item.flags)");
    }
    String as = map.requiredString("as");
    if (as != null && !IDENTIFIER.matcher(as).matches()) {
      map.error("as", "'" + as + "' is not a name; use letters, digits and _");
    }
    return new ExplodeSpec(
        map.pos(),
        in,
        as,
        map.choice("onMissing", EnrichSpec.OnMissing.class, EnrichSpec.OnMissing.ERROR));
  }

  private static EnrichSpec.ForEach forEach(YamlMap map) {
    if (map == null) {
      return null;
    }
    map.allowOnly(EnrichSpec.ForEach.KEYS);
    Expr in = map.expr("in");
    if (in == null && !map.has("in")) {
      map.problems().add(map.pos(), "missing required key 'in' (the list, as item.images)");
    }
    String as = map.requiredString("as");
    if (as != null && !IDENTIFIER.matcher(as).matches()) {
      map.error("as", "'" + as + "' is not a name; use letters, digits and _");
    }
    return new EnrichSpec.ForEach(map.pos(), in, as, map.expr("key"));
  }

  private static Map<String, Expr> parameters(YamlMap top) {
    if (!top.has("parameters")) {
      top.problems().add(top.pos(), "missing required key 'parameters'");
      return Map.of();
    }
    YamlMap map = top.map("parameters");
    if (map == null) {
      return Map.of();
    }
    Map<String, Expr> out = new LinkedHashMap<>();
    for (String key : map.keys()) {
      if (key.equals("generator") || key.equals("values")) {
        map.problems()
            .add(
                map.keyPos(key),
                "'"
                    + key
                    + "' is overwritten by Argo CD in every parameter map; choose another name");
        continue;
      }
      Node raw = map.raw(key);
      if (!(raw instanceof ScalarNode)) {
        map.error(key, "must be an expression string");
        continue;
      }
      Expr expr = map.expr(key);
      if (expr != null) {
        out.put(key, expr);
      }
    }
    if (out.isEmpty() && map.keys().isEmpty()) {
      top.error("parameters", "declares no parameter");
    }
    return out;
  }
}
