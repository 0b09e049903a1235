package io.github.appsetmapper.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.server.Json;
import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.PluginServer.Answer;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Property-based: whatever body and headers a caller sends, the answer is a 4xx with a one-line
 * error or a correct 2xx; never a 5xx, never a crash; the server stays up without thread growth.
 */
class InputFuzzTest {
  private static final String MAPPING =
      """
      name: echo
      input:
        name: {required: true, pattern: "[a-z][a-z0-9-]{0,30}"}
        count: {type: number, default: 1}
        tags: {type: list, default: []}
      parameters:
        name: input.name
        count: input.count
        tags: input.tags
        appSet: applicationSetName
      """;
  private static PluginServer plugin;
  private static int threadsBefore;
  private static final HttpClient RAW =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @BeforeContainer
  static void start() throws IOException {
    Path dir = Files.createTempDirectory("fuzz");
    plugin = PluginServer.withYaml(dir, Map.of(), Map.of(), MAPPING);
    plugin.getparams("echo", "{\"input\":{\"parameters\":{\"name\":\"warm\"}}}");
    threadsBefore = ManagementFactory.getThreadMXBean().getThreadCount();
  }

  @AfterContainer
  static void stop() {
    assertThat(plugin.send("GET", "/healthz", null, null, null).status()).isEqualTo(200);
    int threadsAfter = ManagementFactory.getThreadMXBean().getThreadCount();
    assertThat(threadsAfter - threadsBefore).as("thread growth").isLessThan(20);
    plugin.close();
  }

  @Property(tries = 400)
  void arbitraryTextBodies(@ForAll("bodies") String body) {
    check(plugin.getparams("echo", body), null);
  }

  @Property(tries = 400)
  void arbitraryParameterValues(
      @ForAll("parameters") Map<String, Object> parameters, @ForAll("names") String appSet) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("applicationSetName", appSet);
    body.put("input", Map.of("parameters", parameters));
    check(plugin.getparams("echo", Json.write(body)), parameters);
  }

  @Property(tries = 200)
  void arbitraryHeaders(
      @ForAll("authorizations") String authorization, @ForAll("contentTypes") String contentType) {
    Answer answer =
        plugin.send(
            "POST",
            "/mappings/echo/api/v1/getparams.execute",
            "{\"input\":{\"parameters\":{\"name\":\"ok\"}}}",
            authorization,
            contentType);
    if (("Bearer " + PluginServer.TOKEN).equalsIgnoreCase(authorization)
        || authorization.strip().equalsIgnoreCase("Bearer " + PluginServer.TOKEN)) {
      assertThat(answer.status()).isIn(200, 403);
    } else {
      assertThat(answer.status()).isEqualTo(403);
    }
  }

  @Property(tries = 100)
  void arbitraryBytes(@ForAll("bytes") byte[] body) throws Exception {
    HttpResponse<String> response =
        RAW.send(
            HttpRequest.newBuilder(
                    URI.create(plugin.url() + "/mappings/echo/api/v1/getparams.execute"))
                .header("Authorization", "Bearer " + PluginServer.TOKEN)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).isBetween(200, 499);
  }

  /** A 4xx with one line, or a 200 that is exactly the echo of a valid input. */
  private static void check(Answer answer, Map<String, Object> parameters) {
    assertThat(answer.status()).as(answer.body()).isLessThan(500);
    if (answer.status() != 200) {
      assertThat(answer.status()).isBetween(400, 499);
      assertThat(answer.body()).matches("\\{\"error\":\"[^\\n]+\"\\}");
      return;
    }
    assertThat(answer.body()).startsWith("{\"output\":{\"parameters\":[{\"name\":\"");
    if (parameters != null) {
      assertThat(answer.body()).contains("\"name\":\"" + parameters.get("name") + "\"");
    }
  }

  @Provide
  Arbitrary<String> bodies() {
    Arbitrary<String> json =
        Arbitraries.of(
            "{}",
            "[]",
            "null",
            "\"x\"",
            "1",
            "{\"input\":null}",
            "{\"input\":{\"parameters\":null}}",
            "{\"input\":{\"parameters\":{\"name\":\"ok\"}}}",
            "{\"input\":{\"parameters\":[]}}",
            "{\"applicationSetName\":{},\"input\":{}}",
            "{\"input\":{\"parameters\":{\"name\":\"ok\",\"name\":\"x\"}}}");
    Arbitrary<String> text = Arbitraries.strings().ofMaxLength(300);
    Arbitrary<String> mutated =
        json.flatMap(
            j ->
                Arbitraries.integers()
                    .between(0, Math.max(0, j.length() - 1))
                    .map(cut -> j.substring(0, cut) + "\u0000}\"{[" + j.substring(cut)));
    return Arbitraries.oneOf(json, text, mutated);
  }

  @Provide
  Arbitrary<Map<String, Object>> parameters() {
    Arbitrary<Object> value =
        Arbitraries.oneOf(
            Arbitraries.strings().ofMaxLength(40).map(s -> (Object) s),
            Arbitraries.strings()
                .withCharRange('a', 'z')
                .ofMinLength(1)
                .ofMaxLength(10)
                .map(s -> (Object) s),
            Arbitraries.integers().map(i -> (Object) i),
            Arbitraries.doubles().map(d -> (Object) d),
            Arbitraries.of(true, false).map(b -> (Object) b),
            Arbitraries.just(null),
            Arbitraries.strings().ofMaxLength(5).list().ofMaxSize(3).map(l -> (Object) l),
            Arbitraries.of("#{T(java.lang.System).exit(1)}", "../..", "a\r\nb: c", "${x}")
                .map(s -> (Object) s));
    Arbitrary<String> key = Arbitraries.of("name", "count", "tags", "other", "");
    return Arbitraries.maps(key, value).ofMaxSize(4);
  }

  @Provide
  Arbitrary<String> names() {
    return Arbitraries.strings().ofMaxLength(30);
  }

  @Provide
  Arbitrary<String> authorizations() {
    return Arbitraries.oneOf(
        Arbitraries.of(
            "Bearer " + PluginServer.TOKEN,
            "bearer " + PluginServer.TOKEN,
            "Bearer",
            "Bearer ",
            "Basic " + PluginServer.TOKEN,
            "Bearer " + PluginServer.TOKEN + "x",
            "Bearer $plugin.x.token",
            PluginServer.TOKEN),
        Arbitraries.strings().withCharRange(' ', '~').ofMaxLength(60));
  }

  @Provide
  Arbitrary<String> contentTypes() {
    return Arbitraries.of(
        "application/json",
        "text/plain",
        "application/x-www-form-urlencoded",
        "application/json; charset=utf-16",
        "*/*");
  }

  @Provide
  Arbitrary<byte[]> bytes() {
    return Arbitraries.bytes().array(byte[].class).ofMaxSize(2000);
  }
}
