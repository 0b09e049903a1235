package io.github.appsetmapper.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.testing.ServerProcess;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code serve --replay} checked that the test file's mapping is served only at start: a reload
 * renaming it went on replaying, the file's vars going to no mapping (the renamed one answered from
 * its defaults, or as {@code no recorded exchange}), a server start refuses. Now every getparams
 * and explain answers a 503 with the rule's line, {@code GET /mappings} lists it, until a reload
 * serves the tested mapping again.
 */
class ReplayReloadTest {
  private static final String SHAPE =
      "name: %s\nvars: {up: {default: \"http://unset.invalid\"}, extra: {default: own}}\n"
          + "list:\n  request: {url: \"#{vars.up}/rows\"}\n  items: \"$[*]\"\n"
          + "parameters: {id: item, e: vars.extra}\n";
  private static final String BODY = "{\"applicationSetName\":\"a\",\"input\":{\"parameters\":{}}}";

  private static HttpResponse<String> post(HttpClient client, String url) throws Exception {
    return client.send(
        HttpRequest.newBuilder(URI.create(url))
            .POST(HttpRequest.BodyPublishers.ofString(BODY))
            .header("Content-Type", "application/json")
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static HttpResponse<String> get(HttpClient client, String url) throws Exception {
    return client.send(
        HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
  }

  /** Polls {@code GET /mappings} (a condition, not a time) until it lists {@code name}. */
  private static String awaitServed(HttpClient client, ServerProcess server, String name)
      throws Exception {
    for (int i = 0; i < 6_000; i++) {
      String body = get(client, server.url() + "/mappings").body();
      if (body.contains("\"name\":\"" + name + "\"")) {
        return body;
      }
      Thread.sleep(20); // polling a condition, not a synchronisation by time
    }
    throw new AssertionError("never served " + name + ":\n" + server.text());
  }

  @Test
  void aReloadThatRenamesTheReplayedMappingRefusesEveryCallUntilItIsBack(@TempDir Path dir)
      throws Exception {
    Path folder = Files.createDirectories(dir.resolve("m"));
    Path mapping = folder.resolve("ma.yaml");
    Files.writeString(mapping, SHAPE.formatted("ma"));
    Path test = dir.resolve("ma.test.yaml");
    Files.writeString(
        test,
        "mapping: ma\nvars: {up: \"https://recorded.example\", extra: FROMTEST}\n"
            + "cases:\n  - name: one\n    input: {}\n    exchanges:\n"
            + "      - request: {method: GET, url: \"https://recorded.example/rows\"}\n"
            + "        response: {status: 200, body: [1]}\n"
            + "    expect: {parameters: [{id: \"1\", e: FROMTEST}]}\n");
    try (ServerProcess server =
        ServerProcess.start(
            List.of(),
            List.of(
                "serve",
                "--mappings",
                folder.toString(),
                "--insecure-no-auth",
                "--port",
                "0",
                "--reload-interval",
                "100ms",
                "--replay",
                test.toString()))) {
      HttpClient client = HttpClient.newHttpClient();
      HttpResponse<String> before = post(client, server.url() + "/api/v1/getparams.execute");
      assertThat(before.statusCode()).as(before.body()).isEqualTo(200);
      assertThat(before.body()).contains("FROMTEST");

      Files.writeString(mapping, SHAPE.formatted("mb"));
      String catalog = awaitServed(client, server, "mb");
      String line =
          "--replay "
              + test
              + ": no mapping 'ma' in "
              + folder
              + "; found: mb: no mapping is run until a reload serves the mapping it tests";
      for (String path :
          List.of(
              "/api/v1/getparams.execute",
              "/mappings/mb/api/v1/getparams.execute",
              "/mappings/mb/api/v1/getparams.explain")) {
        HttpResponse<String> refused = post(client, server.url() + path);
        assertThat(refused.statusCode()).as(path + " " + refused.body()).isEqualTo(503);
        assertThat(refused.body()).as(path).contains(line.replace("\\", "\\\\"));
      }
      assertThat(catalog).contains(line.replace("\\", "\\\\"));
      assertThat(
              server.lines().stream().filter(l -> l.contains("ERROR") && l.contains(line)).count())
          .as(server.text())
          .isEqualTo(1);

      Files.writeString(mapping, SHAPE.formatted("ma"));
      awaitServed(client, server, "ma");
      server.awaitLine(l -> l.contains("--replay: the mapping it tests is served again"));
      HttpResponse<String> after = post(client, server.url() + "/api/v1/getparams.execute");
      assertThat(after.statusCode()).as(after.body()).isEqualTo(200);
      assertThat(after.body()).contains("FROMTEST");
    }
  }

  /** Polls {@code GET /mappings} (a condition, not a time) until it lists no mapping. */
  private static String awaitNone(HttpClient client, ServerProcess server) throws Exception {
    for (int i = 0; i < 6_000; i++) {
      String body = get(client, server.url() + "/mappings").body();
      if (!body.contains("\"name\":")) {
        return body;
      }
      Thread.sleep(20); // polling a condition, not a synchronisation by time
    }
    throw new AssertionError("never served none:\n" + server.text());
  }

  /**
   * The replayed mapping's file deleted: the default URL answered 404 "no default mapping" (the
   * registry, empty, has no default) where the docs say 503, and the rule's line read {@code found:
   * :}. Now the 503 with a line naming the missing mapping, until its file is back.
   */
  @Test
  void aReloadThatDeletesTheReplayedMappingAnswers503NamingIt(@TempDir Path dir) throws Exception {
    Path folder = Files.createDirectories(dir.resolve("m"));
    Path mapping = folder.resolve("ma.yaml");
    Files.writeString(mapping, SHAPE.formatted("ma"));
    Path test = dir.resolve("ma.test.yaml");
    Files.writeString(
        test,
        "mapping: ma\nvars: {up: \"https://recorded.example\", extra: FROMTEST}\n"
            + "cases:\n  - name: one\n    input: {}\n    exchanges:\n"
            + "      - request: {method: GET, url: \"https://recorded.example/rows\"}\n"
            + "        response: {status: 200, body: [1]}\n"
            + "    expect: {parameters: [{id: \"1\", e: FROMTEST}]}\n");
    try (ServerProcess server =
        ServerProcess.start(
            List.of(),
            List.of(
                "serve",
                "--mappings",
                folder.toString(),
                "--insecure-no-auth",
                "--port",
                "0",
                "--reload-interval",
                "100ms",
                "--replay",
                test.toString()))) {
      HttpClient client = HttpClient.newHttpClient();
      assertThat(post(client, server.url() + "/api/v1/getparams.execute").statusCode())
          .isEqualTo(200);

      Files.delete(mapping);
      String catalog = awaitNone(client, server);
      String line =
          "--replay "
              + test
              + ": no mapping 'ma' in "
              + folder
              + "; it holds none: no mapping is run until a reload serves the mapping it tests";
      HttpResponse<String> refused = post(client, server.url() + "/api/v1/getparams.execute");
      assertThat(refused.statusCode()).as(refused.body()).isEqualTo(503);
      assertThat(refused.body()).contains(line.replace("\\", "\\\\"));
      assertThat(catalog).contains(line.replace("\\", "\\\\"));

      Files.writeString(mapping, SHAPE.formatted("ma"));
      awaitServed(client, server, "ma");
      server.awaitLine(l -> l.contains("--replay: the mapping it tests is served again"));
      HttpResponse<String> after = post(client, server.url() + "/api/v1/getparams.execute");
      assertThat(after.statusCode()).as(after.body()).isEqualTo(200);
      assertThat(after.body()).contains("FROMTEST");
    }
  }
}
