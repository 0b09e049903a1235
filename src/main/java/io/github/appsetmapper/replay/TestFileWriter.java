package io.github.appsetmapper.replay;

import io.github.appsetmapper.config.YamlLimits;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;
import org.yaml.snakeyaml.representer.Represent;
import org.yaml.snakeyaml.representer.Representer;

/**
 * Writes a recorded case as test-file YAML ({@code record}): a new file (header, {@code mapping},
 * {@code vars}, {@code secrets}, {@code cases}), or the case appended to an existing file's {@code
 * cases}, its text and comments kept as they are. Response bodies are written as text (JSON
 * pretty-printed) so that they replay byte for byte; one larger than {@link #INLINE_BYTES}, or one
 * that is not UTF-8, goes to a file under {@code testdata/<test file>/} beside the test file.
 */
public final class TestFileWriter {
  /** The most a body written into the test file may hold; larger ones go to a body file. */
  static final int INLINE_BYTES = 16 * 1024;

  /** One case to write: the exchanges, and the expected parameters or error. */
  public record Case(
      String name,
      String applicationSetName,
      Map<String, Object> input,
      List<RecordedExchange> exchanges,
      List<Map<String, Object>> parameters,
      Integer errorStatus,
      String errorMessage) {

    /** This case with the exchanges at {@code positions} optional. */
    public Case withOptional(java.util.Set<Integer> positions) {
      List<RecordedExchange> marked = new ArrayList<>();
      for (int i = 0; i < exchanges.size(); i++) {
        marked.add(positions.contains(i) ? exchanges.get(i).optional(true) : exchanges.get(i));
      }
      return new Case(
          name, applicationSetName, input, marked, parameters, errorStatus, errorMessage);
    }
  }

  private final Path testFile;
  private final List<Path> written = new ArrayList<>();

  public TestFileWriter(Path testFile) {
    this.testFile = testFile;
  }

  /** The body files written so far (to remove them again when the case is not kept). */
  public List<Path> bodyFiles() {
    return List.copyOf(written);
  }

  /** A whole new test file holding one case. */
  public String newFile(
      String header,
      String mapping,
      Map<String, String> vars,
      Map<String, String> secrets,
      Case recorded)
      throws IOException {
    Map<String, Object> top = new LinkedHashMap<>();
    top.put("mapping", mapping);
    if (!vars.isEmpty()) {
      top.put("vars", new LinkedHashMap<>(vars));
    }
    if (!secrets.isEmpty()) {
      top.put("secrets", new LinkedHashMap<>(secrets));
    }
    top.put("cases", List.of(caseData(recorded)));
    return header + yaml().dump(top);
  }

  /**
   * {@code existing} with the case appended to its {@code cases}; null when its {@code cases} is
   * not a block list that ends the file (then the text cannot be appended to safely).
   */
  public String appended(String existing, Case recorded) throws IOException {
    List<Node> documents = YamlLimits.TEST.documents(existing);
    Node root = documents.size() == 1 ? documents.get(0) : null;
    if (!(root instanceof MappingNode top) || top.getValue().isEmpty()) {
      return null;
    }
    NodeTuple last = top.getValue().get(top.getValue().size() - 1);
    if (!(last.getKeyNode() instanceof ScalarNode key)
        || !key.getValue().equals("cases")
        || !(last.getValueNode() instanceof SequenceNode cases)
        || cases.getFlowStyle() != DumperOptions.FlowStyle.BLOCK
        || cases.getValue().isEmpty()) {
      return null;
    }
    // The first case's "- " starts two columns before its first key.
    int dash = cases.getValue().get(0).getStartMark().getColumn() - 2;
    if (dash < 0) {
      return null;
    }
    String item = yaml().dump(List.of(caseData(recorded)));
    StringBuilder out = new StringBuilder(existing);
    if (!existing.endsWith("\n")) {
      out.append('\n');
    }
    out.append('\n');
    // The dumper indents a root list too: move its lines so that its "- " lands under the others.
    int dumped = item.indexOf('-');
    String indent = " ".repeat(dash);
    item.lines()
        .forEach(
            line ->
                out.append(
                        line.isBlank()
                            ? ""
                            : indent + line.substring(Math.min(dumped, leading(line))))
                    .append('\n'));
    return out.toString();
  }

