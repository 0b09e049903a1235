package io.github.appsetmapper.config;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.appsetmapper.compile.CompileOptions;
import io.github.appsetmapper.compile.MappingLoader;
import io.github.appsetmapper.secret.Redactor;
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
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The JSON Schema and the loader cannot drift: the schema's keys are exactly the parser's and the
 * parser takes each of them, every shipped mapping passes both, and known-bad files fail both.
 */
class MappingSchemaTest {
  private static final Path FILE = Path.of("schema/mapping-v1.schema.json");
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Each "properties" block of the schema, the parser's keys for it, and a probe document. */
  private record Block(String pointer, List<String> parserKeys, String probe) {}

  private static final String BASE = "name: probe\nparameters: {a: b}\n";

  private static final List<Block> BLOCKS =
      List.of(
          new Block("/properties", MappingParser.TOP_KEYS, BASE + "%s: x\n"),
          new Block(
              "/definitions/input/properties",
              MappingParser.INPUT_KEYS,
              BASE + "input:\n  i:\n    %s: x\n"),
          new Block(
              "/definitions/var/properties",
              MappingParser.VAR_KEYS,
              BASE + "vars:\n  v:\n    %s: x\n"),
          new Block(
              "/definitions/secret/properties",
              MappingParser.SECRET_KEYS,
              BASE + "secrets:\n  s:\n    %s: x\n"),
          new Block(
              "/definitions/list/properties", MappingParser.LIST_KEYS, BASE + "list:\n  %s: x\n"),
          new Block(
              "/definitions/enrich/properties",
              MappingParser.ENRICH_KEYS,
              BASE + "enrich:\n  e:\n    %s: x\n"),
          new Block(
              "/definitions/enrich/properties/forEach/properties",
              EnrichSpec.ForEach.KEYS,
              BASE + "enrich:\n  e:\n    forEach:\n      %s: x\n"),
          new Block(
              "/properties/explode/properties",
              ExplodeSpec.KEYS,
              BASE
                  + "list:\n  request: {url: 'http://h.example/'}\n  items: $[*]\n"
                  + "explode:\n  %s: x\n"),
          new Block(
              "/definitions/request/properties",
              RequestParser.REQUEST_KEYS,
              BASE + "list:\n  request:\n    %s: x\n"),
          new Block(
              "/definitions/defaults/properties",
              RequestParser.DEFAULTS_KEYS,
              BASE + "defaults:\n  %s: x\n"),
          new Block(
              "/definitions/auth/properties",
              RequestParser.AUTH_KEYS,
              BASE + "defaults:\n  auth:\n    %s: {}\n"),
          new Block(
              "/definitions/auth/properties/bearer/properties",
              AuthSpec.Bearer.KEYS,
              BASE + "defaults:\n  auth:\n    bearer:\n      %s: x\n"),
          new Block(
              "/definitions/auth/properties/basic/properties",
              AuthSpec.Basic.KEYS,
              BASE + "defaults:\n  auth:\n    basic:\n      %s: x\n"),
          new Block(
              "/definitions/auth/properties/header/properties",
              AuthSpec.Header.KEYS,
              BASE + "defaults:\n  auth:\n    header:\n      %s: x\n"),
          new Block(
              "/definitions/secretRef/properties",
              RequestParser.SECRET_REF_KEYS,
              BASE + "defaults:\n  auth:\n    basic:\n      password:\n        %s: x\n"),
          new Block(
              "/definitions/paginate/properties",
              RequestParser.PAGINATE_KEYS,
              BASE + "list:\n  paginate:\n    %s: x\n"),
          new Block(
              "/definitions/paginate/properties/cursor/properties",
              RequestParser.CURSOR_KEYS,
              BASE + "list:\n  paginate:\n    cursor:\n      %s: x\n"),
          new Block(
              "/definitions/paginate/properties/page/properties",
              RequestParser.PAGE_KEYS,
              BASE + "list:\n  paginate:\n    page:\n      %s: x\n"),
          new Block(
              "/definitions/cache/properties",
              RequestParser.CACHE_KEYS,
              BASE + "defaults:\n  cache:\n    %s: x\n"),
          new Block(
              "/definitions/tls/properties",
              RequestParser.TLS_KEYS,
              BASE + "defaults:\n  tls:\n    %s: x\n"),
          new Block(
              "/definitions/auth/properties/oauth2/properties",
              AuthSpec.OAuth2.KEYS,
              BASE + "defaults:\n  auth:\n    oauth2:\n      %s: x\n"),
          new Block(
              "/definitions/auth/properties/login/properties",
              AuthSpec.Login.KEYS,
              BASE + "defaults:\n  auth:\n    login:\n      %s: x\n"),
          new Block(
              "/definitions/auth/properties/githubApp/properties",
              AuthSpec.GithubApp.KEYS,
              BASE + "defaults:\n  auth:\n    githubApp:\n      %s: x\n"),
          new Block(
              "/definitions/auth/properties/registry/properties",
              AuthSpec.Registry.KEYS,
              BASE + "defaults:\n  auth:\n    registry:\n      %s: x\n"));

