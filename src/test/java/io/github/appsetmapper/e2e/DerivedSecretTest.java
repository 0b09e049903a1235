package io.github.appsetmapper.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.appsetmapper.server.Json;
import io.github.appsetmapper.testing.LogCapture;
import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.PluginServer.Answer;
import io.github.appsetmapper.testing.SecretForms;
import io.github.appsetmapper.testing.StubUpstream;
import io.github.appsetmapper.testing.StubUpstream.Reply;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 21 item 10: a value a method computes from a secret ({@code split(':')[1]}, {@code
 * substring}, {@code toUpperCase()}, {@code #urlEncode}) is no longer the secret the redactor
 * knows, so an upstream echoing it put it in clear in the 502 body, explain (JSON and text), the
 * server log and {@code record}'s output ({@code
 * RecordCommandTest.recordWritesNoValueComputedFromASecret}). Each rendered hole that reads {@code
 * secret} is now scrubbed as a secret for its getparams, wherever it is sent (query, header, body).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DerivedSecretTest {
  private static final String TOKEN = "Dv7~tok+en/Zq7Wx9-derived-9f3a";
  private static final String CRED = "user:" + TOKEN;
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Mapping name: where the derived value goes, and what it is. */
  private static final Map<String, Case> CASES = new LinkedHashMap<>();

  private record Case(String request, String derived) {}

  static {
    CASES.put("split", new Case("query: {token: \"#{secret.cred.split(':')[1]}\"}", TOKEN));
    CASES.put("substring", new Case("query: {token: \"#{secret.cred.substring(5)}\"}", TOKEN));
    CASES.put(
        "upper",
        new Case(
            "query: {token: \"#{secret.cred.split(':')[1].toUpperCase()}\"}",
            TOKEN.toUpperCase(Locale.ROOT)));
    CASES.put(
        "urlencoded",
        new Case("query: {token: \"#{#urlEncode(secret.cred.substring(5))}\"}", TOKEN));
    CASES.put(
        "header", new Case("headers: {X-Token: \"tok #{secret.cred.split(':')[1]} end\"}", TOKEN));
    CASES.put(
        "body",
        new Case("method: POST\n    body: {token: \"#{secret.cred.split(':')[1]}\"}", TOKEN));
  }

  private static String mapping(String name, String request, Path secretFile) {
    return """
        name: %s
        vars: {up: {default: "http://unset.invalid"}}
        secrets: {cred: {file: %s}}
        list:
          request:
            url: "#{vars.up}/items/%s"
            retries: 0
            %s
          items: "$[*]"
        parameters: {id: item}
        """
        .formatted(name, secretFile, name, request);
  }

  private StubUpstream stub;
  private PluginServer plugin;
  private LogCapture logs;

  @BeforeAll
  void start(@TempDir Path dir) throws IOException {
    Path secret = dir.resolve("cred");
    Files.writeString(secret, CRED + "\n");
    logs = new LogCapture();
    stub = new StubUpstream();
    // An upstream that quotes what it was sent (query, X-Token, body) in its refusal.
    stub.otherwise(
        r ->
            Reply.json(
                503,
                "{\"message\":"
                    + Json.write(
                        "refused "
                            + r.rawUri().replaceAll("^.*\\?", "")
                            + " "
                            + r.header("x-token")
                            + " "
                            + r.bodyText())
                    + "}"));
    Path mappings = Files.createDirectories(dir.resolve("mappings"));
    List<String> yamls = new ArrayList<>();
    CASES.forEach((name, c) -> yamls.add(mapping(name, c.request(), secret)));
    plugin =
        PluginServer.withYaml(
            mappings, Map.of("up", stub.url()), Map.of(), yamls.toArray(new String[0]));
  }

  @AfterAll
  void stop() {
    plugin.close();
    stub.close();
    logs.close();
  }

  static Stream<String> cases() {
    return CASES.keySet().stream();
  }

  @ParameterizedTest
  @MethodSource("cases")
  void aValueComputedFromASecretReachesNoAnswerReportOrLogLine(String name) {
    String derived = CASES.get(name).derived();
    Answer answer = plugin.getparams(name, "{}");
    StubUpstream.Received sent = stub.received().get(stub.received().size() - 1);
    assertThat(sent.rawUri() + " " + sent.header("x-token") + " " + sent.bodyText())
        .as("the upstream was sent the derived value")
        .contains(derived.substring(derived.length() - 14));
    assertThat(answer.status()).isEqualTo(502);
    assertThat(answer.body()).contains("answered 503 (refused ").contains("***");
    assertNoLeak(answer.body(), derived);
    assertNoLeak(explain(name, ""), derived);
    assertNoLeak(explain(name, "?format=text"), derived);
    assertNoLeak(String.join("\n", logs.lines()), derived);
  }

  private String explain(String mapping, String query) {
    Answer answer =
        plugin.send(
            "POST",
            "/mappings/" + mapping + "/api/v1/getparams.explain" + query,
            "{}",
            "Bearer " + PluginServer.TOKEN,
            "application/json");
    assertThat(answer.status()).isEqualTo(200);
    return answer.body();
  }

  /** Neither the text as sent nor, when it is JSON, any string in it holds a piece. */
  static void assertNoLeak(String text, String secret) {
    assertThat(SecretForms.leaks(text, secret)).as(text).isEmpty();
    List<String> strings = new ArrayList<>();
    try {
      collect(JSON.readTree(text), strings);
    } catch (IOException | RuntimeException e) {
      return; // not JSON: checked as it is
    }
    for (String string : strings) {
      assertThat(SecretForms.leaks(string, secret)).as(string).isEmpty();
    }
  }

  private static void collect(JsonNode node, List<String> into) {
    if (node == null) {
      return;
    }
    if (node.isTextual()) {
      into.add(node.textValue());
    }
    node.fieldNames().forEachRemaining(into::add);
    node.elements().forEachRemaining(child -> collect(child, into));
  }
}
