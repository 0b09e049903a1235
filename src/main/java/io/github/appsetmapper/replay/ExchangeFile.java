package io.github.appsetmapper.replay;

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

  public static ExchangeFile read(Path path) throws IOException {
    String content;
    try {
      content = BoundedFiles.readText(path, YamlLimits.TEST.fileBytes());
    } catch (IOException e) {
      throw new IOException(path + ": " + BoundedFiles.why(e));
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
      loaded = documents.isEmpty() ? null : YamlLimits.TEST.data(documents.get(0));
    } catch (RuntimeException e) {
      throw new IOException(path + ": not valid YAML: " + e.getMessage());
    }
    if (!(loaded instanceof Map<?, ?> top)) {
      throw new IOException(path + ": must be a YAML map with 'cases'");
    }
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
    List<RecordedExchange> exchanges = new ArrayList<>();
    int i = 0;
    for (Object e : list(c.get("exchanges"), path, where + ".exchanges")) {
      exchanges.add(readExchange(path, map(e, path, where + ".exchanges[" + i++ + "]"), where));
    }
    Map<String, Object> expect = map(c.get("expect"), path, where + ".expect");
    List<Map<String, Object>> parameters = null;
    Integer status = null;
    String message = null;
    if (expect.containsKey("parameters")) {
      parameters =
          (List<Map<String, Object>>)
              (List<?>) list(expect.get("parameters"), path, where + ".expect.parameters");
    } else if (expect.containsKey("error")) {
      Map<String, Object> error = map(expect.get("error"), path, where + ".expect.error");
      status = number(error.get("status"), path, where + ".expect.error.status");
      message = error.get("message") == null ? null : error.get("message").toString();
    } else {
      throw new IOException(path + ": " + where + ".expect needs 'parameters' or 'error'");
    }
    Object input = c.get("input");
    return new ReplayCase(
        c.get("name") == null ? where : c.get("name").toString(),
        c.get("applicationSetName") == null ? "test" : c.get("applicationSetName").toString(),
        input == null ? Map.of() : map(input, path, where + ".input"),
        List.copyOf(exchanges),
        parameters,
        status,
        message);
  }

  private static RecordedExchange readExchange(Path path, Map<String, Object> e, String where)
      throws IOException {
    Map<String, Object> request = map(e.get("request"), path, where + ".request");
    Map<String, Object> response = map(e.get("response"), path, where + ".response");
    byte[] body = new byte[0];
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
    }
    Object status = response.getOrDefault("status", 200);
    return new RecordedExchange(
        String.valueOf(request.getOrDefault("method", "GET")).toUpperCase(),
        String.valueOf(request.get("url")),
        strings(request.get("headers"), path, where + ".request.headers"),
        request.get("body"),
        number(status, path, where + ".response.status"),
        strings(response.get("headers"), path, where + ".response.headers"),
        body);
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
