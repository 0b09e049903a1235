package io.github.appsetmapper.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.testing.ServerProcess;
import io.github.appsetmapper.testing.StubUpstream;
import io.github.appsetmapper.testing.StubUpstream.Reply;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a getparams builds per row (a let, a parameter, a rendered request) draws from the memory
 * budget, on a server with a small heap that exits on running out of memory (a separate process):
 * an answer that does not fit is a 503 naming the budget, and the server answers a control
 * getparams after it. Before, each of these killed the process.
 */
class RowMemoryTest {
  private static final Duration BOUND = Duration.ofSeconds(180);

  /** One string of 1,048,576 characters, built within the expression bounds. */
  private static final String MEBI_STRING =
      "('x' * 256).replace('x', ('y' * 256).replace('y', 'zzzzzzzzzzzzzzzz'))";

  private static final String CONTROL =
      "name: control\nvars: {up: {default: \"http://unset.invalid\"}}\n"
          + "list:\n  request: {url: \"#{vars.up}/items\"}\n  items: \"$[0:2]\"\n"
          + "parameters: {n: item}\n";

  @Test
  void aLetBuiltOnEveryRowIsRefusedByTheBudget(@TempDir Path dir) throws Exception {
    write(dir, "big", "let: {big: \"" + MEBI_STRING + "\"}\nparameters: {n: \"big.length()\"}\n");
    assertRefusedAndServing(dir, List.of("--memory-budget", "64Mi"), "big", "{}");
  }

  /**
   * A split into half a million one-character parts: charged as its characters alone (3 MB a row
   * where the heap held 28 MB), twelve rows fitted a 64 MiB budget and ended the 256 MiB JVM (an
   * outside tester's find). Each part's object now counts. (A quarter of a million parts here: half
   * a million now pass the evaluation's own allowance, a 500, before the budget is asked.)
   */
  @Test
  void aSplitIntoManySmallPartsIsRefusedByTheBudget(@TempDir Path dir) throws Exception {
    String commas = MEBI_STRING.replace("'zzzzzzzzzzzzzzzz'", "'zzz,zzz,zzz,zzz,'");
    write(
        dir,
        "parts",
        "let: {parts: \"" + commas + ".split(',')\"}\nparameters: {n: \"parts.size()\"}\n");
    assertRefusedAndServing(dir, List.of("--memory-budget", "64Mi"), "parts", "{}");
  }

  @Test
  void aParameterBuiltOnEveryRowIsRefusedByTheBudget(@TempDir Path dir) throws Exception {
    write(dir, "big", "parameters: {big: \"" + MEBI_STRING + "\"}\n");
    assertRefusedAndServing(dir, List.of("--memory-budget", "64Mi"), "big", "{}");
  }

  @Test
  void aShadowCandidatesLetsDrawFromTheShadowBudget(@TempDir Path dir) throws Exception {
    write(dir, "big", "parameters: {n: item}\n");
    Path shadow = Files.createDirectories(dir.resolve("shadow"));
    write(
        shadow, "big", "let: {big: \"" + MEBI_STRING + "\"}\nparameters: {n: \"big.length()\"}\n");
    try (Server server = new Server(dir, List.of("--shadow", shadow.toString()))) {
      HttpResponse<String> live = server.post("big", "{}");
      assertThat(live.statusCode()).as(server.output()).isEqualTo(200);
      HttpResponse<String> candidate = server.post("big/shadow", "{}");
      assertThat(candidate.statusCode()).as(server.output()).isEqualTo(503);
      assertThat(candidate.body()).contains("memory budget").contains("--memory-budget");
      assertServing(server);
    }
  }

  @Test
  void requestsRenderedFromALargeInputAreRefusedByTheBudget(@TempDir Path dir) throws Exception {
    Files.writeString(
        dir.resolve("wide.yaml"),
        "name: wide\nvars: {up: {default: \"http://unset.invalid\"}}\n"
            + "input: {q: {type: string}}\nconcurrency: 1\n"
            + "list:\n  request: {url: \"#{vars.up}/items\"}\n  items: \"$[0:200]\"\n"
            + "enrich:\n  one:\n    request:\n      url: \"#{vars.up}/one/#{item}\"\n"
            + "      query: {q: \"#{input.q}\"}\n"
            + "parameters: {n: item}\n");
    String q = "\"" + "a".repeat(300_000) + "\"";
    assertRefusedAndServing(dir, List.of(), "wide", "{\"q\":" + q + "}");
  }

  /**
   * Ten MB of one-line YAML maps become 1.5 million maps, about 190 MB of heap: counted once built,
   * the read ended the 256 MiB JVM first (an outside tester's find; the same through SnakeYAML).
   * The data is held against the budget as it is built, so the read stops with a 503.
   */
  @Test
  void aYamlAnswerOfManySmallMapsIsRefusedWhileItIsBuilt(@TempDir Path dir) throws Exception {
    Files.writeString(
        dir.resolve("maps.yaml"),
        "name: maps\nvars: {up: {default: \"http://unset.invalid\"}}\n"
            + "list:\n  request: {url: \"#{vars.up}/maps.yaml\", format: yaml}\n"
            + "  items: \"$.r[0:1]\"\nparameters: {n: item.a}\n");
    try (Server server = new Server(dir, List.of())) {
      server.stub.on("GET /maps.yaml", Reply.json(200, "r:\n" + "- a: b\n".repeat(1_500_000)));
      HttpResponse<String> refused = server.post("maps", "{}");
      assertThat(refused.statusCode()).as(server.output()).isEqualTo(503);
      assertThat(refused.body()).contains("still being read").contains("--memory-budget");
      assertServing(server);
    }
  }

