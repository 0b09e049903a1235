package io.github.appsetmapper.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.PluginServer.Answer;
import io.github.appsetmapper.testing.StubUpstream;
import io.github.appsetmapper.testing.StubUpstream.Reply;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The memory budget counts what an answer becomes, not only its bytes: a 4 MiB {@code [0,0,...]} is
 * two million rows. Such an answer is a 503 naming the budget, never a heap that runs out; an
 * answer that fits is answered, and what a getparams held is given back.
 */
class ParsedSizeBudgetTest {
  private static final String MAPPING =
      """
      name: z
      vars: {up: {default: "http://unset.invalid"}}
      list:
        request: {url: "#{vars.up}/zeros"}
        items: "$[*]"
      parameters: {n: item}
      """;
  private static final int FOUR_MIB_OF_ZEROS = 2 * 1024 * 1024;

  private static Reply zeros(int count) {
    byte[] body = ("[" + "0,".repeat(count - 1) + "0]").getBytes(StandardCharsets.US_ASCII);
    return new Reply(200, Map.of("Content-Type", "application/json"), body, 0, null);
  }

  private static Answer getparams(Path dir, StubUpstream stub, long budget) {
    try (PluginServer plugin =
        PluginServer.withOptions(dir, Map.of("up", stub.url()), null, budget, MAPPING)) {
      return plugin.getparams("z", "{}");
    }
  }

  @Test
  void twoMillionRowsAreA503NamingTheBudget(@TempDir Path dir) {
    try (StubUpstream stub = new StubUpstream()) {
      stub.on("GET /zeros", zeros(FOUR_MIB_OF_ZEROS));
      Answer answer = getparams(dir, stub, 64L * 1024 * 1024);
      assertThat(answer.status()).as(answer.body()).isEqualTo(503);
      assertThat(answer.body())
          .isEqualTo(
              "{\"error\":\"mapping 'z': list GET "
                  + stub.url()
                  + "/zeros: 2097152 rows (about 536870912 bytes) exceed the memory budget for"
                  + " upstream answers (67108864 bytes); raise --memory-budget\"}");
    }
  }

  @Test
  void theParsedAnswerAloneCountsBeforeAnyRowIsMade(@TempDir Path dir) {
    try (StubUpstream stub = new StubUpstream()) {
      stub.on("GET /zeros", zeros(FOUR_MIB_OF_ZEROS));
      Answer answer = getparams(dir, stub, 16L * 1024 * 1024);
      assertThat(answer.status()).as(answer.body()).isEqualTo(503);
      assertThat(answer.body())
          .startsWith(
              "{\"error\":\"mapping 'z': list GET "
                  + stub.url()
                  + "/zeros: the answer's data (over ")
          .contains(" bytes, and still being read) do not fit the memory budget for upstream")
          .endsWith("; retry later or raise --memory-budget\"}");
    }
  }

  @Test
  void theParameterMapsARowBecomesCountToo(@TempDir Path dir) {
    // 20,000 small rows, each written out as ten long parameters: the answer is the big part.
    StringBuilder parameters = new StringBuilder();
    for (int i = 0; i < 10; i++) {
      parameters
          .append("  p")
          .append(i)
          .append(": \"'")
          .append("x".repeat(200))
          .append("' + item\"\n");
    }
    String wide = MAPPING.replace("parameters: {n: item}\n", "parameters:\n" + parameters);
    try (StubUpstream stub = new StubUpstream()) {
      stub.on("GET /zeros", zeros(20_000));
      try (PluginServer plugin =
          PluginServer.withOptions(dir, Map.of("up", stub.url()), null, 32L * 1024 * 1024, wide)) {
        Answer answer = plugin.getparams("z", "{}");
        assertThat(answer.status()).as(answer.body()).isEqualTo(503);
        assertThat(answer.body())
            .startsWith("{\"error\":\"mapping 'z': the answer's parameter maps (")
            .endsWith("in use); retry later or raise --memory-budget\"}");
      }
    }
  }

  @Test
  void anAnswerWithinTheBudgetIsAnsweredAndTheBudgetIsGivenBack(@TempDir Path dir) {
    try (StubUpstream stub = new StubUpstream()) {
      stub.on("GET /zeros", zeros(1000));
      try (PluginServer plugin =
          PluginServer.withOptions(
              dir, Map.of("up", stub.url()), null, 16L * 1024 * 1024, MAPPING)) {
        for (int i = 0; i < 3; i++) {
          Answer answer = plugin.getparams("z", "{\"applicationSetName\":\"a" + i + "\"}");
          assertThat(answer.status()).as(answer.body()).isEqualTo(200);
          assertThat(answer.body().split("\\{\"n\":\"0\"}", -1)).hasSize(1001);
        }
        Answer metrics = plugin.send("GET", "/metrics", null, null, null);
        assertThat(metrics.body()).contains("appset_mapper_memory_inflight_bytes 0.0");
      }
    }
  }

  /**
   * A number counts as it will be written: {@code 1e999} is six bytes of the answer read and a
   * thousand characters of the answer written with keepTypes. Counted as its digits, 100,000 of
   * them in a 600 KB answer were a 100 MB answer that ended a 256 MiB JVM (an outside tester's
   * find).
   */
  @Test
  void aNumberWrittenInFullCountsAsItIsWritten(@TempDir Path dir) {
    String keepTypes =
        MAPPING.replace("parameters: {n: item}", "keepTypes: true\nparameters: {n: item}");
    byte[] body = ("[" + "1e999,".repeat(1999) + "1e999]").getBytes(StandardCharsets.US_ASCII);
    try (StubUpstream stub = new StubUpstream()) {
      stub.on(
          "GET /zeros", new Reply(200, Map.of("Content-Type", "application/json"), body, 0, null));
      try (PluginServer plugin =
          PluginServer.withOptions(
              dir, Map.of("up", stub.url()), null, 2L * 1024 * 1024, keepTypes)) {
        Answer answer = plugin.getparams("z", "{}");
        assertThat(answer.status()).as(answer.body()).isEqualTo(503);
        assertThat(answer.body())
            .startsWith("{\"error\":\"mapping 'z': the answer's parameter maps (")
            .endsWith("raise --memory-budget\"}");
        // Within the budget, the same numbers are written in full.
        stub.on(
            "GET /zeros",
            new Reply(
                200,
                Map.of("Content-Type", "application/json"),
                "[1e999]".getBytes(StandardCharsets.US_ASCII),
                0,
                null));
        Answer one = plugin.getparams("z", "{}");
        assertThat(one.status()).as(one.body()).isEqualTo(200);
        assertThat(one.body())
            .isEqualTo("{\"output\":{\"parameters\":[{\"n\":1" + "0".repeat(999) + "}]}}");
      }
    }
  }
}
