package io.github.appsetmapper.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.server.Json;
import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.PluginServer.Answer;
import io.github.appsetmapper.testing.StubUpstream;
import io.github.appsetmapper.testing.StubUpstream.Reply;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A path segment is checked as rendered, not hole by hole: several holes, or holes and literal
 * text, in one segment can still make {@code ..}, and so can what a server decodes. Caller data
 * doing it is a 400, upstream data a 502; nothing is sent either way.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PathSegmentTest {
  private static final String FILES =
      """
      name: files
      input:
        name: {required: true}
        ext: {default: ""}
      vars: {up: {default: "http://unset.invalid"}}
      list:
        request: {url: "#{vars.up}/files/#{input.name}.#{input.ext}/meta", retries: 0}
        items: "$[*]"
      parameters: {id: item}
      """;
  private static final String LITERAL =
      """
      name: literal
      input:
        name: {required: true}
      vars: {up: {default: "http://unset.invalid"}}
      list:
        request: {url: "#{vars.up}/files/%2e#{input.name}/meta", retries: 0}
        items: "$[*]"
      parameters: {id: item}
      """;
  private static final String WHOLE =
      """
      name: whole
      input:
        name: {required: true}
      vars: {up: {default: "http://unset.invalid"}}
      list:
        request: {url: "#{vars.up}/files/#{input.name}", retries: 0}
        items: "$[*]"
      parameters: {id: item}
      """;
  private static final String UPSTREAM =
      """
      name: upstream
      vars: {up: {default: "http://unset.invalid"}}
      list:
        request: {url: "#{vars.up}/names", retries: 0}
        items: "$[*]"
      enrich:
        meta:
          request: {url: "#{vars.up}/files/#{item}.#{'json'}/meta", retries: 0}
      parameters: {id: item}
      """;

  private StubUpstream stub;
  private PluginServer plugin;

  @BeforeAll
  void start(@TempDir Path dir) {
    stub = new StubUpstream().otherwise(r -> Reply.json(200, "[\"ok\"]"));
    stub.on("GET /names", Reply.json(200, "[\"a\", \"..%2f..\"]"));
    plugin =
        PluginServer.withYaml(
            dir, Map.of("up", stub.url()), Map.of(), FILES, LITERAL, WHOLE, UPSTREAM);
  }

  @AfterAll
  void stop() {
    plugin.close();
    stub.close();
  }

  private Answer call(String mapping, String parameters) {
    return plugin.getparams(
        mapping, "{\"applicationSetName\":\"a\",\"input\":{\"parameters\":" + parameters + "}}");
  }

  private static void assertError(Answer answer, int status, String message) {
    assertThat(answer.status()).as(answer.body()).isEqualTo(status);
    assertThat(answer.body()).isEqualTo("{\"error\":" + Json.write(message) + "}");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        ".|  | a '..' path segment",
        "  |  | a '.' path segment",
        "../x | y | a path segment with a '..' step once percent-decoded",
        "..\\\\admin | y | a path segment with a '..' step once percent-decoded",
        "..; | y | a path segment with a '..' step once percent-decoded",
        "x/ | | a path segment with a '.' step once percent-decoded",
      })
  void holesTogetherCannotMakeADotSegment(String name, String ext, String problem) {
    int before = stub.calls();
    String parameters =
        "{\"name\":"
            + Json.write(name == null ? "" : name)
            + ",\"ext\":"
            + Json.write(ext == null ? "" : ext)
            + "}";
    assertError(
        call("files", parameters), 400, "list.url: #{input.name}.#{input.ext} gives " + problem);
    assertThat(stub.calls()).isEqualTo(before);
  }

  @Test
  void literalTextIsDecodedWithTheHoles() {
    int before = stub.calls();
    assertError(
        call("literal", "{\"name\":\".\"}"),
        400,
        "list.url: %2e#{input.name} gives a path segment that is '..' once percent-decoded");
    assertThat(stub.calls()).isEqualTo(before);
  }

  @Test
  void anInputEncodedTwiceIsDecodedTwice() {
    assertError(
        call("whole", "{\"name\":\"%2e%2e\"}"),
        400,
        "list.url: #{input.name} gives a path segment that is '..' once percent-decoded");
  }

  @Test
  void ordinaryValuesStayOneSegment() {
    assertThat(call("files", "{\"name\":\"a.b\",\"ext\":\"json\"}").status()).isEqualTo(200);
    assertThat(call("files", "{\"name\":\"feature/login\",\"ext\":\"..x\"}").status())
        .isEqualTo(200);
    assertThat(call("whole", "{\"name\":\"...\"}").status()).isEqualTo(200);
    assertThat(stub.received().stream().map(StubUpstream.Received::rawUri))
        .contains("/files/a.b.json/meta", "/files/feature%2Flogin...x/meta", "/files/...");
  }

  @Test
  void upstreamDataDoingItIsA502() {
    assertError(
        plugin.getparams("upstream", "{}"),
        502,
        "mapping 'upstream': enrich.meta.url: #{item}.#{'json'} gives a path segment with a '..'"
            + " step once percent-decoded");
  }

  @Test
  void everyRefusalIsCounted() {
    call("whole", "{\"name\":\"..\"}");
    String metrics = plugin.send("GET", "/metrics", null, null, null).body();
    assertThat(metrics)
        .containsPattern(
            "appset_mapper_upstream_requests_refused_total\\{mapping=\"whole\",reason=\"path-segment\"\\}"
                + " [1-9]");
  }
}
