package io.github.appsetmapper.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.server.WebhookSecret;
import io.github.appsetmapper.testing.ManualTicker;
import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.PluginServer.Answer;
import io.github.appsetmapper.testing.StubUpstream;
import io.github.appsetmapper.testing.StubUpstream.Reply;
import io.github.appsetmapper.upstream.cache.MemoryBudget;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Caching, coalescing, revalidation, staleIfError, the maxDrop guard and webhook invalidation, over
 * real HTTP against a local upstream that counts its calls.
 */
class CalmUpstreamsTest {
  @TempDir Path dir;

  private static final String BODY =
      "{\"applicationSetName\":\"apps\",\"input\":{\"parameters\":{\"repo\":\"front\"}}}";

  /** A mapping listing {@code /repos/<repo>/pulls}; {@code extra} adds top-level fields. */
  private static String mapping(String name, String cache, String extra) {
    return """
        name: %s
        input: {repo: {required: true}}
        vars: {up: {default: "http://unset.invalid"}}
        %s
        list:
          request:
            url: "#{vars.up}/repos/#{input.repo}/pulls"
            retries: 0
            %s
          items: "$[*]"
        parameters: {number: "item"}
        """
        .formatted(name, extra, cache);
  }

  private static String numbers(int count) {
    return IntStream.rangeClosed(1, count)
        .mapToObj(Integer::toString)
        .collect(Collectors.joining(",", "[", "]"));
  }

  private static String answer(int... numbers) {
    return IntStream.of(numbers)
        .mapToObj(n -> "{\"number\":\"" + n + "\"}")
        .collect(Collectors.joining(",", "{\"output\":{\"parameters\":[", "]}}"));
  }

