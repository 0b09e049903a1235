package io.github.appsetmapper.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.appsetmapper.compile.CompiledMapping;
import io.github.appsetmapper.compile.MappingLoader;
import io.github.appsetmapper.compile.VarValues;
import io.github.appsetmapper.config.MappingSources;
import io.github.appsetmapper.replay.ExchangeFile;
import io.github.appsetmapper.replay.ExchangeMatcher;
import io.github.appsetmapper.replay.RecordedExchange;
import io.github.appsetmapper.replay.ReplayCase;
import io.github.appsetmapper.runtime.AppRuntime;
import io.github.appsetmapper.server.AppServer;
import io.github.appsetmapper.server.Json;
import io.github.appsetmapper.server.MappingRegistry;
import io.github.appsetmapper.server.ServerOptions;
import io.github.appsetmapper.server.Tokens;
import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.StubUpstream;
import io.github.appsetmapper.upstream.HttpUpstream;
import io.github.appsetmapper.upstream.call.Headers;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every mapping test file under mappings/, samples/ and src/test/resources/golden/ run over real
 * HTTP: the real server on port 0 with the mapping, a real upstream stub on port 0 answering the
 * recorded exchanges. URL-valued vars point at the stub (the recorded URLs, Link headers and bodies
 * are rewritten alike), so the mapping's real HTTP client, pagination and encoding run. Each case
 * must give exactly the expected answer and make exactly the expected upstream calls.
 */
class GoldenFilesTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TestFactory
  Stream<DynamicNode> everyTestFile() throws IOException {
    List<Path> files = new ArrayList<>();
    for (String root : List.of("mappings", "samples", "src/test/resources/golden")) {
      Path dir = Path.of(root);
      if (Files.isDirectory(dir)) {
        try (Stream<Path> walk = Files.walk(dir)) {
          walk.filter(MappingSources::isTestFile).sorted().forEach(files::add);
        }
      }
    }
    assertThat(files).as("test files found").isNotEmpty();
    List<DynamicNode> nodes = new ArrayList<>();
    for (Path file : files) {
      ExchangeFile exchanges = ExchangeFile.read(file);
      List<DynamicNode> cases = new ArrayList<>();
      for (ReplayCase c : exchanges.cases()) {
        cases.add(DynamicTest.dynamicTest(c.name(), () -> runCase(exchanges, c)));
      }
      nodes.add(DynamicContainer.dynamicContainer(file.toString(), cases));
    }
    return nodes.stream();
  }

  private void runCase(ExchangeFile file, ReplayCase c) throws Exception {
    try (StubUpstream stub = new StubUpstream()) {
      Rewrite rewrite = new Rewrite(file.vars(), stub.url());
      List<RecordedExchange> expected = new ArrayList<>();
      for (RecordedExchange e : c.exchanges()) {
        expected.add(rewrite.exchange(e));
      }
      List<RecordedExchange> unused = new ArrayList<>(expected);
      stub.otherwise(
          received -> {
            Headers headers =
                Headers.of(
                    received.headers().entrySet().stream()
                        .map(h -> new Headers.Header(h.getKey(), h.getValue()))
                        .toList());
            synchronized (unused) {
              // An exchange recorded n times is expected n times: unused ones match first.
              List<RecordedExchange> candidates = new ArrayList<>(unused);
              candidates.addAll(expected);
              for (RecordedExchange e : candidates) {
                if (ExchangeMatcher.matches(
                    e,
                    received.method(),
                    stub.url() + received.rawUri(),
                    headers,
                    received.body())) {
                  unused.remove(e);
                  return new StubUpstream.Reply(
                      e.status(), e.responseHeaders(), e.responseBody(), 0, null);
                }
              }
            }
            return StubUpstream.Reply.json(
                599,
                "{\"message\":\"unexpected call "
                    + received.method()
                    + " "
                    + received.rawUri()
                    + "\"}");
          });
      Map<String, String> vars = rewrite.vars();
      try (AppRuntime runtime =
              AppRuntime.builder()
                  // The test file's vars are for the mapping it tests, as `test` takes them.
                  .vars(VarValues.NONE.under(vars))
                  .environment(name -> null)
                  .secretValues(file.secrets())
                  .transport(new HttpUpstream(16, HttpUpstream.DEFAULT_MAX_BODY_BYTES))
                  .build();
          AppServer server = serve(runtime, file)) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("applicationSetName", c.applicationSetName());
        body.put("input", c.input().isEmpty() ? Map.of() : Map.of("parameters", c.input()));
        HttpResponse<String> answer =
            HttpClient.newHttpClient()
                .send(
                    HttpRequest.newBuilder(
                            URI.create(
                                "http://127.0.0.1:"
                                    + server.port()
                                    + "/mappings/"
                                    + server.registry().names().iterator().next()
                                    + "/api/v1/getparams.execute"))
                        .header("Authorization", "Bearer " + PluginServer.TOKEN)
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(Json.write(body)))
                        .build(),
                    HttpResponse.BodyHandlers.ofString());
        if (c.expectParameters() != null) {
          assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
          JsonNode want = JSON.readTree(rewrite.text(Json.answer(c.expectParameters())));
          assertThat(JSON.readTree(answer.body())).isEqualTo(want);
        } else {
          assertThat(answer.statusCode()).as(answer.body()).isEqualTo(c.expectStatus());
          if (c.expectMessage() != null) {
            assertThat(JSON.readTree(answer.body()).get("error").asText())
                .isEqualTo(rewrite.text(c.expectMessage()));
          }
        }
        assertThat(unused).as("recorded exchanges the mapping did not make").isEmpty();
        assertThat(stub.received()).as("calls made").hasSize(expected.size());
      }
    }
  }

  /** The real server over the runtime, serving the one mapping the test file tests. */
  private static AppServer serve(AppRuntime runtime, ExchangeFile file) {
    MappingLoader.Result loaded = runtime.load(List.of(file.path().getParent()));
    assertThat(loaded.varErrors()).as("vars bind").isEmpty();
    assertThat(loaded.problems()).as("mappings load").isEmpty();
    CompiledMapping mapping = pick(file, loaded.mappings());
    return runtime
        .server(
            new ServerOptions("127.0.0.1", 0, Tokens.fixed(PluginServer.TOKEN), 1 << 20, 1, 4),
            MappingRegistry.of(List.of(mapping), null))
        .start();
  }

  private static CompiledMapping pick(ExchangeFile file, List<CompiledMapping> mappings) {
    if (file.mapping() != null) {
      return mappings.stream()
          .filter(m -> m.name().equals(file.mapping()))
          .findFirst()
          .orElseThrow(() -> new AssertionError("no mapping " + file.mapping()));
    }
    assertThat(mappings).as("one mapping beside " + file.path()).hasSize(1);
    return mappings.get(0);
  }

  /** Points URL-valued vars at the stub and rewrites recorded text the same way. */
  private record Rewrite(Map<String, String> original, String stubUrl) {
    Map<String, String> vars() {
      Map<String, String> out = new LinkedHashMap<>();
      original.forEach((k, v) -> out.put(k, text(v)));
      return out;
    }

    String text(String text) {
      String out = text;
      for (String value : original.values()) {
        if (value.startsWith("http://") || value.startsWith("https://")) {
          URI uri = URI.create(value);
          String origin = uri.getScheme() + "://" + uri.getRawAuthority();
          out = out.replace(origin, stubUrl);
        }
      }
      return out;
    }

    RecordedExchange exchange(RecordedExchange e) {
      Map<String, String> responseHeaders = new LinkedHashMap<>();
      e.responseHeaders().forEach((k, v) -> responseHeaders.put(k, text(v)));
      return e.movedTo(
          text(e.url()),
          responseHeaders,
          text(new String(e.responseBody(), StandardCharsets.UTF_8))
              .getBytes(StandardCharsets.UTF_8));
    }
  }
}
