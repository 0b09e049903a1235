package io.github.appsetmapper.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.appsetmapper.config.MappingSchema;
import io.github.appsetmapper.config.MappingSources;
import io.github.appsetmapper.config.Problem;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The test-file JSON Schema and the reader of test files cannot drift: each object of the schema
 * has exactly the reader's keys and refuses others, the jar carries the repository's file, every
 * shipped test file passes both, and known-bad files fail both.
 */
class TestFileSchemaTest {
  private static final Path FILE = Path.of("schema/mapping-test-v1.schema.json");

  private static final Map<String, List<String>> BLOCKS = new LinkedHashMap<>();

  static {
    BLOCKS.put("/properties", ExchangeFile.TOP_KEYS);
    BLOCKS.put("/definitions/case/properties", ExchangeFile.CASE_KEYS);
    BLOCKS.put("/definitions/exchange/properties", ExchangeFile.EXCHANGE_KEYS);
    BLOCKS.put("/definitions/request/properties", ExchangeFile.REQUEST_KEYS);
    BLOCKS.put("/definitions/response/properties", ExchangeFile.RESPONSE_KEYS);
    BLOCKS.put("/definitions/expect/properties", ExchangeFile.EXPECT_KEYS);
    BLOCKS.put("/definitions/expect/properties/error/properties", ExchangeFile.ERROR_KEYS);
  }

  private static JsonNode schema() throws IOException {
    return new ObjectMapper().readTree(FILE.toFile());
  }

  @Test
  void everyObjectHasExactlyTheReadersKeys() throws IOException {
    JsonNode schema = schema();
    BLOCKS.forEach(
        (pointer, keys) -> {
          List<String> names = new ArrayList<>();
          schema.at(pointer).fieldNames().forEachRemaining(names::add);
          assertThat(names).as(pointer).containsExactlyInAnyOrderElementsOf(keys);
        });
  }

  @Test
  void everyPropertiesBlockIsCheckedHereAndRefusesOtherKeys() throws IOException {
    JsonNode schema = schema();
    Set<String> found = new TreeSet<>();
    collect(schema, "", found);
    assertThat(found).isEqualTo(new TreeSet<>(BLOCKS.keySet()));
    for (String pointer : BLOCKS.keySet()) {
      String object = pointer.substring(0, pointer.length() - "/properties".length());
      JsonNode node = object.isEmpty() ? schema : schema.at(object);
      assertThat(node.get("additionalProperties").asBoolean(true)).as(object).isFalse();
    }
  }

