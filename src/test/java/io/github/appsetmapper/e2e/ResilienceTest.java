package io.github.appsetmapper.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.PluginServer.Answer;
import io.github.appsetmapper.testing.StubUpstream;
import io.github.appsetmapper.testing.StubUpstream.Reply;
import io.github.appsetmapper.upstream.HttpUpstream;
import io.github.appsetmapper.upstream.UpstreamOptions;
import io.github.appsetmapper.upstream.limits.RateLimitState;
import io.github.appsetmapper.upstream.limits.RateRule;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Retries, Retry-After, the deadline, per-host limits and rate-limit headers, over real HTTP. */
class ResilienceTest {
  @TempDir Path dir;

  private static String one(String method, String extra) {
    return """
        name: r
        vars: {up: {default: "http://unset.invalid"}}
        %s
        list:
          request: {method: %s, url: "#{vars.up}/items"}
          items: "$[*]"
        parameters: {id: item}
        """
        .formatted(extra, method);
  }

  /**
   * The upper bound of every timing here: it only catches a hang. The lower bounds prove a wait
   * happened; how much longer it took is the machine's business (several builds share 2 cores).
   */
  private static final long NO_HANG = 30_000L;

  private static long millis(Runnable run) {
    long started = System.nanoTime();
    run.run();
    return (System.nanoTime() - started) / 1_000_000;
  }

  @Nested
  class Retries {
    @Test
    void a503IsRetriedWithBackoffAndTheThirdAttemptWins() {
      try (StubUpstream stub = new StubUpstream()) {
        AtomicInteger calls = new AtomicInteger();
        stub.on(
            "GET /items",
            r -> calls.incrementAndGet() < 3 ? Reply.status(503) : Reply.json(200, "[1]"));
        try (PluginServer plugin =
            PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of(), one("GET", ""))) {
          long took = millis(() -> assertThat(plugin.getparams("r", "{}").status()).isEqualTo(200));
          // Two waits of 100-200 ms and 200-400 ms.
          assertThat(took).isBetween(300L, NO_HANG);
        }
        assertThat(stub.calls()).isEqualTo(3);
      }
    }