  private static JsonNode schema() throws Exception {
    return JSON.readTree(FILE.toFile());
  }

  private static List<String> names(JsonNode properties) {
    List<String> out = new ArrayList<>();
    properties.fieldNames().forEachRemaining(out::add);
    return out;
  }

  /** The parser's problems with a document, as text; none when it parses. */
  private static List<String> parse(String yaml) {
    try {
      MappingParser.parse("probe.yaml", yaml);
      return List.of();
    } catch (MappingException e) {
      return e.problems().stream().map(Problem::toString).toList();
    }
  }

  @Nested
  class Keys {
    @TestFactory
    Stream<DynamicTest> everyBlockHasExactlyTheParsersKeys() throws Exception {
      JsonNode schema = schema();
      return BLOCKS.stream()
          .map(
              block ->
                  DynamicTest.dynamicTest(
                      block.pointer(),
                      () ->
                          assertThat(names(schema.at(block.pointer())))
                              .as(block.pointer())
                              .containsExactlyInAnyOrderElementsOf(block.parserKeys())));
    }

    @Test
    void everyPropertiesBlockOfTheSchemaIsCheckedHere() throws Exception {
      Set<String> found = new TreeSet<>();
      collect(schema(), "", found);
      Set<String> checked = new TreeSet<>();
      BLOCKS.forEach(b -> checked.add(b.pointer()));
      assertThat(found).isEqualTo(checked);
    }

    private void collect(JsonNode node, String pointer, Set<String> into) {
      if (node.isObject()) {
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
          Map.Entry<String, JsonNode> field = it.next();
          String child = pointer + "/" + field.getKey();
          if (field.getKey().equals("properties") && field.getValue().isObject()) {
            // "if" and "not" clauses name properties only to test them; they declare no keys.
            if (!pointer.endsWith("/if") && !pointer.endsWith("/not")) {
              into.add(child);
            }
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
    void everyObjectRefusesUnknownKeys() throws Exception {
      JsonNode schema = schema();
      for (Block block : BLOCKS) {
        String object =
            block.pointer().substring(0, block.pointer().length() - "/properties".length());
        JsonNode node = object.isEmpty() ? schema : schema.at(object);
        assertThat(node.get("additionalProperties")).as(object).isNotNull();
        assertThat(node.get("additionalProperties").asBoolean(true)).as(object).isFalse();
      }
    }

    /**
     * Every key of the schema is one the parser takes. (The schema once reserved keys for later
     * versions, refused by the parser as "not supported yet"; none is left, and a key can no longer
     * be reserved: the parser's keys and the schema's are the same set, above.)
     */
    @TestFactory
    Stream<DynamicTest> everySchemaKeyIsOneTheParserTakes() throws Exception {
      JsonNode schema = schema();
      List<DynamicTest> tests = new ArrayList<>();
      for (Block block : BLOCKS) {
        JsonNode properties = schema.at(block.pointer());
        for (String key : names(properties)) {
          tests.add(
              DynamicTest.dynamicTest(
                  block.pointer() + "/" + key,
                  () -> {
                    assertThat(properties.get(key).get("not"))
                        .as("a key the schema refuses outright")
                        .isNull();
                    assertThat(parse(block.probe().formatted(key)))
                        .noneMatch(p -> p.contains("unknown key '" + key + "'"));
                  }));
        }
      }
      return tests.stream();
    }
  }

  @Nested
  class Files_ {
    @Test
    void theJarCarriesTheRepositorysFile() throws Exception {
      try (InputStream in = MappingSchema.class.getResourceAsStream(MappingSchema.RESOURCE)) {
        assertThat(in).isNotNull();
        assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8))
            .isEqualTo(Files.readString(FILE));
      }
    }

    @TestFactory
    Stream<DynamicTest> everyShippedMappingPassesTheSchema() throws Exception {
      List<Path> files = new ArrayList<>();
      for (String root : List.of("mappings", "samples", "src/test/resources/golden")) {
        try (Stream<Path> walk = Files.walk(Path.of(root))) {
          walk.filter(p -> MappingSources.isMappingFile(p) && !p.toString().contains("argocd"))
              .sorted()
              .forEach(files::add);
        }
      }
      assertThat(files).hasSizeGreaterThan(3);
      return files.stream()
          .map(
              file ->
                  DynamicTest.dynamicTest(
                      file.toString(),
                      () ->
                          assertThat(MappingSchema.check(file.toString(), Files.readString(file)))
                              .isEmpty()));
    }
  }

