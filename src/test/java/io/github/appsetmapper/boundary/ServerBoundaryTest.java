package io.github.appsetmapper.boundary;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.appsetmapper.boundary.HostileUpstreams.Hostile;
import io.github.appsetmapper.testing.LogCapture;
import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.ShadowServer;
import io.github.appsetmapper.testing.StubUpstream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 21's boundary suite, server side: every hostile upstream behaviour ({@link
 * HostileUpstreams}) crossed with every endpoint that calls upstreams (getparams, explain, the
 * shadow's live and candidate calls), and every hostile request crossed with every endpoint that
 * reads a body (those, guard reset, the cache-invalidation webhook). For each: the promises, not
 * messages: never a short 2xx ({@link Promises#noShort2xx}), the server still answers a healthy
 * control request, no secret in any derived form in the answer's body and headers, explain's
 * report, the shadow report or the server's log. Cases run in parallel; a case known to fail until
 * another branch is merged names that branch in its table row and is skipped.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ServerBoundaryTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static final String CONTROL =
      """
      name: control
      vars: {up: {default: "http://unset.invalid"}}
      list:
        request: {url: "#{vars.up}/case/ok", timeout: 60s}
        items: "$.items[*]"
      parameters: {id: item.id}
      """;

  private StubUpstream stub;
  private PluginServer plugin;
  private ShadowServer shadow;
  private LogCapture logs;
  private final ExecutorService pool = Executors.newFixedThreadPool(8);
  private final List<Hostile> cases = HostileUpstreams.all();

  @BeforeAll
  void start(@TempDir Path dir) throws Exception {
    logs = new LogCapture();
    stub = new StubUpstream();
    HostileUpstreams.install(stub, cases);
    Path secret = dir.resolve("api-key");
    Files.writeString(secret, HostileUpstreams.SECRET);
    String hostile = HostileUpstreams.mapping(secret, "2s");
    Map<String, String> vars = Map.of("up", stub.url());
    Files.createDirectories(dir.resolve("plain"));
    plugin = PluginServer.withYaml(dir.resolve("plain"), vars, Map.of(), hostile, CONTROL);
    shadow =
        ShadowServer.start(
            dir.resolve("shadow"), vars, List.of(hostile, CONTROL), List.of(hostile));
  }

  @AfterAll
  void stop() {
    try {
      Http.Answer report = shadowSend("GET", "/mappings/hostile/shadow", null);
      Promises.noSecret("the shadow report", report.all());
      Promises.noSecret("the server's log", String.join("\n", logs.rendered()));
    } finally {
      HostileUpstreams.RELEASE.countDown();
      pool.shutdownNow();
      logs.close();
      plugin.close();
      shadow.close();
      stub.close();
    }
  }

  private static byte[] body(String hostileCase) {
    return Http.utf8(
        "{\"applicationSetName\":\"boundary\",\"input\":{\"parameters\":{\"case\":\""
            + hostileCase
            + "\"}}}");
  }

  private static Map<String, String> bearer() {
    return Map.of(
        "Authorization", "Bearer " + PluginServer.TOKEN, "Content-Type", "application/json");
  }

  private Http.Answer send(String method, String path, byte[] body) {
    return Http.send(method, plugin.url() + path, body, bearer());
  }

  private Http.Answer shadowSend(String method, String path, byte[] body) {
    return Http.send(method, shadowUrl() + path, body, bearer());
  }

  private String shadowUrl() {
    return shadow.url();
  }

  /** (b): the server answers a healthy request afterwards, completely. */
  private void controlAnswers(String base) {
    Http.Answer answer =
        Http.send(
            "POST",
            base + "/mappings/control/api/v1/getparams.execute",
            Http.utf8("{\"applicationSetName\":\"boundary\",\"input\":{\"parameters\":{}}}"),
            bearer());
    assertThat(answer.status())
        .as("the control request afterwards: " + answer.body())
        .isEqualTo(200);
    assertThat(Promises.rows("control", answer.body())).isEqualTo(HostileUpstreams.FULL);
  }

  /** Every surface that calls the upstream: what it answered, checked by {@code check}. */
  private record Surface(
      String name, java.util.function.BiConsumer<ServerBoundaryTest, Hostile> check) {}

  private List<Surface> surfaces() {
    return List.of(
        new Surface(
            "getparams",
            (t, c) -> {
              Http.Answer a =
                  t.send("POST", "/mappings/hostile/api/v1/getparams.execute", body(c.name()));
              Promises.noShort2xx("getparams " + c, c, a.status(), a.body());
              Promises.noSecret("getparams " + c, a.all());
              t.controlAnswers(t.plugin.url());
            }),
        new Surface(
            "explain",
            (t, c) -> {
              Http.Answer a =
                  t.send("POST", "/mappings/hostile/api/v1/getparams.explain", body(c.name()));
              Promises.noSecret("explain " + c, a.all());
              assertThat(a.status())
                  .as("explain " + c + ": " + Promises.cut(a.body()))
                  .isEqualTo(200);
              JsonNode answer = t.readTree(a.body()).path("answer");
              Promises.noShort2xx(
                  "explain's answer " + c,
                  c,
                  answer.path("status").asInt(),
                  answer.path("body").toString());
              t.controlAnswers(t.plugin.url());
            }),
        new Surface(
            "shadow-live",
            (t, c) -> {
              Http.Answer a =
                  t.shadowSend(
                      "POST", "/mappings/hostile/api/v1/getparams.execute", body(c.name()));
              Promises.noShort2xx("shadowed getparams " + c, c, a.status(), a.body());
              Promises.noSecret("shadowed getparams " + c, a.all());
              t.controlAnswers(t.shadowUrl());
            }),
        new Surface(
            "shadow-candidate",
            (t, c) -> {
              Http.Answer a =
                  t.shadowSend(
                      "POST", "/mappings/hostile/shadow/api/v1/getparams.execute", body(c.name()));
              Promises.noShort2xx("candidate getparams " + c, c, a.status(), a.body());
              Promises.noSecret("candidate getparams " + c, a.all());
              t.controlAnswers(t.shadowUrl());
            }));
  }

  private JsonNode readTree(String text) {
    try {
      return JSON.readTree(text);
    } catch (java.io.IOException e) {
      throw new AssertionError("not JSON: " + Promises.cut(text), e);
    }
  }

  @TestFactory
  Stream<DynamicTest> hostileUpstreams() {
    List<DynamicTest> tests = new ArrayList<>();
    for (Surface surface : surfaces()) {
      for (Hostile c : cases) {
        Future<?> run = pool.submit(() -> surface.check().accept(this, c));
        tests.add(DynamicTest.dynamicTest(surface.name() + " x " + c, () -> await(run)));
      }
    }
    return tests.stream();
  }

  /** The cases known to fail until another branch is merged (the lead removes them after). */
  private static void await(Future<?> run) throws Throwable {
    try {
      run.get(5, TimeUnit.MINUTES);
    } catch (java.util.concurrent.ExecutionException e) {
      throw e.getCause();
    }
  }

  /** Requests no client should send, to every endpoint that reads a body. */
  static Map<String, byte[]> hostileRequests() {
    Map<String, byte[]> out = new java.util.LinkedHashMap<>();
    out.put(
        "huge (2 MiB)",
        Http.utf8("{\"applicationSetName\":\"" + "a".repeat(2 * 1024 * 1024) + "\"}"));
    out.put(
        "deep (10k)",
        Http.utf8(
            "{\"input\":{\"parameters\":{\"case\":"
                + "[".repeat(10_000)
                + "]".repeat(10_000)
                + "}}}"));
    out.put(
        "bad UTF-8",
        concat(
            Http.utf8(
                "{\"applicationSetName\":\"boundary\",\"input\":{\"parameters\":{\"case\":\"ok"),
            new byte[] {(byte) 0xff, (byte) 0xfe},
            Http.utf8("\"}}}")));
    out.put("not JSON", Http.utf8("{{{"));
    out.put("a list", Http.utf8("[]"));
    out.put("null", Http.utf8("null"));
    out.put("input a list", Http.utf8("{\"applicationSetName\":\"boundary\",\"input\":[]}"));
    out.put(
        "case an object",
        Http.utf8(
            "{\"applicationSetName\":\"boundary\",\"input\":{\"parameters\":{\"case\":{\"a\":1}}}}"));
    out.put(
        "case a path",
        Http.utf8(
            "{\"applicationSetName\":\"boundary\",\"input\":{\"parameters\":{\"case\":\"../../v2/_catalog?n=1\"}}}"));
    out.put(
        "duplicate keys",
        Http.utf8(
            "{\"applicationSetName\":\"boundary\",\"input\":{\"parameters\":{\"case\":\"ok\",\"case\":\"hang\"}}}"));
    out.put(
        "huge number",
        Http.utf8(
            "{\"applicationSetName\":\"boundary\",\"input\":{\"parameters\":{\"case\":1e999999}}}"));
    out.put(
        "NUL and ESC",
        Http.utf8(
            "{\"applicationSetName\":\"bound\\u0000ary\\u001b[2J\",\"input\":{\"parameters\":{\"case\":\"ok\"}}}"));
    return out;
  }

  private static byte[] concat(byte[] a, byte[] b, byte[] c) {
    byte[] out = new byte[a.length + b.length + c.length];
    System.arraycopy(a, 0, out, 0, a.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    System.arraycopy(c, 0, out, a.length + b.length, c.length);
    return out;
  }

  /**
   * An endpoint that reads a body. {@code mustRefuse}: bad input is a 4xx (the getparams family:
   * explain's report says the 4xx in its answer); else only "nothing crashes": no 5xx (guard reset
   * and cache invalidation take an empty or unknown body as "all").
   */
  private record Endpoint(String name, boolean shadowServer, String path, boolean mustRefuse) {}

  @TestFactory
  Stream<DynamicTest> hostileRequestsAreRefusedWith4xx() {
    List<Endpoint> endpoints =
        List.of(
            new Endpoint("getparams", false, "/mappings/hostile/api/v1/getparams.execute", true),
            new Endpoint("getparams (no name)", false, "/api/v1/getparams.execute", true),
            new Endpoint("explain", false, "/mappings/hostile/api/v1/getparams.explain", true),
            new Endpoint(
                "shadow candidate",
                true,
                "/mappings/hostile/shadow/api/v1/getparams.execute",
                true),
            new Endpoint("guard reset", false, "/mappings/hostile/guard/reset", false),
            new Endpoint("cache invalidate", false, "/mappings/hostile/cache/invalidate", false));
    List<DynamicTest> tests = new ArrayList<>();
    for (Endpoint endpoint : endpoints) {
      for (Map.Entry<String, byte[]> request : hostileRequests().entrySet()) {
        String where = endpoint.name() + " x " + request.getKey();
        Future<?> run =
            pool.submit(
                () -> {
                  Supplier<String> base =
                      () -> endpoint.shadowServer() ? shadowUrl() : plugin.url();
                  Http.Answer a =
                      Http.send("POST", base.get() + endpoint.path(), request.getValue(), bearer());
                  int status = a.status();
                  if (status == 200 && endpoint.name().equals("explain")) {
                    status = readTree(a.body()).path("answer").path("status").asInt();
                  }
                  if (endpoint.mustRefuse()) {
                    assertThat(status)
                        .as(where + ": " + Promises.cut(a.body()))
                        .isBetween(400, 499);
                  } else {
                    assertThat(status).as(where + ": " + Promises.cut(a.body())).isLessThan(500);
                  }
                  Promises.noSecret(where, a.all());
                  assertThat(a.body())
                      .as(where + ": control characters escaped")
                      .doesNotContain("\u0000", "\u001b");
                  controlAnswers(base.get());
                });
        tests.add(DynamicTest.dynamicTest(where, () -> await(run)));
      }
    }
    return tests.stream();
  }
}
