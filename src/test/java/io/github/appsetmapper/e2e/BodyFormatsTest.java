package io.github.appsetmapper.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.PluginServer.Answer;
import io.github.appsetmapper.testing.StubUpstream;
import io.github.appsetmapper.testing.StubUpstream.Reply;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code format: yaml} and {@code format: text} over real HTTP: a YAML answer is read under the
 * same limits as a JSON one, and each refusal is a 502 with one line saying why; JSON stays the
 * default whatever the {@code Content-Type} says.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BodyFormatsTest {
  private static final String YAML_LIST =
      """
      name: y
      vars: {up: {default: "http://unset.invalid"}}
      list:
        request: {url: "#{vars.up}/yaml/#{input.case}", format: yaml}
        items: "$.items[*]"
      inputAdditional: true
      parameters: {typed: "#json(item)"}
      """;

  private static final String JSON_LIST =
      """
      name: j
      vars: {up: {default: "http://unset.invalid"}}
      list:
        request: {url: "#{vars.up}/yaml/#{input.case}"}
        items: "$.items[*]"
      inputAdditional: true
      parameters: {typed: "#json(item)"}
      """;

  private static final String TEXT =
      """
      name: t
      vars: {up: {default: "http://unset.invalid"}}
      list:
        request: {url: "#{vars.up}/text/#{input.case}", format: text}
        items: "$"
      inputAdditional: true
      parameters:
        third: "#this.item.split('\\n')[2]"
        first: "item.split('\\n')[0]"
      """;

  private static final String ENRICH_TEXT =
      """
      name: et
      vars: {up: {default: "http://unset.invalid"}}
      list:
        request: {url: "#{vars.up}/yaml/plain", format: yaml}
        items: "$.items[*]"
      enrich:
        version:
          request: {url: "#{vars.up}/text/version", format: text}
          value: response.body.strip()
      parameters: {name: item.name, version: version}
      """;

  /** 40 aliases (within the 50 allowed) that would expand to 10 x 4^10 values. */
  private static String billionLaughs() {
    StringBuilder yaml = new StringBuilder("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
    for (int i = 1; i <= 10; i++) {
      yaml.append("a")
          .append(i)
          .append(": &a")
          .append(i)
          .append(" [")
          .append(("*a" + (i - 1) + ", ").repeat(3))
          .append("*a")
          .append(i - 1)
          .append("]\n");
    }
    return yaml.append("items: [*a10]\n").toString();
  }

  private static Reply yaml(String body) {
    return new Reply(
        200,
        Map.of("Content-Type", "application/x-yaml"),
        body.getBytes(StandardCharsets.UTF_8),
        0,
        null);
  }

  private static Reply bytes(String contentType, byte[] body) {
    return new Reply(200, Map.of("Content-Type", contentType), body, 0, null);
  }

  private StubUpstream stub;
  private PluginServer plugin;

  @BeforeAll
  void start(@TempDir Path dir) {
    stub = new StubUpstream();
    stub.on("GET /yaml/plain", yaml("items:\n- name: a\n- name: b\n"));
    stub.on(
        "GET /yaml/typed",
        yaml(
            """
            items:
            - {v: 1.10, yes: yes, on: off, date: 2024-01-02, hex: 0x1F, oct: 0o17, under: 1_000,
               zero: 010, inf: .inf, nul: ~, empty: , t: True, f: FALSE, s: '1.10', big: 12345678901234567890}
            """));
    stub.on("GET /yaml/json", yaml("{\"items\": [{\"a\": 1}]}"));
    stub.on("GET /yaml/duplicate", yaml("items:\n- name: a\n  name: b\n"));
    stub.on("GET /yaml/number", yaml("items:\n- n: 1e999999999\n"));
    stub.on("GET /yaml/deep", yaml("items: " + "[".repeat(600) + "]".repeat(600) + "\n"));
    stub.on("GET /yaml/laughs", yaml(billionLaughs()));
    stub.on("GET /yaml/aliases", yaml("x: &x [1]\nitems: [" + "*x, ".repeat(60) + "*x]\n"));
    stub.on("GET /yaml/tag", yaml("items:\n- !!python/object/apply:os.system [\"id\"]\n"));
    stub.on("GET /yaml/localtag", yaml("items:\n- !secret abc\n"));
    stub.on("GET /yaml/binary", yaml("items:\n- !!binary aGVsbG8=\n"));
    stub.on("GET /yaml/documents", yaml("items: [1]\n---\nitems: [2]\n"));
    stub.on("GET /yaml/complexkey", yaml("items:\n- ? [a, b]\n  : 1\n"));
    stub.on("GET /yaml/broken", yaml("items: [a, b\nnext: 1\n"));
    stub.on("GET /yaml/escape", yaml("items:\n- \"\\UFFFFFFFF\"\n"));
    stub.on("GET /yaml/cutescape", yaml("items:\n- \"\\x"));
    stub.on("GET /yaml/halfpair", yaml("items:\n- name: \"api\\ud800\"\n- name: api\n"));
    stub.on("GET /yaml/halfpairkey", yaml("items:\n- \"\\udbff\": 1\n"));
    stub.on("GET /yaml/html", bytes("text/html", "<html><body>Sign in</body></html>".getBytes()));
    stub.on("GET /yaml/empty", yaml(""));
    stub.on("GET /yaml/textjson", bytes("text/plain", "{\"items\":[{\"a\":1}]}".getBytes()));
    stub.on("GET /text/lines", bytes("text/plain", "alpha\nbeta\ngamma".getBytes()));
    stub.on("GET /text/version", bytes("text/plain", "v1.10.0\n".getBytes()));
    stub.on(
        "GET /text/latin1", bytes("text/plain", "caf\u00e9".getBytes(StandardCharsets.ISO_8859_1)));
    stub.on("GET /text/long", bytes("text/plain", "x".repeat(1_048_577).getBytes()));
    plugin =
        PluginServer.withYaml(
            dir, Map.of("up", stub.url()), Map.of(), YAML_LIST, JSON_LIST, TEXT, ENRICH_TEXT);
  }

  @AfterAll
  void stop() {
    plugin.close();
    stub.close();
  }

  private Answer call(String mapping, String testCase) {
    return plugin.getparams(
        mapping, "{\"input\":{\"parameters\":{\"case\":\"" + testCase + "\"}}}");
  }

  private void assertRefused(String testCase, String why) {
    Answer answer = call("y", testCase);
    assertThat(answer.status()).as(answer.body()).isEqualTo(502);
    assertThat(answer.body())
        .isEqualTo(
            "{\"error\":\"mapping 'y': list GET "
                + stub.url()
                + "/yaml/"
                + testCase
                + ": "
                + why
                + "\"}");
  }

  @Nested
  class Yaml {
    @Test
    void plainScalarsAreTypedByTheCoreSchemaOf12AndDecimalsKeepTheirText() {
      Answer answer = call("y", "typed");
      assertThat(answer.status()).as(answer.body()).isEqualTo(200);
      assertThat(answer.body())
          .isEqualTo(
              "{\"output\":{\"parameters\":[{\"typed\":\"{\\\"v\\\":1.10,\\\"yes\\\":\\\"yes\\\","
                  + "\\\"on\\\":\\\"off\\\",\\\"date\\\":\\\"2024-01-02\\\",\\\"hex\\\":31,"
                  + "\\\"oct\\\":15,\\\"under\\\":\\\"1_000\\\",\\\"zero\\\":10,"
                  + "\\\"inf\\\":\\\".inf\\\",\\\"nul\\\":null,\\\"empty\\\":null,\\\"t\\\":true,"
                  + "\\\"f\\\":false,\\\"s\\\":\\\"1.10\\\",\\\"big\\\":12345678901234567890}\"}]}}");
    }

    @Test
    void jsonIsYamlToo() {
      assertThat(call("y", "json").body())
          .isEqualTo("{\"output\":{\"parameters\":[{\"typed\":\"{\\\"a\\\":1}\"}]}}");
    }

    @Test
    void aKeyTwiceInOneMapIsRefused() {
      assertRefused(
          "duplicate", "the answer has the key 'name' twice in one map (line 3, column 3)");
    }

    @Test
    void aNumberBeyondTheBoundsIsRefused() {
      assertRefused(
          "number",
          "the answer has a number beyond the bounds (at most 1000 digits and an exponent within"
              + " \u00b11000) (line 2, column 6)");
    }

    @Test
    void nestingDeeperThanJsonAllowsIsRefused() {
      assertRefused("deep", "the answer is nested deeper than 500 levels");
    }

    @Test
    void aBillionLaughsIsRefusedNotExpanded() {
      // Named at the alias that tips it over (the '*a6' in a7), not at a node deep inside it.
      assertRefused(
          "laughs",
          "the answer repeats more than 100000 values through aliases (line 8, column 15)");
    }

    @Test
    void moreThanFiftyAliasesToCollectionsAreRefused() {
      assertRefused("aliases", "the answer names a collection by an alias more than 50 times");
    }

    @Test
    void tagsAreRefusedNeverTurnedIntoTypes() {
      assertRefused(
          "tag",
          "the answer has the tag 'tag:yaml.org,2002:python/object/apply:os...' (tags are not"
              + " read: write the value without it) (line 2, column 3)");
      assertRefused(
          "localtag",
          "the answer has the tag '!secret' (tags are not read: write the value without it) (line"
              + " 2, column 3)");
      assertRefused(
          "binary",
          "the answer has the tag 'tag:yaml.org,2002:binary' (tags are not read: write the value"
              + " without it) (line 2, column 3)");
    }

    @Test
    void oneDocumentOnly() {
      assertRefused(
          "documents",
          "the answer holds more than one YAML document (one is read) (line 3, column 1)");
    }

    @Test
    void aKeyThatIsNotTextIsRefused() {
      assertRefused(
          "complexkey",
          "the answer has a key that is not a string (a list or a map as a key) (line 2, column 5)");
    }

    @Test
    void brokenYamlIsRefusedWithWhere() {
      assertRefused(
          "broken",
          "the answer is not valid YAML: expected ',' or ']', but got : (line 2, column 5)");
    }

    @Test
    void anEscapeSnakeYamlCannotDecodeIsRefusedNotACrash() {
      // SnakeYAML's scanner threw NumberFormatException (not a YAMLException) for these.
      String why =
          "the answer is not valid YAML: a \\\\x, \\\\u or \\\\U escape in a double-quoted text is"
              + " not a character";
      assertRefused("escape", why);
      assertRefused("cutescape", why);
    }

    /**
     * {@code "\\ud800"} is a valid escape and no character: it came out as '?' on a 200, two chart
     * names collapsing into one (an outside tester's find). Refused as JSON refuses it.
     */
    @Test
    void halfOfASurrogatePairIsRefusedNotAQuestionMark() {
      assertRefused(
          "halfpair",
          "the answer has a string holding half of a surrogate pair (\\\\ud800 alone), which is"
              + " not Unicode text (line 2, column 9)");
      assertThat(call("y", "halfpairkey").status()).isEqualTo(502);
    }

    @Test
    void aTextPageIsNotAnIndex() {
      assertRefused("html", "the answer is not a YAML map or list (a text page?)");
    }

    @Test
    void anEmptyAnswerIsNotNone() {
      assertRefused("empty", "the answer has an empty body where YAML was expected");
    }

    @Test
    void refusalsAreCountedByReason() {
      call("y", "tag");
      call("y", "laughs");
      assertThat(plugin.send("GET", "/metrics", null, null, null).body().lines())
          .anyMatch(
              l ->
                  l.startsWith(
                      "appset_mapper_upstream_refused_total{mapping=\"y\",reason=\"yaml-unsupported\"}"))
          .anyMatch(
              l ->
                  l.startsWith(
                      "appset_mapper_upstream_refused_total{mapping=\"y\",reason=\"yaml-limit\"}"));
    }
  }

  @Nested
  class JsonStaysTheDefault {
    @Test
    void whateverTheContentTypeSays() {
      assertThat(call("j", "textjson").body())
          .isEqualTo("{\"output\":{\"parameters\":[{\"typed\":\"{\\\"a\\\":1}\"}]}}");
      Answer yaml = call("j", "plain");
      assertThat(yaml.status()).isEqualTo(502);
      assertThat(yaml.body())
          .isEqualTo(
              "{\"error\":\"mapping 'j': list GET "
                  + stub.url()
                  + "/yaml/plain: answered 200 with application/x-yaml (not JSON):"
                  + " 'items: - name: a - name: b'\"}");
    }
  }

  @Nested
  class Text {
    @Test
    void theBodyIsOneString() {
      Answer answer = call("t", "lines");
      assertThat(answer.status()).as(answer.body()).isEqualTo(200);
      assertThat(answer.body())
          .isEqualTo("{\"output\":{\"parameters\":[{\"third\":\"gamma\",\"first\":\"alpha\"}]}}");
    }

    @Test
    void anEnrichReadsText() {
      Answer answer = plugin.getparams("et", "{}");
      assertThat(answer.body())
          .isEqualTo(
              "{\"output\":{\"parameters\":[{\"name\":\"a\",\"version\":\"v1.10.0\"},"
                  + "{\"name\":\"b\",\"version\":\"v1.10.0\"}]}}");
    }

    @Test
    void bytesThatAreNotUtf8AreRefused() {
      Answer answer = call("t", "latin1");
      assertThat(answer.status()).isEqualTo(502);
      assertThat(answer.body())
          .isEqualTo(
              "{\"error\":\"mapping 't': list GET "
                  + stub.url()
                  + "/text/latin1: the answer is not UTF-8 text\"}");
    }

    @Test
    void textIsBounded() {
      Answer answer = call("t", "long");
      assertThat(answer.status()).isEqualTo(502);
      assertThat(answer.body())
          .isEqualTo(
              "{\"error\":\"mapping 't': list GET "
                  + stub.url()
                  + "/text/long: the answer is text of 1048577 characters, more than 1048576"
                  + " allowed\"}");
    }
  }
}
