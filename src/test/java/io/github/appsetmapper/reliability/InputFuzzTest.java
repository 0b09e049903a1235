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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Generated input, from fixed seeds: whatever body and headers a caller sends, the answer is a 4xx
 * with a one-line error or a correct 2xx; never a 5xx, never a crash; the server stays up without
 * thread growth. (Plain JUnit with seeded generators: each failing case is named with its seed and
 * index, so it replays exactly.)
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

  @BeforeAll
  static void start() throws IOException {
    Path dir = Files.createTempDirectory("fuzz");
    plugin = PluginServer.withYaml(dir, Map.of(), Map.of(), MAPPING);
    plugin.getparams("echo", "{\"input\":{\"parameters\":{\"name\":\"warm\"}}}");
    threadsBefore = ManagementFactory.getThreadMXBean().getThreadCount();
  }

  @AfterAll
  static void stop() {
    assertThat(plugin.send("GET", "/healthz", null, null, null).status()).isEqualTo(200);
    int threadsAfter = ManagementFactory.getThreadMXBean().getThreadCount();
    assertThat(threadsAfter - threadsBefore).as("thread growth").isLessThan(20);
    plugin.close();
  }

  @Test
  void arbitraryTextBodies() {
    Random random = new Random(11);
    for (int i = 0; i < 400; i++) {
      String body = body(random);
      check("body " + i + " (seed 11): " + body, plugin.getparams("echo", body), null);
    }
  }

  @Test
  void arbitraryParameterValues() {
    Random random = new Random(12);
    for (int i = 0; i < 400; i++) {
      Map<String, Object> parameters = parameters(random);
      Map<String, Object> body = new LinkedHashMap<>();
      body.put("applicationSetName", text(random, 30));
      body.put("input", Map.of("parameters", parameters));
      String json = Json.write(body);
      check("parameters " + i + " (seed 12): " + json, plugin.getparams("echo", json), parameters);
    }
  }

  @Test
  void arbitraryHeaders() {
    Random random = new Random(13);
    List<String> contentTypes =
        List.of(
            "application/json",
            "text/plain",
            "application/x-www-form-urlencoded",
            "application/json; charset=utf-16",
            "*/*");
    for (int i = 0; i < 200; i++) {
      String authorization = authorization(random);
      String contentType = contentTypes.get(random.nextInt(contentTypes.size()));
      Answer answer =
          plugin.send(
              "POST",
              "/mappings/echo/api/v1/getparams.execute",
              "{\"input\":{\"parameters\":{\"name\":\"ok\"}}}",
              authorization,
              contentType);
      String named = "headers " + i + " (seed 13): " + authorization + " / " + contentType;
      if (("Bearer " + PluginServer.TOKEN).equalsIgnoreCase(authorization)
          || authorization.strip().equalsIgnoreCase("Bearer " + PluginServer.TOKEN)) {
        assertThat(answer.status()).as(named).isIn(200, 403);
      } else {
        assertThat(answer.status()).as(named).isEqualTo(403);
      }
    }
  }

  @Test
  void arbitraryBytes() throws Exception {
    Random random = new Random(14);
    for (int i = 0; i < 100; i++) {
      byte[] body = new byte[random.nextInt(2001)];
      random.nextBytes(body);
      HttpResponse<String> response =
          RAW.send(
              HttpRequest.newBuilder(
                      URI.create(plugin.url() + "/mappings/echo/api/v1/getparams.execute"))
                  .header("Authorization", "Bearer " + PluginServer.TOKEN)
                  .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(response.statusCode()).as("bytes " + i + " (seed 14)").isBetween(200, 499);
    }
  }

  /** A 4xx with one line, or a 200 that is exactly the echo of a valid input. */
  private static void check(String named, Answer answer, Map<String, Object> parameters) {
    assertThat(answer.status()).as(named + " -> " + answer.body()).isLessThan(500);
    if (answer.status() != 200) {
      assertThat(answer.status()).as(named).isBetween(400, 499);
      assertThat(answer.body()).as(named).matches("\\{\"error\":\"[^\\n]+\"\\}");
      return;
    }
    assertThat(answer.body()).as(named).startsWith("{\"output\":{\"parameters\":[{\"name\":\"");
    if (parameters != null) {
      assertThat(answer.body()).as(named).contains("\"name\":\"" + parameters.get("name") + "\"");
    }
  }

  private static final List<String> JSON_BODIES =
      List.of(
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

  /** A known body, any text, or a known body with JSON's punctuation and a NUL cut into it. */
  private static String body(Random random) {
    String json = JSON_BODIES.get(random.nextInt(JSON_BODIES.size()));
    return switch (random.nextInt(3)) {
      case 0 -> json;
      case 1 -> text(random, 300);
      default -> {
        int cut = random.nextInt(Math.max(1, json.length()));
        yield json.substring(0, cut) + "\u0000}\"{[" + json.substring(cut);
      }
    };
  }

  private static Map<String, Object> parameters(Random random) {
    List<String> keys = List.of("name", "count", "tags", "other", "");
    Map<String, Object> parameters = new LinkedHashMap<>();
    for (int n = random.nextInt(5); n > 0; n--) {
      parameters.put(keys.get(random.nextInt(keys.size())), value(random));
    }
    return parameters;
  }

  private static Object value(Random random) {
    List<Supplier<Object>> kinds =
        List.of(
            () -> text(random, 40),
            () -> lowercase(random, 1 + random.nextInt(10)),
            () -> pick(random, 0, -1, 1, Integer.MIN_VALUE, Integer.MAX_VALUE, random.nextInt()),
            () ->
                pick(random, 0.0, -0.0, Double.MAX_VALUE, Double.MIN_VALUE, random.nextGaussian()),
            random::nextBoolean,
            () -> null,
            () -> {
              List<Object> list = new ArrayList<>();
              for (int n = random.nextInt(4); n > 0; n--) {
                list.add(text(random, 5));
              }
              return list;
            },
            () -> pick(random, "#{T(java.lang.System).exit(1)}", "../..", "a\r\nb: c", "${x}"));
    return kinds.get(random.nextInt(kinds.size())).get();
  }

  private static String authorization(Random random) {
    return random.nextBoolean()
        ? (String)
            pick(
                random,
                "Bearer " + PluginServer.TOKEN,
                "bearer " + PluginServer.TOKEN,
                "Bearer",
                "Bearer ",
                "Basic " + PluginServer.TOKEN,
                "Bearer " + PluginServer.TOKEN + "x",
                "Bearer $plugin.x.token",
                PluginServer.TOKEN)
        : printable(random, random.nextInt(61));
  }

  private static Object pick(Random random, Object... choices) {
    return choices[random.nextInt(choices.length)];
  }

  /**
   * Up to {@code max} characters of any kind: printable ASCII, controls, letters of other scripts,
   * pairs of surrogates (a character beyond the BMP) and halves of one alone.
   */
  private static String text(Random random, int max) {
    StringBuilder text = new StringBuilder();
    for (int n = random.nextInt(max + 1); n > 0; n--) {
      switch (random.nextInt(6)) {
        case 0, 1 -> text.append((char) (' ' + random.nextInt(95)));
        case 2 -> text.append((char) random.nextInt(32));
        case 3 -> text.append((char) (0x80 + random.nextInt(0xD800 - 0x80)));
        case 4 -> text.appendCodePoint(0x10000 + random.nextInt(0x100000));
        default -> text.append((char) (0xD800 + random.nextInt(0x800)));
      }
    }
    return text.toString();
  }

  private static String printable(Random random, int length) {
    StringBuilder text = new StringBuilder();
    for (int n = 0; n < length; n++) {
      text.append((char) (' ' + random.nextInt(95)));
    }
    return text.toString();
  }

  private static String lowercase(Random random, int length) {
    StringBuilder text = new StringBuilder();
    for (int n = 0; n < length; n++) {
      text.append((char) ('a' + random.nextInt(26)));
    }
    return text.toString();
  }
}