  private static List<Answer> concurrently(int callers, java.util.function.Supplier<Answer> call)
      throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(callers);
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<Answer>> futures = new ArrayList<>();
      for (int i = 0; i < callers; i++) {
        futures.add(
            pool.submit(
                () -> {
                  start.await();
                  return call.get();
                }));
      }
      start.countDown();
      List<Answer> answers = new ArrayList<>();
      for (Future<Answer> future : futures) {
        answers.add(future.get());
      }
      return answers;
    } finally {
      pool.shutdownNow();
    }
  }

  @Nested
  class Coalescing {
    @Test
    void twoHundredConcurrentIdenticalGetparamsWithAColdCacheMakeOneUpstreamCall()
        throws Exception {
      try (StubUpstream stub = new StubUpstream()) {
        stub.on("GET /repos/front/pulls", Reply.json(200, "[1,2,3]").delayed(300));
        try (PluginServer plugin =
            PluginServer.withYaml(
                dir,
                Map.of("up", stub.url()),
                Map.of(),
                mapping("pulls", "cache: {ttl: 1m}", ""))) {
          List<Answer> answers = concurrently(200, () -> plugin.getparams("pulls", BODY));
          assertThat(answers).allSatisfy(a -> assertThat(a.status()).isEqualTo(200));
          assertThat(answers).allSatisfy(a -> assertThat(a.body()).isEqualTo(answer(1, 2, 3)));
          assertThat(stub.calls()).isEqualTo(1);
          String metrics = plugin.send("GET", "/metrics", null, null, null).body();
          assertThat(metrics)
              .contains("appset_mapper_getparams_coalesced_total{mapping=\"pulls\"}")
              .contains("appset_mapper_upstream_cache_total{mapping=\"pulls\",result=\"miss\"} 1.0")
              .contains("appset_mapper_cache_entries 1.0");
        }
      }
    }

    @Test
    void identicalCallsOfTwoMappingsInFlightAreMadeOnceEvenWithoutCache() throws Exception {
      try (StubUpstream stub = new StubUpstream()) {
        stub.on("GET /repos/front/pulls", Reply.json(200, "[7]").delayed(500));
        try (PluginServer plugin =
            PluginServer.withYaml(
                dir,
                Map.of("up", stub.url()),
                Map.of(),
                mapping("one", "", ""),
                mapping("two", "", ""))) {
          List<Answer> answers =
              concurrently(
                  2,
                  new java.util.function.Supplier<>() {
                    private final java.util.concurrent.atomic.AtomicInteger n =
                        new java.util.concurrent.atomic.AtomicInteger();

                    @Override
                    public Answer get() {
                      return plugin.getparams(n.getAndIncrement() == 0 ? "one" : "two", BODY);
                    }
                  });
          assertThat(answers).allSatisfy(a -> assertThat(a.body()).isEqualTo(answer(7)));
          assertThat(stub.calls()).isEqualTo(1);
          // Without a cache policy, the next call asks again.
          assertThat(plugin.getparams("one", BODY).status()).isEqualTo(200);
          assertThat(stub.calls()).isEqualTo(2);
        }
      }
    }
  }

  @Nested
  class Revalidation {
    @Test
    void noCallWithinTheTtlThenOneConditionalCallAnswered304() throws Exception {
      try (StubUpstream stub = new StubUpstream()) {
        stub.on(
            "GET /repos/front/pulls",
            r ->
                "\"v1\"".equals(r.header("If-None-Match"))
                    ? Reply.status(304).withHeader("ETag", "\"v1\"")
                    : Reply.json(200, "[1,2]").withHeader("ETag", "\"v1\""));
        ManualTicker clock = new ManualTicker();
        try (PluginServer plugin =
            PluginServer.withTicker(
                dir,
                Map.of("up", stub.url()),
                clock,
                mapping("pulls", "cache: {ttl: 700ms}", ""))) {
          assertThat(plugin.getparams("pulls", BODY).body()).isEqualTo(answer(1, 2));
          assertThat(plugin.getparams("pulls", BODY).body()).isEqualTo(answer(1, 2));
          assertThat(stub.calls()).isEqualTo(1);
          Answer explained =
              plugin.send(
                  "POST",
                  "/mappings/pulls/api/v1/getparams.explain",
                  BODY,
                  "Bearer " + PluginServer.TOKEN,
                  "application/json");
          assertThat(explained.body().replaceAll("\\s+", ""))
              .contains("\"shared\":true,\"cache\":\"hit\"");
          assertThat(stub.calls()).isEqualTo(1);
          clock.advance(Duration.ofMillis(800));
          assertThat(plugin.getparams("pulls", BODY).body()).isEqualTo(answer(1, 2));
          assertThat(stub.calls()).isEqualTo(2);
          assertThat(stub.received().get(1).header("If-None-Match")).isEqualTo("\"v1\"");
          assertThat(stub.received().get(0).header("If-None-Match")).isNull();
          // The 304 made the entry fresh again.
          assertThat(plugin.getparams("pulls", BODY).body()).isEqualTo(answer(1, 2));
          assertThat(stub.calls()).isEqualTo(2);
          assertThat(plugin.send("GET", "/metrics", null, null, null).body())
              .contains(
                  "appset_mapper_upstream_cache_total{mapping=\"pulls\",result=\"revalidated\"}"
                      + " 1.0")
              .contains("appset_mapper_upstream_cache_total{mapping=\"pulls\",result=\"hit\"}");
        }
      }
    }
  }

  @Nested
  class StaleIfError {
    @Test
    void anOutageInsideTheWindowAnswersTheLastGoodParametersAndAfterItA502() throws Exception {
      try (StubUpstream stub = new StubUpstream()) {
        AtomicReference<Reply> reply = new AtomicReference<>(Reply.json(200, "[1,2]"));
        stub.on("GET /repos/front/pulls", r -> reply.get());
        ManualTicker clock = new ManualTicker();
        try (PluginServer plugin =
            PluginServer.withTicker(
                dir,
                Map.of("up", stub.url()),
                clock,
                mapping("pulls", "cache: {ttl: 500ms, staleIfError: 1s}", ""))) {
          Answer fresh = plugin.getparams("pulls", BODY);
          assertThat(fresh.body()).isEqualTo(answer(1, 2));
          assertThat(fresh.headers()).doesNotContainKey("x-appset-mapper-stale");
          reply.set(Reply.json(503, "{\"message\":\"down for maintenance\"}"));
          clock.advance(Duration.ofMillis(600));
          Answer stale = plugin.getparams("pulls", BODY);
          assertThat(stale.status()).isEqualTo(200);
          assertThat(stale.body()).isEqualTo(answer(1, 2));
          assertThat(stale.headers().get("x-appset-mapper-stale")).containsExactly("true");
          assertThat(stub.calls()).isEqualTo(2);
          // Past ttl + staleIfError (1.5 s) since the fetch: the last good answer is too old.
          clock.advance(Duration.ofMillis(1100));
          Answer failed = plugin.getparams("pulls", BODY);
          assertThat(failed.status()).isEqualTo(502);
          assertThat(failed.body())
              .isEqualTo(
                  "{\"error\":\"mapping 'pulls': list GET "
                      + stub.url()
                      + "/repos/front/pulls: answered 503 (down for maintenance)\"}");
          assertThat(failed.headers()).doesNotContainKey("x-appset-mapper-stale");
          assertThat(plugin.send("GET", "/metrics", null, null, null).body())
              .contains("appset_mapper_getparams_stale_total{mapping=\"pulls\"} 1.0")
              .contains(
                  "appset_mapper_upstream_cache_total{mapping=\"pulls\",result=\"stale\"} 1.0");
        }
      }
    }
  }

  @Nested
  class MaxDrop {
    private static final String REFUSED =
        "{\"error\":\"mapping 'guarded': the answer has %d rows, %d fewer than the last good"
            + " answer (%d), more than maxDrop (50%%) allows; refused so that Argo CD keeps its"
            + " Applications. If the drop is wanted: POST /mappings/guarded/guard/reset\"}";

    @Test
    void aSuddenDropIsRefusedUntilTheGuardIsResetAndADropWithinBoundsPasses() {
      try (StubUpstream stub = new StubUpstream()) {
        AtomicReference<String> rows = new AtomicReference<>(numbers(10));
        stub.on("GET /repos/front/pulls", r -> Reply.json(200, rows.get()));
        try (PluginServer plugin =
            PluginServer.withYaml(
                dir, Map.of("up", stub.url()), Map.of(), mapping("guarded", "", "maxDrop: 50%"))) {
          assertThat(plugin.getparams("guarded", BODY).status()).isEqualTo(200);
          rows.set(numbers(3));
          Answer refused = plugin.getparams("guarded", BODY);
          assertThat(refused.status()).isEqualTo(502);
          assertThat(refused.body()).isEqualTo(REFUSED.formatted(3, 7, 10));
          // A refused answer never becomes the baseline, and a reload keeps the baseline.
          plugin.reload();
          assertThat(plugin.getparams("guarded", BODY).body())
              .isEqualTo(REFUSED.formatted(3, 7, 10));
          // Within bounds: 4 of 10 is 40%.
          rows.set(numbers(6));
          assertThat(plugin.getparams("guarded", BODY).body()).isEqualTo(answer(1, 2, 3, 4, 5, 6));
          rows.set(numbers(2));
          assertThat(plugin.getparams("guarded", BODY).body())
              .isEqualTo(REFUSED.formatted(2, 4, 6));
          // Another ApplicationSet asking the same has its own baseline.
          assertThat(plugin.getparams("guarded", BODY.replace("\"apps\"", "\"other\"")).status())
              .isEqualTo(200);
          assertThat(
                  plugin
                      .send("GET", "/mappings", null, "Bearer " + PluginServer.TOKEN, null)
                      .body())
              .contains(
                  "\"guard\":{\"maxDrop\":\"50%\",\"baselines\":2,"
                      + "\"reset\":\"/mappings/guarded/guard/reset\"}");
          // The reset needs the token.
          Answer anonymous = plugin.send("POST", "/mappings/guarded/guard/reset", null, null, null);
          assertThat(anonymous.status()).isEqualTo(403);
          // Another input's reset leaves this one.
          Answer other =
              plugin.send(
                  "POST",
                  "/mappings/guarded/guard/reset",
                  "{\"input\":{\"parameters\":{\"repo\":\"back\"}}}",
                  "Bearer " + PluginServer.TOKEN,
                  "application/json");
          assertThat(other.body()).isEqualTo("{\"mapping\":\"guarded\",\"reset\":0}");
          Answer reset =
              plugin.send(
                  "POST",
                  "/mappings/guarded/guard/reset",
                  BODY,
                  "Bearer " + PluginServer.TOKEN,
                  "application/json");
          assertThat(reset.status()).isEqualTo(200);
          assertThat(reset.body()).isEqualTo("{\"mapping\":\"guarded\",\"reset\":1}");
          assertThat(plugin.getparams("guarded", BODY).body()).isEqualTo(answer(1, 2));
        }
      }
    }
  }

  @Nested
  class Invalidation {
    private static final String SECRET = "webhook-secret-5d1c";

    private HttpResponse<String> post(String url, String body, Map<String, String> headers)
        throws Exception {
      HttpRequest.Builder request =
          HttpRequest.newBuilder(URI.create(url))
              .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
      headers.forEach(request::header);
      return HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aSignedWebhookMakesTheNextCallFetchAndABadSignatureIsRefused() throws Exception {
      try (StubUpstream stub = new StubUpstream()) {
        stub.on("GET /repos/front/pulls", Reply.json(200, "[1]"));
        try (PluginServer plugin =
            PluginServer.withOptions(
                dir,
                Map.of("up", stub.url()),
                WebhookSecret.fixed(SECRET),
                MemoryBudget.DEFAULT_BYTES,
                mapping("pulls", "cache: {ttl: 1h}", ""))) {
          plugin.getparams("pulls", BODY);
          plugin.getparams("pulls", BODY);
          assertThat(stub.calls()).isEqualTo(1);
          String url = plugin.url() + "/mappings/pulls/cache/invalidate";
          String payload = "{\"ref\":\"refs/heads/main\",\"after\":\"abc\"}";
          HttpResponse<String> bad =
              post(
                  url,
                  payload,
                  Map.of(
                      "X-Hub-Signature-256",
                      WebhookSecret.signature("wrong-secret", payload.getBytes())));
          assertThat(bad.statusCode()).isEqualTo(403);
          assertThat(bad.body()).isEqualTo("{\"error\":\"forbidden\"}");
          assertThat(post(url, payload, Map.of()).statusCode()).isEqualTo(403);
          plugin.getparams("pulls", BODY);
          assertThat(stub.calls()).isEqualTo(1);
          HttpResponse<String> good =
              post(
                  url,
                  payload,
                  Map.of(
                      "X-Hub-Signature-256", WebhookSecret.signature(SECRET, payload.getBytes())));
          assertThat(good.statusCode()).isEqualTo(200);
          assertThat(good.body()).isEqualTo("{\"mapping\":\"pulls\",\"invalidated\":1}");
          plugin.getparams("pulls", BODY);
          assertThat(stub.calls()).isEqualTo(2);
          // The secret as a bearer token, and Argo CD's token with one input.
          assertThat(post(url, "", Map.of("Authorization", "Bearer " + SECRET)).body())
              .isEqualTo("{\"mapping\":\"pulls\",\"invalidated\":1}");
          assertThat(
                  post(
                          url,
                          "{\"input\":{\"parameters\":{\"repo\":\"back\"}}}",
                          Map.of("Authorization", "Bearer " + PluginServer.TOKEN))
                      .body())
              .isEqualTo("{\"mapping\":\"pulls\",\"invalidated\":0}");
          plugin.getparams("pulls", BODY);
          assertThat(stub.calls()).isEqualTo(3);
        }
      }
    }
  }

  @Nested
  class MemoryBudgetExhausted {
    @Test
    void anAnswerThatDoesNotFitIsA503NeverA2xx() {
      try (StubUpstream stub = new StubUpstream()) {
        stub.on("GET /repos/front/pulls", Reply.json(200, numbers(2000)));
        try (PluginServer plugin =
            PluginServer.withOptions(
                dir, Map.of("up", stub.url()), null, 4096, mapping("pulls", "", ""))) {
          Answer answer = plugin.getparams("pulls", BODY);
          assertThat(answer.status()).isEqualTo(503);
          assertThat(answer.body())
              .isEqualTo(
                  "{\"error\":\"mapping 'pulls': list GET "
                      + stub.url()
                      + "/repos/front/pulls: answer of "
                      + numbers(2000).length()
                      + " bytes refused: the memory budget for upstream answers (4096 bytes) is"
                      + " in use; retry later or raise --memory-budget\"}");
        }
      }
    }
  }
}
