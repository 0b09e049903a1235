package io.github.appsetmapper.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One explain call whose filter drops 300,000 rows, on a server with a small heap (a separate
 * process with {@code -Xmx256m}, the default memory budget, so that running out of memory is
 * observable): the report lists the first drops and counts the rest, and the server answers on.
 * Before, every dropped row was kept with a 1.2 KB reason and the process died.
 */
class ExplainMemoryTest {
  private static final Duration BOUND = Duration.ofSeconds(120);
  private static final int ROWS = 300_000;

  @Test
  void anExplainDroppingThreeHundredThousandRowsIsBoundedAndTheServerAnswersOn(@TempDir Path dir)
      throws Exception {
    StringBuilder items = new StringBuilder("[");
    for (int i = 0; i < ROWS; i++) {
      items.append(i == 0 ? "0" : ",0");
    }
    String answer = items.append(']').toString();
    StringBuilder filter = new StringBuilder("item != 0");
    for (int i = 1; filter.length() < 600; i++) {
      filter.append(" and item != ").append(i);
    }
    Files.writeString(
        dir.resolve("zeros.yaml"),
        "name: zeros\nvars: {up: {default: \"http://unset.invalid\"}}\n"
            + "list:\n  request: {url: \"#{vars.up}/zeros\"}\n  items: \"$[*]\"\n"
            + "filter: \""
            + filter
            + "\"\nparameters: {n: item}\n");
    try (StubUpstream stub = new StubUpstream()) {
      stub.on("GET /zeros", Reply.json(200, answer));
      try (ServerProcess server =
          ServerProcess.start(
              List.of("-Xmx256m", "-XX:+ExitOnOutOfMemoryError"),
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
                  "--insecure-no-auth"))) {
        Process process = server.process();
        int port = server.port();
        HttpClient client = HttpClient.newHttpClient();

        HttpResponse<String> explain = post(client, port, "getparams.explain");

        assertThat(explain.statusCode()).as(server.text()).isEqualTo(200);
        JsonNode filterStage = null;
        for (JsonNode stage : new ObjectMapper().readTree(explain.body()).get("stages")) {
          if (stage.get("stage").asText().equals("filter")) {
            filterStage = stage;
          }
        }
        assertThat(filterStage)
            .as(explain.body().substring(0, Math.min(3000, explain.body().length())))
            .isNotNull();
        assertThat(filterStage.get("dropped")).hasSize(50);
        assertThat(filterStage.get("moreDropped").get(0).get("rows").asLong()).isEqualTo(ROWS - 50);
        assertThat(explain.body().length()).isLessThan(1_000_000);
        assertThat(post(client, port, "getparams.explain?format=text").body())
            .contains("      ... and 299,950 more rows dropped: 'item != 0' is false, in 'item");
        HttpResponse<String> getparams = post(client, port, "getparams.execute");
        assertThat(getparams.statusCode()).as(server.text()).isEqualTo(200);
        assertThat(getparams.body()).isEqualTo("{\"output\":{\"parameters\":[]}}");
        assertThat(process.isAlive()).isTrue();
      }
    }
  }

  private static HttpResponse<String> post(HttpClient client, int port, String what)
      throws Exception {
    return client.send(
        HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + port + "/mappings/zeros/api/v1/" + what))
            .timeout(BOUND)
            .POST(HttpRequest.BodyPublishers.ofString("{}"))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