  /** Known-bad documents: the schema's exact problems, and the loader refuses them too. */
  @Nested
  class KnownBad {
    private static final Map<String, List<String>> CASES = new LinkedHashMap<>();

    static {
      CASES.put(
          "name: bad\nparamters: {a: b}\n",
          List.of(
              "bad.yaml:1:1: schema: missing required key 'parameters'",
              "bad.yaml:2:1 paramters: schema: unknown key 'paramters'"));
      CASES.put(
          "name: Bad_Name\nparameters: {a: b}\n",
          List.of(
              "bad.yaml:1:7 name: schema: does not match the regex pattern"
                  + " ^[a-z0-9]([a-z0-9-]*[a-z0-9])?$"));
      CASES.put(
          "name: bad\nparameters: {}\n",
          List.of("bad.yaml:2:13 parameters: schema: must have at least 1 properties"));
      CASES.put(
          "name: bad\nparameters: {generator: item}\nlist:\n  request: {url: \"http://x\"}\n  items: $[*]\n",
          List.of(
              "bad.yaml:2:13 parameters: schema: property 'generator' name is not valid:"
                  + " must not be valid to the schema {\"enum\":[\"generator\",\"values\"]}"));
      CASES.put(
          "name: bad\nparameters: {a: b}\nlist:\n  request: {url: \"http://x\", cache: {}}\n",
          List.of(
              "bad.yaml:4:3 list: schema: missing required key 'items'",
              "bad.yaml:4:37 list.request.cache: schema: missing required key 'ttl'"));
      CASES.put(
          "name: bad\nparameters: {a: b}\nlist:\n  request: {url: \"http://x\", method: FETCH,"
              + " timeout: 0s}\n  items: $[*]\n  paginate: {linkHeader: next, next: $.n}\n",
          List.of(
              "bad.yaml:4:38 list.request.method: schema: does not have a value in the enumeration"
                  + " [\"GET\", \"HEAD\", \"POST\", \"PUT\", \"PATCH\", \"DELETE\", \"OPTIONS\", \"get\","
                  + " \"head\", \"post\", \"put\", \"patch\", \"delete\", \"options\"]",
              "bad.yaml:4:54 list.request.timeout: schema: does not match the regex pattern"
                  + " ^\\s*(?=.*[1-9])([0-9]+(ms|s|m|h))+\\s*$",
              "bad.yaml:6:13 list.paginate: schema: must hold exactly one of linkHeader, next, cursor,"
                  + " page"));
      CASES.put(
          "name: bad\nparameters: {a: e}\nsecrets:\n  s: {path: /x}\nenrich:\n  e:\n"
              + "    request: {url: \"http://x\", auth: {bearer: {secret: s}, header: {name: X}}}\n"
              + "    select: $.a\n    value: response.body\n    onMissing: skip\n",
          List.of(
              "bad.yaml:4:6 secrets.s: schema: needs 'file' or 'env'",
              "bad.yaml:4:7 secrets.s.path: schema: unknown key 'path'",
              "bad.yaml:7:5 enrich.e: schema: cannot hold both 'select' and 'value'",
              "bad.yaml:7:38 enrich.e.request.auth: schema: must hold exactly one of bearer, basic,"
                  + " header, oauth2, login, githubApp, registry",
              "bad.yaml:7:68 enrich.e.request.auth.header: schema: missing required key 'secret'",
              "bad.yaml:10:16 enrich.e.onMissing: schema: does not have a value in the enumeration"
                  + " [\"error\", \"drop\", \"null\", null]"));
      CASES.put(
          "name: bad\nparameters: {a: input.x}\ninput:\n  x: {required: true, default: 1, type: text}\n",
          List.of(
              "bad.yaml:4:6 input.x: schema: cannot hold 'default' here",
              "bad.yaml:4:41 input.x.type: schema: does not have a value in the enumeration"
                  + " [\"string\", \"number\", \"boolean\", \"list\", \"map\", \"any\"]"));
      CASES.put(
          "name: bad\nparameters: {a: b}\nenrich:\n  item: {request: {url: \"http://x\"}}\n",
          List.of(
              "bad.yaml:4:3 enrich: schema: property 'item' name is not valid: must not be valid"
                  + " to the schema {\"enum\":[\"input\",\"applicationSetName\",\"item\",\"vars\","
                  + "\"secret\",\"response\",\"page\"]}"));
      CASES.put(
          "name: bad\nparameters: {a: b}\nkeepTypes: yes\nlimit: -1\nlist:\n  request: {url: \"http://x\"}\n  items: $[*]\n  paginate: {maxPages: 2}\n",
          List.of(
              "bad.yaml:3:12 keepTypes: schema: string found, boolean expected",
              "bad.yaml:4:8 limit: schema: must have a minimum value of 0",
              "bad.yaml:8:13 list.paginate: schema: must hold exactly one of linkHeader, next, cursor,"
                  + " page"));
    }