  private static void collect(JsonNode node, String pointer, Set<String> into) {
    if (node.isObject()) {
      for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> field = it.next();
        String child = pointer + "/" + field.getKey();
        if (field.getKey().equals("properties")
            && field.getValue().isObject()
            && !pointer.endsWith("/not")) {
          into.add(child);
        }
        collect(field.getValue(), child, into);
      }
    } else if (node.isArray()) {
      for (int i = 0; i < node.size(); i++) {
        collect(node.get(i), pointer + "/" + i, into);
      }
    }
  }

  @Test
  void theJarCarriesTheRepositorysFile() throws IOException {
    try (InputStream in =
        MappingSchema.class.getResourceAsStream(MappingSchema.TEST_FILE_RESOURCE)) {
      assertThat(in).isNotNull();
      assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8))
          .isEqualTo(Files.readString(FILE));
    }
  }

  @TestFactory
  Stream<DynamicTest> everyShippedTestFilePassesTheSchemaAndTheReader() throws IOException {
    List<Path> files = new ArrayList<>();
    for (String root : List.of("mappings", "samples", "src/test/resources/golden")) {
      try (Stream<Path> walk = Files.walk(Path.of(root))) {
        walk.filter(MappingSources::isTestFile).sorted().forEach(files::add);
      }
    }
    assertThat(files).hasSizeGreaterThan(5);
    return files.stream()
        .map(
            file ->
                DynamicTest.dynamicTest(
                    file.toString(),
                    () -> {
                      assertThat(
                              MappingSchema.checkTestFile(file.toString(), Files.readString(file)))
                          .isEmpty();
                      assertThat(ExchangeFile.read(file).cases()).isNotEmpty();
                    }));
  }

  /** Known-bad files: the schema's exact problems, and the reader's one line. */
  private static final Map<String, List<String>> BAD = new LinkedHashMap<>();

  static {
    BAD.put(
        "cases:\n  - nmae: x\n    expect: {parameters: []}\n",
        List.of(
            "bad.test.yaml:2:5 cases[0].nmae: schema: unknown key 'nmae'",
            "cases[0]: unknown key 'nmae'; did you mean 'name'?"));
    BAD.put(
        "cases:\n  - exchanges:\n      - request: {url: http://x, header: {A: b}}\n"
            + "    expect: {parameters: []}\n",
        List.of(
            "bad.test.yaml:3:34 cases[0].exchanges[0].request.header: schema: unknown key 'header'",
            "cases[0].exchanges[0].request: unknown key 'header'; did you mean 'headers'?"));
    BAD.put(
        "cases:\n  - exchanges:\n      - request: {url: http://x, body: {a: 1}, form: {a: 1}}\n"
            + "    expect: {parameters: []}\n",
        List.of(
            "bad.test.yaml:3:18 cases[0].exchanges[0].request: schema: cannot hold both 'body' and"
                + " 'form'",
            "cases[0].exchanges[0].request holds both 'body' and 'form'"));
    BAD.put(
        "cases:\n  - exchanges:\n      - request: {method: GET}\n    expect: {parameters: []}\n",
        List.of(
            "bad.test.yaml:3:18 cases[0].exchanges[0].request: schema: missing required key 'url'",
            "cases[0].exchanges[0].request needs 'url'"));
    BAD.put(
        "cases:\n  - expect: {parameters: [], error: {status: 502}}\n",
        List.of(
            "bad.test.yaml:2:13 cases[0].expect: schema: must hold exactly one of parameters, error",
            "cases[0].expect holds both 'parameters' and 'error'"));
    BAD.put(
        "cases:\n  - exchanges:\n      - request: {url: http://x, form: {a: {b: c}}}\n"
            + "    expect: {parameters: []}\n",
        List.of(
            "bad.test.yaml:3:44 cases[0].exchanges[0].request.form.a: schema: object found,"
                + " [string, number, boolean, null, array] expected",
            "cases[0].exchanges[0].request.form.a must be a text or a list of texts"));
    BAD.put(
        "mapping: x\nsecret: {a: b}\ncases: []\n",
        List.of(
            "bad.test.yaml:2:1 secret: schema: unknown key 'secret'",
            "the file: unknown key 'secret'; did you mean 'secrets'?"));
  }

  @TestFactory
  Stream<DynamicTest> knownBadFilesFailTheSchemaAndTheReader(@TempDir Path dir) {
    List<DynamicTest> tests = new ArrayList<>();
    int i = 0;
    for (Map.Entry<String, List<String>> c : BAD.entrySet()) {
      Path file = dir.resolve("bad-" + i++ + ".test.yaml");
      tests.add(
          DynamicTest.dynamicTest(
              c.getValue().get(1),
              () -> {
                List<String> problems =
                    MappingSchema.checkTestFile("bad.test.yaml", c.getKey()).stream()
                        .map(Problem::toString)
                        .toList();
                assertThat(problems).containsExactly(c.getValue().get(0));
                Files.writeString(file, c.getKey());
                // The reader checks the schema first (every command reading a test file refuses
                // what `test` refuses, with its line); its own checks stay behind it.
                assertThatThrownBy(() -> ExchangeFile.read(file))
                    .isInstanceOf(ExchangeFile.SchemaMismatch.class)
                    .hasMessage(
                        file
                            + ": does not match the test-file schema ("
                            + ExchangeFile.SCHEMA_FILE
                            + "): "
                            + c.getValue().get(0).replace("bad.test.yaml", file.toString()));
              }));
    }
    return tests.stream();
  }
}
