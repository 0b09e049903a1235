package io.github.appsetmapper.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.config.RequestOption;
import io.github.appsetmapper.config.RequestOptionTable;
import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.PluginServer.Answer;
import io.github.appsetmapper.testing.StubUpstream;
import io.github.appsetmapper.testing.StubUpstream.Reply;
import io.github.appsetmapper.testing.TestPki;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each request option ({@code config/RequestOptionTable.ALL}) set under {@code defaults} does what
 * it says over real HTTP to a stub upstream. OptionPlumbingTest proves a value reaches the compiled
 * call; only this proves something READS it (the transport, a decorator, the cache, the token
 * fetcher: docs/architecture.md, "A request option"). A new option fails {@link
 * #everyDeclaredOptionHasAnEffectCheck} until its check is added to {@link #EFFECTS}.
 */
class OptionEffectsTest {

  /** One check of what an option does, run with a fresh directory for the mapping files. */
  @FunctionalInterface
  interface Effect {
    void check(Path dir) throws Exception;
  }

  private static final Map<String, Effect> EFFECTS =
      Map.of(
          "headers", OptionEffectsTest::headersArrive,
          "auth", OptionEffectsTest::authorizationArrives,
          "timeout", OptionEffectsTest::aHangingUpstreamTimesOutAtTheValue,
          "failWhen", OptionEffectsTest::aMatchingBodyFails,
          "retries", OptionEffectsTest::a503IsTriedRetriesTimesAgain,
          "tls", OptionEffectsTest::aPrivateCaIsTrusted,
          "cache", OptionEffectsTest::aSecondIdenticalCallIsNotMade);

  @TempDir Path dir;

  @Test
  void everyDeclaredOptionHasAnEffectCheck() {
    Set<String> declared =
        RequestOptionTable.ALL.stream()
            .map(RequestOption::key)
            .collect(Collectors.toCollection(TreeSet::new));
    Set<String> missing = new TreeSet<>(declared);
    missing.removeAll(EFFECTS.keySet());
    Set<String> stale = new TreeSet<>(EFFECTS.keySet());
    stale.removeAll(declared);
    assertThat(missing)
        .as(
            "add to OptionEffectsTest.EFFECTS a check over HTTP that each of these options, set"
                + " under defaults, acts on the call (docs/architecture.md, \"A request option\")")
        .isEmpty();
    assertThat(stale).as("OptionEffectsTest.EFFECTS checks options no longer declared").isEmpty();
  }

  @TestFactory
  Stream<DynamicTest> everyOptionActs() {
    return EFFECTS.entrySet().stream()
        .sorted(Map.Entry.comparingByKey())
        .map(
            e ->
                DynamicTest.dynamicTest(
                    e.getKey(),
                    () ->
                        e.getValue()
                            .check(
                                java.nio.file.Files.createDirectories(dir.resolve(e.getKey())))));
  }

  /** A mapping listing {@code $.items[*]} from the stub's {@code /items}, with {@code defaults}. */
  private static String mapping(String defaults) {
    return """
        name: probe
        vars: {up: {default: "http://unset.invalid"}}
        secrets: {t: {env: PROBE_TOKEN}}
        defaults:
          %s
        list:
          request: {url: "#{vars.up}/items"}
          items: "$.items[*]"
        parameters: {id: item.id}
        """
        .formatted(defaults);
  }

  private static final String ROWS = "{\"items\":[{\"id\":1}]}";
  private static final String ONE_ROW = "{\"output\":{\"parameters\":[{\"id\":\"1\"}]}}";

  private static Answer getparams(Path dir, StubUpstream stub, String defaults) {
    try (PluginServer plugin =
        PluginServer.withYaml(
            dir,
            Map.of("up", stub.url()),
            Map.of("PROBE_TOKEN", "probe-s3cret"),
            mapping(defaults))) {
      return plugin.getparams("probe", "{}");
    }
  }

  static void headersArrive(Path dir) {
    try (StubUpstream stub = new StubUpstream()) {
      stub.on("GET /items", Reply.json(200, ROWS));
      assertThat(getparams(dir, stub, "headers: {X-Toy: toy-value}").body()).isEqualTo(ONE_ROW);
      assertThat(stub.received().get(0).header("X-Toy"))
          .as("headers: {X-Toy: toy-value} under defaults reaches the upstream")
          .isEqualTo("toy-value");
    }
  }

  static void authorizationArrives(Path dir) {
    try (StubUpstream stub = new StubUpstream()) {
      stub.on("GET /items", Reply.json(200, ROWS));
      assertThat(getparams(dir, stub, "auth: {bearer: {secret: t}}").body()).isEqualTo(ONE_ROW);
      assertThat(stub.received().get(0).header("Authorization"))
          .as("auth: {bearer: ...} under defaults sends Authorization")
          .isEqualTo("Bearer probe-s3cret");
    }
  }

  /**
   * The upstream answers only when released, after the answer: the call ends at the option's value
   * (well under the 10s built-in and getparams' own deadline), and says so.
   */
  static void aHangingUpstreamTimesOutAtTheValue(Path dir) throws Exception {
    CountDownLatch released = new CountDownLatch(1);
    try (StubUpstream stub = new StubUpstream()) {
      stub.on(
          "GET /items",
          Reply.custom(
              exchange -> {
                released.await(60, TimeUnit.SECONDS);
                exchange.setStatusCode(200);
                exchange.endExchange();
              }));
      Answer answer;
      try {
        answer = getparams(dir, stub, "timeout: 1500ms\n  retries: 0");
      } finally {
        released.countDown();
      }
      assertThat(answer.body())
          .as("timeout: 1500ms under defaults ends a hanging call at 1500 ms")
          .contains("timed out after 1500 ms");
      assertThat(answer.status()).isEqualTo(504);
    }
  }

  static void aMatchingBodyFails(Path dir) {
    try (StubUpstream stub = new StubUpstream()) {
      stub.on("GET /items", Reply.json(200, "{\"items\":[{\"id\":1}],\"errors\":[\"no\"]}"));
      Answer answer = getparams(dir, stub, "failWhen: \"response.body['errors'] != null\"");
      assertThat(answer.status())
          .as("failWhen under defaults fails a 2xx whose body matches: " + answer.body())
          .isEqualTo(502);
      assertThat(answer.body()).contains("failWhen ");
    }
  }

  /** {@code retries: 1} against a lasting 503: two calls (the built-in 2 would make three). */
  static void a503IsTriedRetriesTimesAgain(Path dir) {
    try (StubUpstream stub = new StubUpstream()) {
      stub.on("GET /items", Reply.status(503));
      assertThat(getparams(dir, stub, "retries: 1").status()).isEqualTo(502);
      assertThat(stub.calls())
          .as("retries: 1 under defaults, calls to a lasting 503 (the built-in 2 makes three)")
          .isEqualTo(2);
    }
  }

  /** Without {@code tls} the JVM's trust store refuses this stub (TlsTest); its CA is trusted. */
  static void aPrivateCaIsTrusted(Path dir) {
    TestPki ca = new TestPki("effects-ca");
    try (StubUpstream stub =
        new StubUpstream(TestPki.serverContext(ca.server(), ca, null), false)) {
      stub.on("GET /items", Reply.json(200, ROWS));
      Path caFile = TestPki.write(dir.resolve("ca.pem"), TestPki.pem(ca.certificate()));
      assertThat(getparams(dir, stub, "tls: {caFile: " + caFile + "}").body())
          .as("tls: {caFile} under defaults trusts the stub's private CA")
          .isEqualTo(ONE_ROW);
      assertThat(stub.calls()).isEqualTo(1);
    }
  }

  static void aSecondIdenticalCallIsNotMade(Path dir) {
    try (StubUpstream stub = new StubUpstream()) {
      stub.on("GET /items", Reply.json(200, ROWS));
      try (PluginServer plugin =
          PluginServer.withYaml(
              dir,
              Map.of("up", stub.url()),
              Map.of("PROBE_TOKEN", "probe-s3cret"),
              mapping("cache: {ttl: 1h}"))) {
        assertThat(plugin.getparams("probe", "{}").body()).isEqualTo(ONE_ROW);
        assertThat(plugin.getparams("probe", "{}").body()).isEqualTo(ONE_ROW);
      }
      assertThat(stub.calls())
          .as("cache: {ttl: 1h} under defaults, upstream calls for two identical getparams")
          .isEqualTo(1);
    }
  }
}
