package io.github.appsetmapper.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.PluginServer.Answer;
import io.github.appsetmapper.testing.RedisServer;
import io.github.appsetmapper.testing.StubUpstream;
import io.github.appsetmapper.testing.StubUpstream.Reply;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Several servers, each with its own engine, cache, guard and HTTP client (as pods are), sharing
 * one real Redis (Debian's redis-server on loopback) and one stub upstream that counts its calls.
 */
class SharedReplicasTest {
  @TempDir Path dir;
  private RedisServer redis;
  private StubUpstream stub;
  private final List<PluginServer> servers = new ArrayList<>();

  static final String BODY =
      "{\"applicationSetName\":\"apps\",\"input\":{\"parameters\":{\"repo\":\"front\"}}}";

  @BeforeEach
  void start() throws IOException {
    RedisServer.assumeInstalled();
    redis = RedisServer.start(dir, "redis-test-password-31");
    stub = new StubUpstream();
  }

  @AfterEach
  void stop() {
    servers.forEach(PluginServer::close);
    if (stub != null) {
      stub.close();
    }
    if (redis != null) {
      redis.close();
    }
  }

  static String mapping(String name, String cache, String extra) {
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

  static String numbers(int count) {
    return IntStream.rangeClosed(1, count)
        .mapToObj(Integer::toString)
        .collect(Collectors.joining(",", "[", "]"));
  }

  static String answer(int count) {
    return IntStream.rangeClosed(1, count)
        .mapToObj(n -> "{\"number\":\"" + n + "\"}")
        .collect(Collectors.joining(",", "{\"output\":{\"parameters\":[", "]}}"));
  }

  RedisSettings settings() throws IOException {
    Path keys = dir.resolve("keys");
    if (!Files.exists(keys)) {
      Files.writeString(keys, "k1=" + "integrity-key-for-tests-0123456789abcdef" + "\n");
      Files.writeString(dir.resolve("password"), "redis-test-password-31\n");
    }
    return new RedisSettings(
        redis.url(),
        null,
        dir.resolve("password"),
        null,
        keys,
        RedisSettings.DEFAULT_PREFIX,
        Duration.ofSeconds(2),
        RedisSettings.DEFAULT_MAX_ENTRY_BYTES,
        Duration.ofMillis(100));
  }

  /** {@code count} servers serving {@code yaml}, each answering with Redis up. */
  List<PluginServer> replicas(int count, String yaml) throws IOException {
    List<PluginServer> started = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      Path own = Files.createDirectories(dir.resolve("replica-" + servers.size()));
      PluginServer server = PluginServer.withRedis(own, Map.of("up", stub.url()), settings(), yaml);
      servers.add(server);
      started.add(server);
    }
    for (PluginServer server : started) {
      waitFor("Redis up on every replica", () -> server.redisStats().up());
    }
    return started;
  }

  static void waitFor(String what, BooleanSupplier condition) {
    long end = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > end) {
        throw new AssertionError("not within 60 s: " + what);
      }
      try {
        Thread.sleep(10);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
  }

  /** {@code total} getparams spread over {@code replicas}, {@code callers} at a time. */
  static List<Answer> spread(List<PluginServer> replicas, int total, int callers, String body)
      throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(callers);
    try {
      List<Future<Answer>> futures = new ArrayList<>();
      for (int i = 0; i < total; i++) {
        PluginServer server = replicas.get(i % replicas.size());
        futures.add(pool.submit(() -> server.getparams("pulls", body)));
      }
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
    void aThousandIdenticalGetparamsOverThreeReplicasOnAColdCacheMakeOneUpstreamCall()
        throws Exception {
      stub.on("GET /repos/front/pulls", Reply.json(200, numbers(3)).delayed(200));
      List<PluginServer> replicas = replicas(3, mapping("pulls", "cache: {ttl: 1h}", ""));
      List<Answer> answers = spread(replicas, 1000, 60, BODY);
      assertThat(answers).allSatisfy(a -> assertThat(a.body()).isEqualTo(answer(3)));
      assertThat(stub.calls()).isEqualTo(1);
      // Within the ttl, none on any replica.
      for (PluginServer replica : replicas) {
        assertThat(replica.getparams("pulls", BODY).body()).isEqualTo(answer(3));
      }
      assertThat(stub.calls()).isEqualTo(1);
      String metrics =
          replicas.get(0).send("GET", "/metrics", null, null, null).body()
              + replicas.get(1).send("GET", "/metrics", null, null, null).body()
              + replicas.get(2).send("GET", "/metrics", null, null, null).body();
      assertThat(metrics).contains("appset_mapper_redis_up 1.0");
      assertThat(metrics).contains("appset_mapper_redis_leases_total{result=\"won\"} 1.0");
    }

    @Test
    void twoReplicasWithoutCacheShareACallInFlight() throws Exception {
      // Held until the second replica's getparams has arrived: both are in flight together.
      AtomicInteger asked = new AtomicInteger();
      java.util.concurrent.CountDownLatch second = new java.util.concurrent.CountDownLatch(1);
      stub.on(
          "GET /repos/front/pulls",
          r -> {
            asked.incrementAndGet();
            try {
              second.await(60, java.util.concurrent.TimeUnit.SECONDS);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
            return Reply.json(200, numbers(2));
          });
      List<PluginServer> replicas = replicas(2, mapping("pulls", "", ""));
      ExecutorService pool = Executors.newFixedThreadPool(2);
      try {
        Future<Answer> first = pool.submit(() -> replicas.get(0).getparams("pulls", BODY));
        waitFor("the first call reaches the upstream", () -> asked.get() == 1);
        Future<Answer> other = pool.submit(() -> replicas.get(1).getparams("pulls", BODY));
        waitFor(
            "the second replica waits on the first one's lease",
            () -> replicas.get(1).redisStats().waiting() == 1);
        second.countDown();
        assertThat(first.get().body()).isEqualTo(answer(2));
        assertThat(other.get().body()).isEqualTo(answer(2));
        assertThat(stub.calls()).isEqualTo(1);
        assertThat(replicas.get(1).redisStats().leases(RedisStats.Lease.WAITED)).isEqualTo(1);
      } finally {
        pool.shutdownNow();
      }
    }
  }

  @Nested
  class Landings {
    /**
     * A listing landed through Redis for a replica waiting on it is read back as the leader holds
     * it: the page's status, and what the leader's message says of it (the body dropped past the 10
     * MiB cap, the attempts made). The codec kept neither: the waiting replica answered a bare
     * "answered 500" where the leader said why its body was not read.
     */
    @Test
    void aWaitingReplicaSaysWhatTheLeaderSaysOfAFailedPage() throws Exception {
      String large = "{\"message\":\"" + "x".repeat(11 * 1024 * 1024) + "\"}";
      AtomicInteger asked = new AtomicInteger();
      java.util.concurrent.CountDownLatch second = new java.util.concurrent.CountDownLatch(1);
      stub.on(
          "GET /repos/front/pulls",
          r -> {
            if (asked.incrementAndGet() == 1) {
              try {
                second.await(60, java.util.concurrent.TimeUnit.SECONDS);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            }
            return Reply.json(500, large);
          });
      List<PluginServer> replicas = replicas(2, mapping("pulls", "", ""));
      ExecutorService pool = Executors.newFixedThreadPool(2);
      try {
        Future<Answer> first = pool.submit(() -> replicas.get(0).getparams("pulls", BODY));
        waitFor("the first call reaches the upstream", () -> asked.get() == 1);
        Future<Answer> other = pool.submit(() -> replicas.get(1).getparams("pulls", BODY));
        waitFor(
            "the second replica waits on the first one's lease",
            () -> replicas.get(1).redisStats().waiting() == 1);
        second.countDown();
        Answer led = first.get();
        assertThat(led.status()).isEqualTo(502);
        assertThat(led.body()).contains("answered 500; its body passed the 10 MiB limit");
        assertThat(other.get().body()).isEqualTo(led.body());
        assertThat(stub.calls()).isEqualTo(1);
      } finally {
        pool.shutdownNow();
      }
    }
  }

  static String body(String repo) {
    return "{\"applicationSetName\":\"apps\",\"input\":{\"parameters\":{\"repo\":\""
        + repo
        + "\"}}}";
  }

  static String metrics(PluginServer server) {
    return server.send("GET", "/metrics", null, null, null).body();
  }

  static Answer admin(PluginServer server, String mapping, String action, String body) {
    return server.send(
        "POST",
        "/mappings/" + mapping + "/" + action,
        body,
        "Bearer " + PluginServer.TOKEN,
        "application/json");
  }

  @Nested
  class Deadlines {
    @Test
    void aWaitingReplicaStopsWaitingWhileItCanStillMakeItsOwnCall() throws Exception {
      java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
      AtomicInteger asked = new AtomicInteger();
      stub.on(
          "GET /repos/front/pulls",
          r -> {
            if (asked.incrementAndGet() == 1) {
              try {
                release.await(60, java.util.concurrent.TimeUnit.SECONDS);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            }
            return Reply.json(200, numbers(2));
          });
      // Timeout 5s, deadline 8s: a waiter keeps min(5s, 8s / 2) = 4s for its own call.
      List<PluginServer> replicas = replicas(2, mapping("pulls", "timeout: 5s", "deadline: 8s"));
      ExecutorService pool = Executors.newFixedThreadPool(1);
      try {
        Future<Answer> stuck = pool.submit(() -> replicas.get(0).getparams("pulls", BODY));
        waitFor("the leader's call reaches the upstream", () -> asked.get() == 1);
        Answer waited = replicas.get(1).getparams("pulls", BODY);
        assertThat(waited.status()).isEqualTo(200);
        assertThat(waited.body()).isEqualTo(answer(2));
        assertThat(replicas.get(1).redisStats().leases(RedisStats.Lease.GAVE_UP)).isEqualTo(1);
        release.countDown();
        stuck.get();
        assertThat(stub.calls()).isEqualTo(2);
      } finally {
        release.countDown();
        pool.shutdownNow();
      }
    }
  }

  @Nested
  class Guards {
    private final AtomicInteger rows = new AtomicInteger(10);

    private List<PluginServer> guarded(int count) throws IOException {
      stub.on("GET /repos/front/pulls", r -> Reply.json(200, numbers(rows.get())));
      stub.on("GET /repos/back/pulls", r -> Reply.json(200, numbers(rows.get())));
      return replicas(count, mapping("pulls", "", "maxDrop: 50%"));
    }

    @Test
    void aBaselineRecordedThroughOneReplicaRefusesADropThroughAnotherAndAResetOnItReachesBoth()
        throws Exception {
      List<PluginServer> replicas = guarded(2);
      PluginServer a = replicas.get(0);
      PluginServer b = replicas.get(1);
      assertThat(a.getparams("pulls", BODY).body()).isEqualTo(answer(10));
      rows.set(2);
      Answer refused = b.getparams("pulls", BODY);
      assertThat(refused.status()).isEqualTo(502);
      assertThat(refused.body()).contains("8 fewer than the last good answer (10)");
      Answer reset = admin(b, "pulls", "guard/reset", "");
      // B holds the 10 it read as its own floor too: forgotten here, and everywhere.
      assertThat(reset.body())
          .isEqualTo("{\"mapping\":\"pulls\",\"reset\":1,\"everyReplica\":true}");
      // A held 10 as its own floor: the reset made on B clears it.
      assertThat(a.getparams("pulls", BODY).body()).isEqualTo(answer(2));
    }

    @Test
    void theBaselineOutlivesEveryReplicaRestarting() throws Exception {
      List<PluginServer> first = guarded(2);
      assertThat(first.get(0).getparams("pulls", BODY).body()).isEqualTo(answer(10));
      first.forEach(PluginServer::close);
      servers.removeAll(first);
      rows.set(2);
      List<PluginServer> again = replicas(2, mapping("pulls", "", "maxDrop: 50%"));
      assertThat(again.get(1).getparams("pulls", BODY).status()).isEqualTo(502);
      assertThat(again.get(0).getparams("pulls", BODY).status()).isEqualTo(502);
      admin(again.get(0), "pulls", "guard/reset", BODY);
      assertThat(again.get(1).getparams("pulls", BODY).body()).isEqualTo(answer(2));
    }

    @Test
    void aFlushedRedisCannotLowerAReplicasFloorButANewReplicaStartsWithoutABaseline()
        throws Exception {
      List<PluginServer> replicas = guarded(1);
      PluginServer a = replicas.get(0);
      assertThat(a.getparams("pulls", BODY).body()).isEqualTo(answer(10));
      assertThat(redis.cli("FLUSHALL")).isEqualTo("OK");
      rows.set(2);
      assertThat(a.getparams("pulls", BODY).status()).isEqualTo(502);
      PluginServer fresh = replicas(1, mapping("pulls", "", "maxDrop: 50%")).get(0);
      assertThat(fresh.getparams("pulls", BODY).body()).isEqualTo(answer(2));
    }

    @Test
    void aBaselineMovedToAnotherKeyIsRefusedAndCounted() throws Exception {
      List<PluginServer> replicas = guarded(1);
      rows.set(2);
      assertThat(replicas.get(0).getparams("pulls", body("back")).body()).isEqualTo(answer(2));
      String back = redis.cli("--scan", "--pattern", "appset-mapper:guard:*");
      rows.set(10);
      assertThat(replicas.get(0).getparams("pulls", BODY).body()).isEqualTo(answer(10));
      String front =
          redis
              .cli("--scan", "--pattern", "appset-mapper:guard:*")
              .lines()
              .filter(k -> !k.equals(back))
              .findFirst()
              .orElseThrow();
      // front's 10 rows put where back's baseline was: a drop to 2 for back would be refused.
      assertThat(redis.cli("COPY", front, back, "REPLACE")).isEqualTo("1");
      rows.set(2);
      PluginServer fresh = replicas(1, mapping("pulls", "", "maxDrop: 50%")).get(0);
      // Neither taken (it would refuse the drop) nor "no baseline" (a short 200): a 503 saying
      // why, until a reset.
      Answer moved = fresh.getparams("pulls", body("back"));
      assertThat(moved.status()).isEqualTo(503);
      assertThat(moved.body()).contains("tag mismatch");
      assertThat(fresh.redisStats().integrityFailures(RedisStats.Sealed.BASELINE)).isEqualTo(1);
      admin(fresh, "pulls", "guard/reset", body("back"));
      assertThat(fresh.getparams("pulls", body("back")).body()).isEqualTo(answer(2));
      // Counted at each read until the reset: the 503 and the reset's own read.
      assertThat(metrics(fresh))
          .containsPattern(
              "appset_mapper_redis_integrity_failures_total\\{kind=\"baseline\"} [1-9]");
    }
  }

  @Nested
  class Invalidation {
    @Test
    void cacheInvalidateOnOneReplicaMakesEveryReplicaAskAgain() throws Exception {
      AtomicInteger rows = new AtomicInteger(3);
      stub.on("GET /repos/front/pulls", r -> Reply.json(200, numbers(rows.get())));
      List<PluginServer> replicas = replicas(2, mapping("pulls", "cache: {ttl: 1h}", ""));
      PluginServer a = replicas.get(0);
      PluginServer b = replicas.get(1);
      assertThat(a.getparams("pulls", BODY).body()).isEqualTo(answer(3));
      assertThat(b.getparams("pulls", BODY).body()).isEqualTo(answer(3));
      assertThat(stub.calls()).isEqualTo(1);
      rows.set(4);
      Answer invalidated = admin(b, "pulls", "cache/invalidate", "");
      assertThat(invalidated.body())
          .isEqualTo("{\"mapping\":\"pulls\",\"invalidated\":1,\"everyReplica\":true}");
      assertThat(a.getparams("pulls", BODY).body()).isEqualTo(answer(4));
      assertThat(b.getparams("pulls", BODY).body()).isEqualTo(answer(4));
      assertThat(stub.calls()).isEqualTo(2);
      assertThat(metrics(b))
          .contains("appset_mapper_upstream_cache_total{mapping=\"pulls\",result=\"shared_hit\"}");
    }
  }

  @Nested
  class Integrity {
    @Test
    void aListingTamperedWithInRedisIsRefusedCountedAndFetchedAgain() throws Exception {
      stub.on("GET /repos/front/pulls", Reply.json(200, numbers(3)));
      PluginServer a = replicas(1, mapping("pulls", "cache: {ttl: 1h}", "")).get(0);
      assertThat(a.getparams("pulls", BODY).body()).isEqualTo(answer(3));
      String key = redis.cli("--scan", "--pattern", "appset-mapper:listing:*");
      assertThat(key).startsWith("appset-mapper:listing:").doesNotContain("\n");
      // One byte of the ciphertext changed, as anyone who can write this Redis could (to another
      // byte: a ciphertext byte is X once in 256 runs, which left the listing intact).
      String changed = redis.cli("GETRANGE", key, "120", "120").equals("X") ? "Y" : "X";
      assertThat(redis.cli("SETRANGE", key, "120", changed)).isNotEmpty();
      PluginServer b = replicas(1, mapping("pulls", "cache: {ttl: 1h}", "")).get(0);
      assertThat(b.getparams("pulls", BODY).body()).isEqualTo(answer(3));
      assertThat(stub.calls()).isEqualTo(2);
      assertThat(b.redisStats().integrityFailures(RedisStats.Sealed.LISTING)).isPositive();
      assertThat(metrics(b))
          .containsPattern(
              "appset_mapper_redis_integrity_failures_total\\{kind=\"listing\"} [1-9]");
    }

    @Test
    void aListingHoldingASecretStaysInItsReplica() throws Exception {
      Path token = dir.resolve("upstream-token");
      Files.writeString(token, "upstream-token-8c1f2a9d77");
      // A hostile or careless upstream echoing the credential it was sent.
      stub.on(
          "GET /repos/front/pulls",
          r -> Reply.json(200, "[\"" + r.header("Authorization") + "\"]"));
      String yaml =
          """
          name: pulls
          input: {repo: {required: true}}
          vars: {up: {default: "http://unset.invalid"}}
          secrets: {tok: {file: %s}}
          list:
            request:
              url: "#{vars.up}/repos/#{input.repo}/pulls"
              auth: {bearer: {secret: tok}}
              cache: {ttl: 1h}
            items: "$[*]"
          parameters: {number: "'row'"}
          """
              .formatted(token);
      List<PluginServer> replicas = replicas(2, yaml);
      assertThat(replicas.get(0).getparams("pulls", BODY).status()).isEqualTo(200);
      assertThat(replicas.get(0).getparams("pulls", BODY).status()).isEqualTo(200);
      assertThat(stub.calls()).isEqualTo(1);
      assertThat(replicas.get(0).redisStats().notShared(RedisStats.NotShared.SECRET)).isEqualTo(1);
      assertThat(redis.cli("--scan", "--pattern", "appset-mapper:listing:*")).isEmpty();
      // The other replica makes its own call.
      assertThat(replicas.get(1).getparams("pulls", BODY).status()).isEqualTo(200);
      assertThat(stub.calls()).isEqualTo(2);
    }

    @Test
    void aListingOverTheEntryCapStaysInItsReplicaAndStillAnswersFromItsMemory() throws Exception {
      stub.on("GET /repos/front/pulls", Reply.json(200, numbers(600)));
      Path own = Files.createDirectories(dir.resolve("capped"));
      RedisSettings base = settings();
      RedisSettings capped =
          new RedisSettings(
              base.url(),
              null,
              base.passwordFile(),
              null,
              base.keysFile(),
              base.prefix(),
              base.timeout(),
              1024,
              base.probeInterval());
      PluginServer a =
          PluginServer.withRedis(
              own, Map.of("up", stub.url()), capped, mapping("pulls", "cache: {ttl: 1h}", ""));
      servers.add(a);
      waitFor("Redis up", () -> a.redisStats().up());
      assertThat(a.getparams("pulls", BODY).body()).isEqualTo(answer(600));
      assertThat(a.getparams("pulls", BODY).body()).isEqualTo(answer(600));
      assertThat(stub.calls()).isEqualTo(1);
      assertThat(a.redisStats().notShared(RedisStats.NotShared.TOO_LARGE)).isEqualTo(1);
    }

    @Test
    void nothingInRedisNamesTheUpstreamTheInputOrASecret() throws Exception {
      stub.on("GET /repos/front/pulls", Reply.json(200, numbers(3)));
      PluginServer a = replicas(1, mapping("pulls", "cache: {ttl: 1h}", "maxDrop: 50%")).get(0);
      assertThat(a.getparams("pulls", BODY).body()).isEqualTo(answer(3));
      String keys = redis.cli("--scan", "--pattern", "*");
      assertThat(keys).contains("appset-mapper:listing:", "appset-mapper:guard:");
      // Only digests after the prefix.
      assertThat(keys.lines())
          .allSatisfy(k -> assertThat(k).matches("appset-mapper:(seq|[a-z-]+(:[0-9a-f]{16,})+)"));
      for (String key : keys.lines().toList()) {
        String type = redis.cli("TYPE", key);
        if (type.equals("string")) {
          assertThat(redis.cli("GET", key)).doesNotContain("front", "repos", "127.0.0.1", "number");
        }
      }
    }
  }

  @Nested
  class Outage {
    @Test
    void aReplicaWithoutItsRedisStartsReadyAndAnswersFromItsOwnMemory() throws Exception {
      stub.on("GET /repos/front/pulls", Reply.json(200, numbers(3)));
      redis.kill();
      Path own = Files.createDirectories(dir.resolve("alone"));
      PluginServer alone =
          PluginServer.withRedis(
              own, Map.of("up", stub.url()), settings(), mapping("pulls", "cache: {ttl: 1h}", ""));
      servers.add(alone);
      // Ready once the bounded wait for Redis's first answer is over.
      waitFor(
          "ready without Redis",
          () -> alone.send("GET", "/readyz", null, null, null).status() == 200);
      assertThat(alone.getparams("pulls", BODY).body()).isEqualTo(answer(3));
      assertThat(alone.getparams("pulls", BODY).body()).isEqualTo(answer(3));
      assertThat(stub.calls()).isEqualTo(1);
      assertThat(metrics(alone)).contains("appset_mapper_redis_up 0.0");
      assertThat(admin(alone, "pulls", "cache/invalidate", "").body())
          .isEqualTo("{\"mapping\":\"pulls\",\"invalidated\":1,\"everyReplica\":false}");
    }

    @Test
    void redisKilledInTheMiddleOfALoadLeavesEveryAnswerRightOrAnErrorAndSharingResumes()
        throws Exception {
      stub.otherwise(
          r -> {
            String path = r.rawUri();
            return path.startsWith("/repos/")
                ? Reply.json(200, numbers(50)).delayed(5)
                : Reply.json(404, "{}");
          });
      io.github.appsetmapper.testing.LogCapture logs =
          new io.github.appsetmapper.testing.LogCapture();
      List<PluginServer> replicas = replicas(3, mapping("pulls", "cache: {ttl: 1h}", ""));
      int total = 600;
      AtomicInteger done = new AtomicInteger();
      ExecutorService pool = Executors.newFixedThreadPool(12);
      List<Future<Answer>> futures = new ArrayList<>();
      try {
        for (int i = 0; i < total; i++) {
          PluginServer server = replicas.get(i % 3);
          String repo = "r" + (i % 200);
          futures.add(
              pool.submit(
                  () -> {
                    Answer answer = server.getparams("pulls", body(repo));
                    done.incrementAndGet();
                    return answer;
                  }));
        }
        waitFor("a third of the load answered", () -> done.get() >= total / 3);
        redis.kill();
        List<Answer> answers = new ArrayList<>();
        for (Future<Answer> future : futures) {
          answers.add(future.get());
        }
        assertThat(answers)
            .allSatisfy(
                a -> {
                  if (a.status() == 200) {
                    assertThat(a.body()).isEqualTo(answer(50));
                  } else {
                    assertThat(a.status()).isGreaterThanOrEqualTo(500);
                    assertThat(a.body()).startsWith("{\"error\":");
                  }
                });
      } finally {
        pool.shutdownNow();
      }
      // Each replica noticed, logged once and answers on its own memory; ready all along.
      for (PluginServer replica : replicas) {
        assertThat(replica.send("GET", "/readyz", null, null, null).status()).isEqualTo(200);
        assertThat(replica.getparams("pulls", body("alone")).body()).isEqualTo(answer(50));
      }
      waitFor(
          "every replica saw Redis go",
          () -> replicas.stream().noneMatch(r -> r.redisStats().up()));
      redis.startAgain();
      for (PluginServer replica : replicas) {
        waitFor("Redis back on every replica", () -> replica.redisStats().up());
      }
      int before = stub.calls();
      stub.on("GET /repos/again/pulls", Reply.json(200, numbers(5)).delayed(100));
      String again = body("again");
      List<Answer> resumed = new ArrayList<>();
      ExecutorService burst = Executors.newFixedThreadPool(30);
      try {
        List<Future<Answer>> sent = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
          PluginServer server = replicas.get(i % 3);
          sent.add(burst.submit(() -> server.getparams("pulls", again)));
        }
        for (Future<Answer> future : sent) {
          resumed.add(future.get());
        }
      } finally {
        burst.shutdownNow();
      }
      assertThat(resumed).allSatisfy(a -> assertThat(a.body()).isEqualTo(answer(5)));
      assertThat(stub.calls() - before).isEqualTo(1);
      // Said once per replica each way, whatever the number of failed operations and retries.
      logs.close();
      List<String> lines = logs.lines();
      assertThat(lines.stream().filter(l -> l.contains("until Redis answers again"))).hasSize(3);
      // At start, and once back.
      assertThat(lines.stream().filter(l -> l.contains("answers: replicas share"))).hasSize(6);
      assertThat(lines).noneMatch(l -> l.contains("Reconnect"));
    }
  }
}