  /**
   * Four answers at once, each 5 MB of small JSON objects (about 100 MB of heap each once read):
   * each fitted the budget alone and all four were read at once, ending the 256 MiB JVM. Held as
   * they are built, they share one budget: some are refused, the server lives.
   */
  @Test
  void fourLargeJsonAnswersAtOnceShareOneBudget(@TempDir Path dir) throws Exception {
    Files.writeString(
        dir.resolve("doc.yaml"),
        "name: doc\nvars: {up: {default: \"http://unset.invalid\"}}\n"
            + "input: {d: {required: true, pattern: \"[0-9]\"}}\n"
            + "list:\n  request: {url: \"#{vars.up}/doc/#{input.d}\"}\n"
            + "  items: \"$.r[0:1]\"\nparameters: {n: item.a}\n");
    String body = "{\"r\":[" + "{\"a\":\"b\"},".repeat(500_000) + "{\"a\":\"b\"}]}";
    try (Server server = new Server(dir, List.of())) {
      server.stub.otherwise(received -> Reply.json(200, body));
      List<java.util.concurrent.CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
      for (int d = 0; d < 4; d++) {
        calls.add(server.postAsync("doc", "{\"d\":\"" + d + "\"}"));
      }
      List<Integer> statuses = new ArrayList<>();
      for (var call : calls) {
        statuses.add(call.get().statusCode());
      }
      assertThat(statuses).as(server.output()).allMatch(s -> s == 200 || s == 503);
      assertServing(server);
    }
  }

  private static void write(Path dir, String name, String rest) throws Exception {
    Files.writeString(
        dir.resolve(name + ".yaml"),
        "name: "
            + name
            + "\nvars: {up: {default: \"http://unset.invalid\"}}\n"
            + "list:\n  request: {url: \"#{vars.up}/items\"}\n  items: \"$[*]\"\n"
            + rest);
  }

  private static void assertRefusedAndServing(
      Path dir, List<String> flags, String mapping, String parameters) throws Exception {
    try (Server server = new Server(dir, flags)) {
      HttpResponse<String> refused = server.post(mapping, parameters);
      assertThat(refused.statusCode()).as(server.output()).isEqualTo(503);
      assertThat(refused.body()).contains("memory budget").contains("--memory-budget");
      assertServing(server);
    }
  }

  private static void assertServing(Server server) throws Exception {
    HttpResponse<String> control = server.post("control", "{}");
    assertThat(control.statusCode()).as(server.output()).isEqualTo(200);
    assertThat(control.body())
        .isEqualTo("{\"output\":{\"parameters\":[{\"n\":\"0\"},{\"n\":\"1\"}]}}");
    assertThat(server.process.isAlive()).isTrue();
  }

  /** The server in a process of its own, -Xmx256m, exiting on running out of memory. */
  private static final class Server implements AutoCloseable {
    final StubUpstream stub = new StubUpstream();
    final Process process;
    final ServerProcess server;
    final HttpClient client = HttpClient.newHttpClient();
    final int port;

    Server(Path dir, List<String> flags) throws Exception {
      Files.writeString(dir.resolve("control.yaml"), CONTROL);
      StringBuilder items = new StringBuilder("[");
      for (int i = 0; i < 600; i++) {
        items.append(i == 0 ? "" : ",").append(i);
      }
      stub.on("GET /items", Reply.json(200, items.append(']').toString()));
      stub.otherwise(received -> Reply.json(200, "{}"));
      List<String> arguments =
          new ArrayList<>(
              List.of(
                  "serve",
                  "--mappings",
                  dir.toString(),
                  "--var",
                  "up=" + stub.url(),
                  "--port",
                  "0",
                  "--host",
                  "127.0.0.1",
                  "--insecure-no-auth"));
      arguments.addAll(flags);
      server = ServerProcess.start(List.of("-Xmx256m", "-XX:+ExitOnOutOfMemoryError"), arguments);
      process = server.process();
      port = server.port();
    }

    String output() {
      return server.text();
    }

    HttpResponse<String> post(String mapping, String parameters) throws Exception {
      return client.send(request(mapping, parameters), HttpResponse.BodyHandlers.ofString());
    }

    private HttpRequest request(String mapping, String parameters) {
      return HttpRequest.newBuilder(
              URI.create(
                  "http://127.0.0.1:"
                      + port
                      + "/mappings/"
                      + mapping
                      + "/api/v1/getparams.execute"))
          .timeout(BOUND)
          .POST(
              HttpRequest.BodyPublishers.ofString(
                  "{\"applicationSetName\":\"a\",\"input\":{\"parameters\":" + parameters + "}}"))
          .build();
    }

    java.util.concurrent.CompletableFuture<HttpResponse<String>> postAsync(
        String mapping, String parameters) {
      return client.sendAsync(request(mapping, parameters), HttpResponse.BodyHandlers.ofString());
    }

    @Override
    public void close() throws Exception {
      server.close();
      stub.close();
    }
  }
}