    static {
      // linkHeader: true loaded, no link had that relation, and only page 1 was read.
      CASES.put(
          "name: bad\nparameters: {a: b}\nlist:\n  request: {url: \"http://x\"}\n  items: $[*]\n"
              + "  paginate: {linkHeader: true}\n",
          List.of(
              "bad.yaml:6:26 list.paginate.linkHeader: schema: boolean found, string expected"));
      CASES.put(
          "name: bad\nparameters: {a: b}\nlist:\n  request: {url: \"http://x\"}\n  items: $[*]\n"
              + "  paginate: {linkHeader: nxt}\n",
          List.of(
              "bad.yaml:6:26 list.paginate.linkHeader: schema: does not match the regex pattern"
                  + " ^(next|[A-Za-z][A-Za-z0-9+.-]*:\\S+)$"));
      CASES.put(
          "name: bad\nparameters: {a: b}\nlist:\n  request:\n    url: \"https://x\"\n"
              + "    retries: 11\n    tls: {insecureSkipVerify: true, caFile: /ca.pem, certFile: /c.pem}\n"
              + "    auth: {registry: {username: bot}}\n  items: $[*]\n"
              + "  paginate: {page: {sizeParam: per_page}}\n",
          List.of(
              "bad.yaml:6:14 list.request.retries: schema: must have a maximum value of 10",
              "bad.yaml:7:10 list.request.tls: schema: cannot hold both 'insecureSkipVerify' and"
                  + " 'caFile'",
              "bad.yaml:7:10 list.request.tls: schema: 'certFile' needs 'keyFile'",
              "bad.yaml:8:22 list.request.auth.registry: schema: 'username' needs 'password'",
              "bad.yaml:10:20 list.paginate.page: schema: 'sizeParam' needs 'size'"));
    }

    @TestFactory
    Stream<DynamicTest> failTheSchemaAndTheLoader(@TempDir Path dir) {
      List<DynamicTest> tests = new ArrayList<>();
      int i = 0;
      for (Map.Entry<String, List<String>> c : CASES.entrySet()) {
        String yaml = c.getKey();
        tests.add(
            DynamicTest.dynamicTest(
                "case " + i++ + ": " + yaml.lines().skip(1).findFirst().orElse(""),
                () -> {
                  assertThat(
                          MappingSchema.check("bad.yaml", yaml).stream()
                              .map(Problem::toString)
                              .toList())
                      .containsExactlyElementsOf(c.getValue());
                  Path file = dir.resolve("bad-" + Math.abs(yaml.hashCode()) + ".yaml");
                  Files.writeString(file, yaml);
                  MappingLoader.Result loaded =
                      MappingLoader.load(
                          List.of(file), CompileOptions.of(Map.of(), new Redactor()));
                  assertThat(loaded.ok()).as("the loader refuses it too").isFalse();
                }));
      }
      return tests.stream();
    }
  }
}
