package io.github.appsetmapper.replay;

import io.github.appsetmapper.config.MappingSchema;
import io.github.appsetmapper.config.Problem;
import io.github.appsetmapper.config.Suggestions;
import io.github.appsetmapper.config.YamlLimits;
import io.github.appsetmapper.files.BoundedFiles;
import io.github.appsetmapper.json.JsonCodec;
import io.github.appsetmapper.json.Numbers;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.yaml.snakeyaml.nodes.Node;

/**
 * A mapping test file ({@code *.test.yaml}): the mapping it tests, the vars and secret values to
 * run it with, and its cases with their recorded upstream exchanges. Response bodies are inline
 * (YAML data written as JSON, or a string sent as it is) or in a {@code bodyFile} beside it.
 */
public record ExchangeFile(
    Path path,
    String mapping,
    Map<String, String> vars,
    Map<String, String> secrets,
    List<ReplayCase> cases) {

  /** The keys of each part of a test file (the JSON Schema {@code schema/mapping-test-v1}). */
  public static final List<String> TOP_KEYS = List.of("mapping", "vars", "secrets", "cases");

  public static final List<String> CASE_KEYS =
      List.of("name", "applicationSetName", "input", "baseline", "exchanges", "expect");
  public static final List<String> EXCHANGE_KEYS = List.of("request", "response", "optional");
  public static final List<String> REQUEST_KEYS =
      List.of("method", "url", "headers", "body", "form");
  public static final List<String> RESPONSE_KEYS = List.of("status", "headers", "body", "bodyFile");
  public static final List<String> EXPECT_KEYS = List.of("parameters", "error");
  public static final List<String> ERROR_KEYS = List.of("status", "message");

  public static ExchangeFile read(Path path) throws IOException {
    String content;
    try {
      content = BoundedFiles.readText(path, YamlLimits.TEST.fileBytes());
    } catch (IOException e) {
      throw new IOException(path + ": " + BoundedFiles.why(e));
    }
    // Every reader of a test file (test, record, diff, --replay) checks the schema first: a
    // 'mapping:' of [ma] or "" read as a name served no mapping, and its vars went nowhere.
    List<Problem> mismatches = MappingSchema.checkTestFile(path.toString(), content);
    if (!mismatches.isEmpty()) {
      throw new SchemaMismatch(path, mismatches);
    }
    Object loaded;
    try {
      List<Node> documents = YamlLimits.TEST.documents(content);
      if (documents.size() > 1) {
        throw new IOException(
            path + ": holds " + documents.size() + " YAML documents; a test file is one");
      }
      // Its size once aliases are expanded is checked on the nodes, before any walk expands it.
      String tooLarge = documents.isEmpty() ? null : YamlLimits.TEST.sizeProblem(documents.get(0));
      if (tooLarge != null) {
        throw new IOException(path + ": " + tooLarge);
      }
      var notText = documents.isEmpty() ? null : YamlLimits.loneSurrogate(documents.get(0));
      if (notText != null) {
        throw new IOException(
            path + ":" + (notText.getStartMark().getLine() + 1) + ": " + YamlLimits.LONE_SURROGATE);
      }
      loaded = documents.isEmpty() ? null : YamlLimits.TEST.data(documents.get(0));
    } catch (YamlLimits.NumberOutOfBounds e) {
      throw new IOException(
          e.notANumber()
              ? path + ": holds " + e.text() + ", which is no number JSON can hold"
              : path + ": holds a number beyond the bounds (" + Numbers.BOUNDS + "): " + e.text());
    } catch (RuntimeException e) {
      String tooLong = YamlLimits.valueTooLong(e);
      throw new IOException(
          tooLong != null
              ? path + ":" + tooLong + ": put a recorded body this long in a bodyFile"
              : path + ": not valid YAML: " + e.getMessage());
    }
    if (!(loaded instanceof Map<?, ?> top)) {
      throw new IOException(path + ": must be a YAML map with 'cases'");
    }
    allowOnly(top, TOP_KEYS, path, "the file");
    if (deeperThan(loaded, MAX_DEPTH)) {
      // An alias can nest a value in itself (&r {a: *r}): nothing after this may walk it.
      throw new IOException(
          path + ": nested deeper than " + MAX_DEPTH + " levels (an alias that contains itself?)");
    }
    String huge = Numbers.firstOutOfBounds(loaded);
    if (huge != null) {
      throw new IOException(
          path + ": holds a number beyond the bounds (" + Numbers.BOUNDS + "): " + huge);
    }
    List<ReplayCase> cases = new ArrayList<>();
    int index = 0;
    for (Object c : list(top.get("cases"), path, "cases")) {
      cases.add(readCase(path, map(c, path, "cases[" + index + "]"), index++));
    }
    return new ExchangeFile(
        path,
        top.get("mapping") == null ? null : top.get("mapping").toString(),
        strings(top.get("vars"), path, "vars"),
        strings(top.get("secrets"), path, "secrets"),
        List.copyOf(cases));
  }

  private static final int MAX_DEPTH = 64;

  public static final String SCHEMA_FILE = "schema/mapping-test-v1.schema.json";

  /** A test file the JSON Schema refuses: one line per problem, each with its line and column. */
  public static final class SchemaMismatch extends IOException {
    private final List<String> problems;

    SchemaMismatch(Path path, List<Problem> problems) {
      super(
          path
              + ": does not match the test-file schema ("
              + SCHEMA_FILE
              + "): "
              + String.join("; ", problems.stream().map(Problem::toString).toList()));
      this.problems = problems.stream().map(Problem::toString).toList();
    }

    /** The problems, one a line, as {@code test} lists them under its header. */
    public List<String> lines() {
      List<String> out = new ArrayList<>();
      out.add("does not match the test-file schema (" + SCHEMA_FILE + "):");
      problems.forEach(p -> out.add("  " + p));
      return out;
    }
  }

  /**
   * Why this file tests none of {@code loaded} (the names of the mappings loaded from {@code
   * source}), or null: the mapping its {@code mapping:} names must be one of them, and a file
   * naming none needs exactly one (its vars would otherwise be every mapping's). The one rule of
   * {@code test}, {@code run --replay} and {@code serve --replay}.
   */
  public String notTesting(List<String> loaded, Object source) {
    return TestedMapping.notTesting(mapping, loaded, source);
  }

  /**
   * The name of the mapping this file tests among {@code loaded}, when {@link #notTesting} is null.
   */
  public String tested(List<String> loaded) {
    return mapping != null ? mapping : loaded.get(0);
  }

  /** Whether {@code value} nests deeper than {@code depth} (a self-containing alias does). */
  private static boolean deeperThan(Object value, int depth) {
    return deeperThan(value, depth, new java.util.IdentityHashMap<>());
  }

  /** {@code checked}: containers already found shallow enough with that much depth left. */
  private static boolean deeperThan(
      Object value, int depth, java.util.IdentityHashMap<Object, Integer> checked) {
    if (!(value instanceof Map<?, ?>) && !(value instanceof List<?>)) {
      return false;
    }
    if (depth < 0) {
      return true;
    }
    Integer before = checked.get(value);
    if (before != null && before >= depth) {
      return false;
    }
    if (value instanceof Map<?, ?> map) {
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        if (deeperThan(entry.getKey(), depth - 1, checked)
            || deeperThan(entry.getValue(), depth - 1, checked)) {
          return true;
        }
      }
    } else {
      for (Object element : (List<?>) value) {
        if (deeperThan(element, depth - 1, checked)) {
          return true;
        }
      }
    }
    checked.put(value, depth);
    return false;
  }

  /** The same file with only the cases of these names (all of them when none is given). */
  public ExchangeFile only(java.util.Set<String> names) {
    if (names.isEmpty()) {
      return this;
    }
    return new ExchangeFile(
        path,
        mapping,
        vars,
        secrets,
        cases.stream().filter(c -> names.contains(c.name())).toList());
  }

  /** Every exchange of every case: what {@code serve --replay} answers from. */
  public List<RecordedExchange> allExchanges() {
    List<RecordedExchange> all = new ArrayList<>();
    cases.forEach(c -> all.addAll(c.exchanges()));
    return all;
  }

  @SuppressWarnings("unchecked")
  private static ReplayCase readCase(Path path, Map<String, Object> c, int index)
      throws IOException {
    String where = "cases[" + index + "]";
    allowOnly(c, CASE_KEYS, path, where);
    List<RecordedExchange> exchanges = new ArrayList<>();
    int i = 0;
    for (Object e : list(c.get("exchanges"), path, where + ".exchanges")) {
      String at = where + ".exchanges[" + i++ + "]";
      exchanges.add(readExchange(path, map(e, path, at), at));
    }
    Map<String, Object> expect = map(c.get("expect"), path, where + ".expect");
    allowOnly(expect, EXPECT_KEYS, path, where + ".expect");
    if (expect.containsKey("parameters") && expect.containsKey("error")) {
      throw new IOException(path + ": " + where + ".expect holds both 'parameters' and 'error'");
    }
    List<Map<String, Object>> parameters = null;
    Integer status = null;
    String message = null;
    if (expect.containsKey("parameters")) {
      parameters =
          (List<Map<String, Object>>)
              (List<?>) list(expect.get("parameters"), path, where + ".expect.parameters");
    } else if (expect.containsKey("error")) {
      Map<String, Object> error = map(expect.get("error"), path, where + ".expect.error");
      allowOnly(error, ERROR_KEYS, path, where + ".expect.error");
      status = number(error.get("status"), path, where + ".expect.error.status");
      message = error.get("message") == null ? null : error.get("message").toString();
    } else {
      throw new IOException(path + ": " + where + ".expect needs 'parameters' or 'error'");
    }
    Object input = c.get("input");
    Integer baseline =
        c.get("baseline") == null ? null : number(c.get("baseline"), path, where + ".baseline");
    if (baseline != null && baseline < 0) {
      throw new IOException(path + ": " + where + ".baseline must be 0 or more");
    }
    return new ReplayCase(
        c.get("name") == null ? where : c.get("name").toString(),
        c.get("applicationSetName") == null ? "test" : c.get("applicationSetName").toString(),
        input == null ? Map.of() : map(input, path, where + ".input"),
        List.copyOf(exchanges),
        parameters,
        status,
        message,
        baseline);
  }

  private static RecordedExchange readExchange(Path path, Map<String, Object> e, String where)
      throws IOException {
    allowOnly(e, EXCHANGE_KEYS, path, where);
    Map<String, Object> request = map(e.get("request"), path, where + ".request");
    Map<String, Object> response = map(e.get("response"), path, where + ".response");
    allowOnly(request, REQUEST_KEYS, path, where + ".request");
    allowOnly(response, RESPONSE_KEYS, path, where + ".response");
    if (request.get("url") == null) {
      throw new IOException(path + ": " + where + ".request needs 'url'");
    }
    if (request.get("body") != null && request.get("form") != null) {
      throw new IOException(path + ": " + where + ".request holds both 'body' and 'form'");
    }
    if (response.get("body") != null && response.get("bodyFile") != null) {
      throw new IOException(path + ": " + where + ".response holds both 'body' and 'bodyFile'");
    }
    byte[] body = new byte[0];
    Map<String, String> responseHeaders =
        strings(response.get("headers"), path, where + ".response.headers");
    if (response.get("bodyFile") != null) {
      Path bodyFile = path.resolveSibling(response.get("bodyFile").toString());
      try {
        body = BoundedFiles.readBytes(bodyFile, BoundedFiles.TEST_BYTES);
      } catch (IOException x) {
        throw new IOException(
            path + ": " + where + ".response.bodyFile " + bodyFile + ": " + BoundedFiles.why(x));
      }
    } else if (response.get("body") instanceof String text) {
      body = text.getBytes(StandardCharsets.UTF_8);
    } else if (response.get("body") != null) {
      try {
        body = JsonCodec.writeBytes(response.get("body"));
      } catch (IllegalStateException x) {
        throw new IOException(path + ": " + where + ".response.body cannot be written as JSON");
      }
      // Data written as YAML is served as the JSON it is, as a real API would label it.
      if (responseHeaders.keySet().stream().noneMatch("Content-Type"::equalsIgnoreCase)) {
        responseHeaders = new java.util.LinkedHashMap<>(responseHeaders);
        responseHeaders.put("Content-Type", "application/json");
      }
    }
    Object optional = e.getOrDefault("optional", false);
    if (!(optional instanceof Boolean)) {
      throw new IOException(path + ": " + where + ".optional must be true or false");
    }
    Object status = response.getOrDefault("status", 200);
    Map<String, Object> form = form(request.get("form"), path, where + ".request.form");
    return new RecordedExchange(
        String.valueOf(request.getOrDefault("method", "GET")).toUpperCase(Locale.ROOT),
        String.valueOf(request.get("url")),
        strings(request.get("headers"), path, where + ".request.headers"),
        request.get("body"),
        form,
        number(status, path, where + ".response.status"),
        responseHeaders,
        body,
        (Boolean) optional);
  }

  /** A form's fields: each a text (a number or boolean reads as its text) or a list of them. */
  private static Map<String, Object> form(Object value, Path path, String where)
      throws IOException {
    if (value == null) {
      return null;
    }
    Map<String, Object> form = map(value, path, where);
    for (Map.Entry<String, Object> field : form.entrySet()) {
      List<?> values =
          field.getValue() instanceof List<?> list
              ? list
              : java.util.Collections.singletonList(field.getValue());
      for (Object v : values) {
        if (v instanceof Map<?, ?> || v instanceof List<?>) {
          throw new IOException(
              path + ": " + where + "." + field.getKey() + " must be a text or a list of texts");
        }
      }
    }
    return form;
  }

  /** Refuses a key this part of the file does not have, naming the closest one. */
  private static void allowOnly(Map<?, ?> part, List<String> keys, Path path, String where)
      throws IOException {
    for (Object key : part.keySet()) {
      if (!keys.contains(String.valueOf(key))) {
        throw new IOException(
            path
                + ": "
                + where
                + ": unknown key '"
                + key
                + "'"
                + Suggestions.hint(String.valueOf(key), keys));
      }
    }
  }

  private static int number(Object value, Path path, String where) throws IOException {
    if (!(value instanceof Number n)) {
      throw new IOException(path + ": " + where + " must be a number, not " + value);
    }
    return n.intValue();
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> map(Object value, Path path, String where) throws IOException {
    if (value == null) {
      return Map.of();
    }
    if (!(value instanceof Map)) {
      throw new IOException(path + ": " + where + " must be a map");
    }
    return (Map<String, Object>) value;
  }

  private static List<?> list(Object value, Path path, String where) throws IOException {
    if (value == null) {
      return List.of();
    }
    if (!(value instanceof List<?> list)) {
      throw new IOException(path + ": " + where + " must be a list");
    }
    return list;
  }

  private static Map<String, String> strings(Object value, Path path, String where)
      throws IOException {
    Map<String, String> out = new LinkedHashMap<>();
    map(value, path, where).forEach((k, v) -> out.put(k, v == null ? "" : v.toString()));
    return out;
  }
}
