package io.github.appsetmapper.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.github.appsetmapper.compile.CompileOptions;
import io.github.appsetmapper.compile.MappingCompiler;
import io.github.appsetmapper.config.MappingException;
import io.github.appsetmapper.config.MappingParser;
import io.github.appsetmapper.secret.Redactor;
import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.PluginServer.Answer;
import io.github.appsetmapper.testing.StubUpstream;
import io.github.appsetmapper.testing.StubUpstream.Reply;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Corpora of escape and SSRF attempts (src/test/resources/corpus), each refused. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SecurityCorpusTest {
  private StubUpstream stub;
  private PluginServer plugin;

  static Stream<String> lines(String name) throws IOException {
    return Files.readAllLines(Path.of("src/test/resources/corpus", name), StandardCharsets.UTF_8)
        .stream()
        .filter(l -> !l.isBlank() && !l.startsWith("# "));
  }

  static Stream<String> spelEscapes() throws IOException {
    return lines("spel-escapes.txt");
  }

  static Stream<String> ssrfInputs() throws IOException {
    return lines("ssrf-inputs.txt");
  }

  static Stream<String> expressionMultipliers() throws IOException {
    return lines("expression-multipliers.txt");
  }

  static Stream<String> hostileBodies() throws IOException {
    return Stream.concat(
        lines("hostile-bodies.txt"),
        Stream.of(
            "{\"input\":{\"parameters\":{\"x\":" + "9".repeat(1001) + "}}}",
            "{\"input\":{\"parameters\":{\"x\":" + "[".repeat(5000) + "]".repeat(5000) + "}}}"));
  }

  @ParameterizedTest
  @MethodSource("spelEscapes")
  void everySpelEscapeIsRefusedWhenTheFileLoads(String expression) {
    String yaml =
        "name: m\ninput:\n  x: {}\nlist:\n  request: {url: \"https://api.example.com/a\"}\n  items: \"$[*]\"\n"
            + "parameters:\n  x: "
            + io.github.appsetmapper.server.Json.write(expression)
            + "\n";
    MappingException refused =
        catchThrowableOfType(
            MappingException.class,
            () ->
                MappingCompiler.compile(
                    MappingParser.parse("m.yaml", yaml).get(0),
                    new CompileOptions(Map.of(), n -> null, new Redactor())));
    assertThat(refused).as("refused: %s", expression).isNotNull();
    assertThat(refused.problems()).allMatch(p -> p.toString().startsWith("m.yaml:"));
  }

  @BeforeAll
  void start(@TempDir Path dir) {
    stub = new StubUpstream().otherwise(r -> Reply.json(200, "{\"ok\":true}"));
    String yaml =
        """
        name: steer
        input:
          x: {required: true}
        vars: {up: {default: "http://unset.invalid"}}
        allowedHosts: ["127.0.0.1"]
        enrich:
          got:
            request:
              url: "#{vars.up}/repos/#{input.x}/info"
              query: {q: "#{input.x}"}
              headers: {X-Value: "v=#{input.x}"}
            select: "$.ok"
        parameters: {ok: got}
        """;
    plugin = PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of(), yaml);
  }

  @AfterAll
  void stop() {
    plugin.close();
    stub.close();
  }

  @ParameterizedTest
  @MethodSource("ssrfInputs")
  void inputCannotSteerTheCall(String value) {
    int before = stub.calls();
    Answer answer =
        plugin.getparams(
            "steer",
            "{\"input\":{\"parameters\":{\"x\":"
                + io.github.appsetmapper.server.Json.write(value)
                + "}}}");
    if (answer.status() == 400) {
      assertThat(stub.calls()).as("refused before any call").isEqualTo(before);
      return;
    }
    assertThat(answer.status()).as(answer.body()).isEqualTo(200);
    List<StubUpstream.Received> received = stub.received();
    StubUpstream.Received call = received.get(received.size() - 1);
    String path = call.rawUri().substring(0, call.rawUri().indexOf('?'));
    String query = call.rawUri().substring(call.rawUri().indexOf('?') + 1);
    assertThat(path).startsWith("/repos/").endsWith("/info");
    assertThat(path.split("/")).as("one segment between /repos/ and /info").hasSize(4);
    assertThat(query).startsWith("q=").doesNotContain("&");
    assertThat(call.header("x-injected")).isNull();
  }

  /** A: 200 short strings, b: 100,000 numbers, s: 99,000 characters: about 300 KB. */
  private static final String MULTIPLIED_INPUT =
      "{\"input\":{\"parameters\":{\"a\":["
          + "\"e\",".repeat(199)
          + "\"e\"],\"b\":[0"
          + ",0".repeat(99_999)
          + "],\"s\":\""
          + "s".repeat(99_000)
          + "\"}}}";

  @ParameterizedTest
  @MethodSource("expressionMultipliers")
  void anExpressionThatMultipliesTheRequestFailsItsRowAndTheServerLives(
      String expression, @TempDir Path dir) {
    String yaml =
        "name: grow\ndeadline: 5s\ninput:\n  a: {type: list}\n  b: {type: list}\n  s: {}\n"
            + "parameters:\n  x: "
            + io.github.appsetmapper.server.Json.write(expression)
            + "\n";
    try (PluginServer grow = PluginServer.withYaml(dir, Map.of(), Map.of(), yaml)) {
      Answer answer = grow.getparams("grow", MULTIPLIED_INPUT);
      assertThat(answer.status()).as(expression + ": " + answer.body()).isIn(500, 504);
      assertThat(answer.body()).startsWith("{\"error\":\"mapping 'grow': ");
      Answer small =
          grow.getparams(
              "grow", "{\"input\":{\"parameters\":{\"a\":[\"e\"],\"b\":[0],\"s\":\"s\"}}}");
      assertThat(small.status()).as(expression + ": " + small.body()).isEqualTo(200);
    }
  }

  @ParameterizedTest
  @MethodSource("hostileBodies")
  void aHostileBodyIsA400BeforeAnyCallAndTheServerStaysUp(String body) {
    int before = stub.calls();
    Answer answer = plugin.getparams("steer", body);
    assertThat(answer.status()).as(answer.body()).isEqualTo(400);
    assertThat(answer.body()).startsWith("{\"error\":\"the request body ");
    assertThat(stub.calls()).isEqualTo(before);
    assertThat(plugin.getparams("steer", "{\"input\":{\"parameters\":{\"x\":\"ok\"}}}").status())
        .isEqualTo(200);
  }
}