  private static int leading(String line) {
    int i = 0;
    while (i < line.length() && line.charAt(i) == ' ') {
      i++;
    }
    return i;
  }

  private Map<String, Object> caseData(Case c) throws IOException {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("name", c.name());
    if (!c.applicationSetName().equals("test")) {
      out.put("applicationSetName", c.applicationSetName());
    }
    if (!c.input().isEmpty()) {
      out.put("input", c.input());
    }
    List<Object> exchanges = new ArrayList<>();
    int n = 0;
    for (RecordedExchange e : c.exchanges()) {
      exchanges.add(exchangeData(e, c.name(), ++n));
    }
    out.put("exchanges", exchanges);
    Map<String, Object> expect = new LinkedHashMap<>();
    if (c.parameters() != null) {
      expect.put("parameters", c.parameters());
    } else {
      Map<String, Object> error = new LinkedHashMap<>();
      error.put("status", c.errorStatus());
      error.put("message", c.errorMessage());
      expect.put("error", error);
    }
    out.put("expect", expect);
    return out;
  }

  private Map<String, Object> exchangeData(RecordedExchange e, String caseName, int n)
      throws IOException {
    Map<String, Object> request = new LinkedHashMap<>();
    request.put("method", e.method());
    request.put("url", e.url());
    if (!e.headers().isEmpty()) {
      request.put("headers", e.headers());
    }
    if (e.form() != null) {
      request.put("form", e.form());
    } else if (e.body() != null) {
      request.put("body", e.body());
    }
    Map<String, Object> response = new LinkedHashMap<>();
    response.put("status", e.status());
    if (!e.responseHeaders().isEmpty()) {
      response.put("headers", e.responseHeaders());
    }
    byte[] body = e.responseBody();
    if (body.length > 0) {
      String text = new String(body, StandardCharsets.UTF_8);
      boolean utf8 = java.util.Arrays.equals(text.getBytes(StandardCharsets.UTF_8), body);
      if (utf8 && body.length <= INLINE_BYTES) {
        response.put("body", text);
      } else {
        response.put("bodyFile", bodyFile(caseName, n, body, utf8));
      }
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("request", request);
    out.put("response", response);
    if (e.optional()) {
      out.put("optional", true);
    }
    return out;
  }

  /** Writes a body beside the test file; returns its path relative to the test file. */
  private String bodyFile(String caseName, int n, byte[] body, boolean text) throws IOException {
    String stem = testFile.getFileName().toString().replaceFirst("\\.test\\.ya?ml$", "");
    String slug = io.github.appsetmapper.expr.Slug.slug(caseName, 40);
    String name =
        (slug.isEmpty() ? "case" : slug)
            + "-"
            + n
            + (text && body.length > 0 && (body[0] == '{' || body[0] == '[') ? ".json" : ".txt");
    String relative = "testdata/" + stem + "/" + name;
    Path file = testFile.resolveSibling(relative);
    if (Files.exists(file)) {
      throw new IOException(file + " exists already; choose another case name");
    }
    Files.createDirectories(file.getParent());
    Files.write(file, body);
    written.add(file);
    return relative;
  }

  private static Yaml yaml() {
    DumperOptions options = new DumperOptions();
    options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
    options.setIndent(2);
    options.setIndicatorIndent(2);
    options.setIndentWithIndicator(true);
    options.setSplitLines(false);
    options.setWidth(100);
    return new Yaml(new TextRepresenter(options), options);
  }

  /** Texts of several lines as literal blocks; decimals and big integers as plain numbers. */
  private static final class TextRepresenter extends Representer {
    TextRepresenter(DumperOptions options) {
      super(options);
      Represent plain = representers.get(String.class);
      representers.put(
          String.class,
          data ->
              ((String) data).indexOf('\n') >= 0
                  ? representScalar(Tag.STR, (String) data, DumperOptions.ScalarStyle.LITERAL)
                  : plain.representData(data));
      representers.put(
          BigDecimal.class,
          data -> {
            String number = io.github.appsetmapper.json.Numbers.plain((BigDecimal) data);
            return representScalar(number.matches("-?[0-9]+") ? Tag.INT : Tag.FLOAT, number);
          });
      representers.put(BigInteger.class, data -> representScalar(Tag.INT, data.toString()));
    }
  }
}
