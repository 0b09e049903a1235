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
 * {@code serve} starts without what its mappings do not use (issue 25: every class loaded before
 * the first answer is start-up time): a server of mappings without calls answers without making the
 * HTTP client or the TLS setup, and writes plain answers without Jackson's databind; a server with
 * a mapping that calls still makes the client ahead, on a thread of its own, before any call.
 */
class ServeStartClassesTest {
  private static final String STATIC =
      "name: hello\ninput:\n  who: {}\n  n: {}\nparameters:\n  greeting: \"'hello ' + input.who\"\n";

  @Test
  void aServerOfMappingsWithoutCallsAnswersWithoutTheClientOrDatabind(@TempDir Path dir)
      throws Exception {
    Path mapping = dir.resolve("hello.yaml");
    Files.writeString(mapping, STATIC);
    Path classes = dir.resolve("classes.txt");
    try (ServerProcess server = ServerProcess.start(logClasses(classes), serve(mapping))) {
      HttpResponse<String> answer =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(
                          URI.create(server.url() + "/mappings/hello/api/v1/getparams.execute"))
                      .POST(
                          HttpRequest.BodyPublishers.ofString(
                              "{\"applicationSetName\":\"a\",\"input\":{\"parameters\":"
                                  + "{\"who\":\"there\",\"n\":1.5}}}"))
                      .header("Content-Type", "application/json")
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      assertThat(answer.statusCode()).isEqualTo(200);
      assertThat(answer.body()).contains("hello there");
      // The metrics registry is the start-ahead thread's first work: once it is made, the thread
      // has had its chance to make the client too.
      awaitLoaded(classes, "io.micrometer.prometheusmetrics.PrometheusMeterRegistry");
      server.signal("TERM");
      server.process().waitFor();
    }
    List<String> loaded = loaded(classes);
    assertThat(loaded).contains("io.github.appsetmapper.upstream.HttpUpstream");
    assertThat(
            loaded.stream()
                .filter(
                    name ->
                        name.startsWith("org.apache.hc.client5.http.impl.")
                            || name.startsWith("org.apache.hc.core5.pool.")
                            || name.equals("com.fasterxml.jackson.databind.ObjectMapper")))
        .isEmpty();
  }

  @Test
  void aServerWithAMappingThatCallsMakesTheClientBeforeAnyCall(@TempDir Path dir) throws Exception {
    Path mapping = dir.resolve("calls.yaml");
    Files.writeString(
        mapping,
        "name: calls\nlist:\n  request: {url: \"https://example.invalid/items\"}\n  items: \"$[*]\"\n"
            + "parameters:\n  name: item.name\n");
    Path classes = dir.resolve("classes.txt");
    try (ServerProcess server = ServerProcess.start(logClasses(classes), serve(mapping))) {
      // No getparams is sent: the client is made ahead or never; waits on the log, not a clock.
      awaitLoaded(classes, "org.apache.hc.client5.http.impl.classic.CloseableHttpClient");
    }
  }

  /**
   * A mapping that calls, loaded into a server of mappings without calls, gets its client made as
   * it loads, not inside its first getparams' deadline (an outside tester's first HTTPS call took
   * 1.4 s and answered 504 at a 1 s deadline).
   */
  @Test
  void aReloadedMappingThatCallsGetsTheClientBeforeItAnswers(@TempDir Path dir) throws Exception {
    Path mappings = Files.createDirectories(dir.resolve("mappings"));
    Files.writeString(mappings.resolve("hello.yaml"), STATIC);
    Path classes = dir.resolve("classes.txt");
    List<String> serve = new java.util.ArrayList<>(serve(mappings));
    serve.addAll(List.of("--reload-interval", "200ms"));
    try (ServerProcess server = ServerProcess.start(logClasses(classes), serve)) {
      awaitLoaded(classes, "io.micrometer.prometheusmetrics.PrometheusMeterRegistry");
      assertThat(loaded(classes))
          .doesNotContain("org.apache.hc.client5.http.impl.classic.CloseableHttpClient");
      Path staged = dir.resolve("calls.yaml");
      Files.writeString(
          staged,
          "name: calls\nlist:\n  request: {url: \"https://example.invalid/items\"}\n"
              + "  items: \"$[*]\"\nparameters:\n  name: item.name\n");
      Files.move(staged, mappings.resolve("calls.yaml"));
      server.awaitLine(line -> line.contains("loaded new file") && line.contains("calls.yaml"));
      // No getparams is sent: the reload made the client before the new mapping answered.
      awaitLoaded(classes, "org.apache.hc.client5.http.impl.classic.CloseableHttpClient");
    }
  }

  private static List<String> logClasses(Path classes) {
    return List.of("-Xlog:class+load:file=" + classes);
  }

  private static List<String> serve(Path mapping) {
    return List.of(
        "serve",
        "--mappings",
        mapping.toString(),
        "--port",
        "0",
        "--host",
        "127.0.0.1",
        "--insecure-no-auth");
  }

  private static void awaitLoaded(Path classes, String name) throws Exception {
    long bound = System.nanoTime() + ServerProcess.BOUND.toNanos();
    while (!loaded(classes).contains(name)) {
      assertThat(System.nanoTime()).as("%s is never loaded", name).isLessThan(bound);
      Thread.sleep(50);
    }
  }

  private static List<String> loaded(Path classes) throws Exception {
    if (!Files.exists(classes)) {
      return List.of();
    }
    return StartupClassesTest.classNames(classes);
  }
}