    @Test
    void retryAfterInSecondsIsHonoured() {
      try (StubUpstream stub = new StubUpstream()) {
        AtomicInteger calls = new AtomicInteger();
        stub.on(
            "GET /items",
            r ->
                calls.incrementAndGet() == 1
                    ? Reply.json(429, "{\"message\":\"slow down\"}").withHeader("Retry-After", "1")
                    : Reply.json(200, "[1]"));
        try (PluginServer plugin =
            PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of(), one("GET", ""))) {
          long took = millis(() -> assertThat(plugin.getparams("r", "{}").status()).isEqualTo(200));
          assertThat(took).isBetween(950L, NO_HANG);
        }
      }
    }

    @Test
    void retryAfterAsAnHttpDateIsHonoured() {
      try (StubUpstream stub = new StubUpstream()) {
        AtomicInteger calls = new AtomicInteger();
        stub.on(
            "GET /items",
            r ->
                calls.incrementAndGet() == 1
                    ? Reply.status(503)
                        .withHeader(
                            "Retry-After",
                            DateTimeFormatter.RFC_1123_DATE_TIME.format(
                                Instant.now().plusSeconds(2).atOffset(ZoneOffset.UTC)))
                    : Reply.json(200, "[1]"));
        try (PluginServer plugin =
            PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of(), one("GET", ""))) {
          long took = millis(() -> assertThat(plugin.getparams("r", "{}").status()).isEqualTo(200));
          // The date has a one-second resolution: between one and two seconds away.
          assertThat(took).isBetween(900L, NO_HANG);
        }
      }
    }

    @Test
    void aRetryAfterPastTheDeadlineIsNotWaitedFor() {
      try (StubUpstream stub = new StubUpstream()) {
        stub.on("GET /items", Reply.status(429).withHeader("Retry-After", "120"));
        try (PluginServer plugin =
            PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of(), one("GET", ""))) {
          Answer answer = plugin.getparams("r", "{}");
          assertThat(answer.body())
              .isEqualTo(
                  "{\"error\":\"mapping 'r': list GET "
                      + stub.url()
                      + "/items: answered 429 (not retried: Retry-After 120s is past the"
                      + " deadline)\"}");
        }
        assertThat(stub.calls()).isEqualTo(1);
      }
    }

    @Test
    void postIsNeverRetriedAndRetriesZeroTurnsThemOff() {
      try (StubUpstream stub = new StubUpstream()) {
        stub.on("* /items", Reply.status(503));
        try (PluginServer plugin =
            PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of(), one("POST", ""))) {
          assertThat(plugin.getparams("r", "{}").body())
              .isEqualTo(
                  "{\"error\":\"mapping 'r': list POST " + stub.url() + "/items: answered 503\"}");
        }
        assertThat(stub.calls()).isEqualTo(1);
        try (PluginServer plugin =
            PluginServer.withYaml(
                dir, Map.of("up", stub.url()), Map.of(), one("GET", "defaults: {retries: 0}"))) {
          assertThat(plugin.getparams("r", "{}").status()).isEqualTo(502);
        }
        assertThat(stub.calls()).isEqualTo(2);
      }
    }

    @Test
    void a404IsNotRetried() {
      try (StubUpstream stub = new StubUpstream()) {
        stub.on("GET /items", Reply.json(404, "{}"));
        try (PluginServer plugin =
            PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of(), one("GET", ""))) {
          assertThat(plugin.getparams("r", "{}").status()).isEqualTo(502);
        }
        assertThat(stub.calls()).isEqualTo(1);
      }
    }
  }

  @Nested
  class Deadline {
    @Test
    void theDeadlineBoundsAnEnrichFanOutAndNamesTheSlowestCall() {
      String yaml =
          """
          name: d
          deadline: 1s
          concurrency: 2
          vars: {up: {default: "http://unset.invalid"}}
          list:
            request: {url: "#{vars.up}/rows"}
            items: "$[*]"
          enrich:
            slow:
              request: {url: "#{vars.up}/slow/#{item}"}
          parameters: {id: item}
          """;
      try (StubUpstream stub = new StubUpstream()) {
        stub.on("GET /rows", Reply.json(200, "[1,2,3,4,5,6,7,8,9,10]"));
        stub.otherwise(
            r -> Reply.json(200, "{}").delayed(r.rawUri().equals("/slow/3") ? 1600 : 300));
        try (PluginServer plugin =
            PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of(), yaml)) {
          long[] took = new long[1];
          Answer[] answer = new Answer[1];
          took[0] = millis(() -> answer[0] = plugin.getparams("d", "{}"));
          assertThat(answer[0].status()).isEqualTo(504);
          assertThat(answer[0].body())
              .isEqualTo(
                  "{\"error\":\"mapping 'd': deadline 1s exceeded; slowest call: enrich.slow GET "
                      + stub.url()
                      + "/slow/3 (cut off by the deadline)\"}");
          // 10 rows of 300 ms, 2 at a time, would take 1.5 s; one of them takes 1.6 s.
          assertThat(took[0]).isBetween(950L, NO_HANG);
        }
      }
    }

    @Test
    void theDeadlineBoundsRetries() {
      try (StubUpstream stub = new StubUpstream()) {
        stub.on("GET /items", Reply.status(503).delayed(400));
        try (PluginServer plugin =
            PluginServer.withYaml(
                dir, Map.of("up", stub.url()), Map.of(), one("GET", "deadline: 900ms"))) {
          long[] took = new long[1];
          Answer[] answer = new Answer[1];
          took[0] = millis(() -> answer[0] = plugin.getparams("r", "{}"));
          assertThat(answer[0].body())
              .isEqualTo(
                  "{\"error\":\"mapping 'r': deadline 900ms exceeded; slowest call: list GET "
                      + stub.url()
                      + "/items (cut off by the deadline)\"}");
          assertThat(took[0]).isBetween(850L, NO_HANG);
        }
      }
    }
  }

  @Nested
  class HostManners {
    private static final String FAN =
        """
        name: f
        concurrency: 8
        vars: {up: {default: "http://unset.invalid"}}
        list:
          request: {url: "#{vars.up}/rows"}
          items: "$[*]"
        enrich:
          one:
            request: {url: "#{vars.up}/one/#{item}"}
        parameters: {id: item}
        """;

    @Test
    void atMostThatManyCallsToOneHostAtOnceWhateverTheMappingSays() {
      try (StubUpstream stub = new StubUpstream()) {
        stub.on("GET /rows", Reply.json(200, "[1,2,3,4,5,6,7,8]"));
        stub.otherwise(r -> Reply.json(200, "{}").delayed(100));
        HttpUpstream upstream =
            new HttpUpstream(UpstreamOptions.defaults(32, 1 << 20).withHostLimits(2, List.of()));
        try (PluginServer plugin =
            PluginServer.withUpstream(dir, upstream, Map.of("up", stub.url()), Map.of(), FAN)) {
          assertThat(plugin.getparams("f", "{}").status()).isEqualTo(200);
        }
        assertThat(stub.maxInFlight()).isEqualTo(2);
      }
    }

    @Test
    void aRateLimitPacesTheCalls() {
      try (StubUpstream stub = new StubUpstream()) {
        stub.on("GET /rows", Reply.json(200, "[1,2,3,4,5,6,7,8]"));
        stub.otherwise(r -> Reply.json(200, "{}"));
        HttpUpstream upstream =
            new HttpUpstream(
                UpstreamOptions.defaults(32, 1 << 20)
                    .withHostLimits(16, List.of(RateRule.parse("127.0.0.1=5/s"))));
        try (PluginServer plugin =
            PluginServer.withUpstream(dir, upstream, Map.of("up", stub.url()), Map.of(), FAN)) {
          long took = millis(() -> assertThat(plugin.getparams("f", "{}").status()).isEqualTo(200));
          // 9 calls at 5/s with a burst of 5: the last 4 wait 200 ms each.
          assertThat(took).isBetween(700L, NO_HANG);
        }
      }
    }

    @Test
    void rateLimitHeadersAreKeptPerHost() {
      try (StubUpstream stub = new StubUpstream()) {
        stub.on(
            "GET /items",
            Reply.json(200, "[1]")
                .withHeader("X-RateLimit-Limit", "5000")
                .withHeader("X-RateLimit-Remaining", "4987")
                .withHeader("X-RateLimit-Reset", "1893456000"));
        HttpUpstream upstream = new HttpUpstream(UpstreamOptions.defaults(8, 1 << 20));
        try (PluginServer plugin =
            PluginServer.withUpstream(
                dir, upstream, Map.of("up", stub.url()), Map.of(), one("GET", ""))) {
          assertThat(plugin.getparams("r", "{}").status()).isEqualTo(200);
          RateLimitState state = upstream.rateLimits().snapshot().get("127.0.0.1");
          assertThat(state.limit()).isEqualTo(5000);
          assertThat(state.remaining()).isEqualTo(4987);
          assertThat(state.reset()).isEqualTo(Instant.ofEpochSecond(1893456000));
        }
      }
    }
  }
}
