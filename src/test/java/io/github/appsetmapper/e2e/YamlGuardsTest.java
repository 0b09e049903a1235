package io.github.appsetmapper.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.json.YamlCodec;
import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.PluginServer.Answer;
import io.github.appsetmapper.testing.StubUpstream;
import io.github.appsetmapper.testing.StubUpstream.Reply;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The guards of the {@code format: yaml} reader that BodyFormatsTest does not reach, over real
 * HTTP: whatever makes reading a large index faster must still refuse a body past the YAML cap,
 * data past the memory budget, tab indentation, a control character, bytes that are not UTF-8, and
 * still read a byte-order mark. Each is a 502 (503 for the budget) naming what was wrong, never a
 * 200 with fewer rows.
 */
class YamlGuardsTest {
  private static final String MAPPING =
      """
      name: y
      vars: {up: {default: "http://unset.invalid"}}
      list:
        request: {url: "#{vars.up}/yaml/#{input.case}", format: yaml}
        items: "$.items[*]"
      inputAdditional: true
      parameters: {typed: "#json(item)"}
      """;

  private static Reply yaml(byte[] body) {
    return new Reply(200, Map.of("Content-Type", "application/x-yaml"), body, 0, null);
  }

  private static Reply yaml(String body) {
    return yaml(body.getBytes(StandardCharsets.UTF_8));
  }

  private static Answer call(PluginServer plugin, String testCase) {
    return plugin.getparams("y", "{\"input\":{\"parameters\":{\"case\":\"" + testCase + "\"}}}");
  }

  private static String refusal(StubUpstream stub, String testCase, String why) {
    return "{\"error\":\"mapping 'y': list GET "
        + stub.url()
        + "/yaml/"
        + testCase
        + ": "
        + why
        + "\"}";
  }

  @Test
  void whatTheReaderRefusesIsRefusedOverHttp(@TempDir Path dir) {
    try (StubUpstream stub = new StubUpstream()) {
      stub.on("GET /yaml/tabs", yaml("items:\n\t- a\n"));
      stub.on("GET /yaml/control", yaml("items: [a\u0001b]\n"));
      stub.on(
          "GET /yaml/latin1", yaml("items: [caf\u00e9]\n".getBytes(StandardCharsets.ISO_8859_1)));
      stub.on("GET /yaml/bom", yaml("\ufeffitems: [a, 1.10]\n"));
      try (PluginServer plugin =
          PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of(), MAPPING)) {
        Answer tabs = call(plugin, "tabs");
        assertThat(tabs.status()).as(tabs.body()).isEqualTo(502);
        assertThat(tabs.body())
            .isEqualTo(
                refusal(
                    stub,
                    "tabs",
                    "the answer is not valid YAML: found character '\\\\t(TAB)' that cannot start any"
                        + " token. (Do not use \\\\t(TAB) for indentation) (line 2, column 1)"));
        Answer control = call(plugin, "control");
        assertThat(control.status()).as(control.body()).isEqualTo(502);
        assertThat(control.body())
            .isEqualTo(
                refusal(
                    stub,
                    "control",
                    "the answer is not valid YAML: special characters are not allowed"));
        Answer latin1 = call(plugin, "latin1");
        assertThat(latin1.status()).as(latin1.body()).isEqualTo(502);
        assertThat(latin1.body())
            .isEqualTo(
                refusal(stub, "latin1", "the answer is not valid YAML: its bytes are not UTF-8"));
        Answer bom = call(plugin, "bom");
        assertThat(bom.status()).as(bom.body()).isEqualTo(200);
        assertThat(bom.body())
            .isEqualTo(
                "{\"output\":{\"parameters\":[{\"typed\":\"\\\"a\\\"\"},{\"typed\":\"1.10\"}]}}");
      }
    }
  }

  @Test
  void aBodyPastTheYamlCapIsRefusedUnread(@TempDir Path dir) {
    byte[] body = new byte[YamlCodec.MAX_BYTES + 1];
    Arrays.fill(body, (byte) ' ');
    byte[] start = "items: [a]\n#".getBytes(StandardCharsets.US_ASCII);
    System.arraycopy(start, 0, body, 0, start.length);
    try (StubUpstream stub = new StubUpstream()) {
      stub.on("GET /yaml/huge", yaml(body));
      try (PluginServer plugin =
          PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of(), MAPPING)) {
        Answer answer = call(plugin, "huge");
        assertThat(answer.status()).as(answer.body()).isEqualTo(502);
        assertThat(answer.body())
            .isEqualTo(
                refusal(stub, "huge", "response larger than " + YamlCodec.MAX_BYTES + " bytes"));
      }
    }
  }

  @Test
  void dataPastTheMemoryBudgetIsA503(@TempDir Path dir) {
    // Four MiB of "- 0" lines: well under the cap, far more once parsed than a 16 MiB budget.
    String zeros = "items:\n" + "- 0\n".repeat(1024 * 1024);
    try (StubUpstream stub = new StubUpstream()) {
      stub.on("GET /yaml/zeros", yaml(zeros));
      try (PluginServer plugin =
          PluginServer.withOptions(
              dir, Map.of("up", stub.url()), null, 16L * 1024 * 1024, MAPPING)) {
        Answer answer = call(plugin, "zeros");
        assertThat(answer.status()).as(answer.body()).isEqualTo(503);
        assertThat(answer.body())
            .startsWith(refusal(stub, "zeros", "the answer's data (over ").replace("\"}", ""))
            .contains(" bytes, and still being read) do not fit the memory budget for upstream")
            .endsWith("; retry later or raise --memory-budget\"}");
      }
    }
  }

  /**
   * One long scalar cost the square of its length in SnakeYAML (a 16 MiB value took a minute past
   * the deadline, a 63 MiB one ended the heap): a value past 1 Mi characters is refused as soon as
   * the reader sees it, in any style; one just under the bound is read.
   */
  @Test
  void aValueLongerThanAStringMayHoldIsRefusedInEveryStyle(@TempDir Path dir) {
    String longValue = "x".repeat(2 * 1024 * 1024);
    String fits = "y".repeat(1000 * 1024);
    try (StubUpstream stub = new StubUpstream()) {
      stub.on("GET /yaml/plain", yaml("items:\n- " + longValue + "\n"));
      stub.on("GET /yaml/quoted", yaml("items:\n- \"" + longValue + "\"\n"));
      stub.on("GET /yaml/block", yaml("items:\n- |\n  " + longValue + "\n"));
      stub.on("GET /yaml/fits", yaml("items:\n- " + fits + "\n- b\n"));
      try (PluginServer plugin =
          PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of(), MAPPING)) {
        for (String style : new String[] {"plain", "quoted", "block"}) {
          Answer answer = call(plugin, style);
          assertThat(answer.status()).as(style + ": " + answer.body()).isEqualTo(502);
          assertThat(answer.body())
              .isEqualTo(
                  refusal(stub, style, "the answer holds a value longer than 1048576 characters"));
        }
        Answer fitsAnswer = call(plugin, "fits");
        assertThat(fitsAnswer.status()).as(fitsAnswer.body().substring(0, 200)).isEqualTo(200);
        assertThat(fitsAnswer.body()).contains(fits).endsWith("{\"typed\":\"\\\"b\\\"\"}]}}");
      }
    }
  }
}
