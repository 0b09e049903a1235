package io.github.appsetmapper.redis;

import static io.github.appsetmapper.redis.SharedReplicasTest.BODY;
import static io.github.appsetmapper.redis.SharedReplicasTest.admin;
import static io.github.appsetmapper.redis.SharedReplicasTest.answer;
import static io.github.appsetmapper.redis.SharedReplicasTest.mapping;
import static io.github.appsetmapper.redis.SharedReplicasTest.numbers;
import static io.github.appsetmapper.redis.SharedReplicasTest.waitFor;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.testing.LogCapture;
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
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A value in the shared Redis far larger than anything this server writes there (anyone who can
 * write Redis: {@code SETRANGE key 52428799 x}), or of another type: said for what it is, never
 * read whole, and for a baseline a 503 that names it and the way out, against a real redis-server.
 */
class OversizedValuesTest {
  private static final String PASSWORD = "oversized-redis-password-31";
  private static final String KEY = "k1=integrity-key-for-oversized-tests-0123456789";

  /** 50 MB: what an outside tester wrote under a baseline's key. */
  private static final int HUGE = 50 * 1024 * 1024;

  @TempDir Path dir;
  private RedisServer redis;
  private StubUpstream stub;
  private final List<PluginServer> servers = new ArrayList<>();
  private LogCapture logs;
  private final AtomicInteger rows = new AtomicInteger(10);

  @BeforeEach
  void start() throws IOException {
    RedisServer.assumeInstalled();
    redis = RedisServer.start(dir, PASSWORD);
    stub = new StubUpstream();
    stub.on("GET /repos/front/pulls", r -> Reply.json(200, numbers(rows.get())));
    Files.writeString(dir.resolve("password"), PASSWORD + "\n");
    Files.writeString(dir.resolve("keys"), KEY + "\n");
    logs = new LogCapture();
  }

  @AfterEach
  void stop() throws Exception {
    servers.forEach(PluginServer::close);
    if (logs != null) {
      logs.close();
    }
    if (stub != null) {
      stub.close();
    }
    if (redis != null) {
      redis.close();
    }
  }

  PluginServer replica(String yaml) throws IOException {
    Path own = Files.createDirectories(dir.resolve("replica-" + servers.size()));
    PluginServer server =
        PluginServer.withRedis(
            own,
            Map.of("up", stub.url()),
            new RedisSettings(
                redis.url(),
                null,
                dir.resolve("password"),
                null,
                dir.resolve("keys"),
                RedisSettings.DEFAULT_PREFIX,
                Duration.ofSeconds(2),
                RedisSettings.DEFAULT_MAX_ENTRY_BYTES,
                Duration.ofMillis(100)),
            yaml);
    servers.add(server);
    waitFor("Redis up", () -> server.redisStats().up());
    return server;
  }

  PluginServer guarded() throws IOException {
    return replica(mapping("pulls", "", "maxDrop: 50%"));
  }

  /** Makes the value at {@code key} {@link #HUGE} bytes long (its head kept). */
  void inflate(String key) throws Exception {
    assertThat(redis.cli("SETRANGE", key, Integer.toString(HUGE - 1), "x"))
        .isEqualTo(Integer.toString(HUGE));
  }

  @Test
  void anOversizedBaselineIsA503ThatSaysSoNotRedisSilenceAndAGuardResetClearsIt() throws Exception {
    PluginServer a = guarded();
    assertThat(a.getparams("pulls", BODY).body()).isEqualTo(answer(10));
    String guard = redis.cli("--scan", "--pattern", "appset-mapper:guard:*");
    assertThat(guard).startsWith("appset-mapper:guard:");
    inflate(guard);

    PluginServer b = guarded();
    Answer refused = b.getparams("pulls", BODY);
    assertThat(refused.status()).as(refused.body()).isEqualTo(503);
    assertThat(refused.body())
        .contains("the value in Redis is " + HUGE + " bytes, more than a baseline can be")
        .contains("refused so that Argo CD keeps its Applications")
        .contains("POST /mappings/pulls/guard/reset")
        .doesNotContain("has not answered")
        .doesNotContain("--redis-integrity-keys-file");
    assertThat(b.redisStats().integrityFailures(RedisStats.Sealed.BASELINE)).isPositive();
    // The replica that wrote the baseline refuses too: its own floor does not hide the value.
    assertThat(a.getparams("pulls", BODY).status()).isEqualTo(503);
    assertThat(logs.lines())
        .anyMatch(l -> l.contains("maxDrop baseline") && l.contains(HUGE + " bytes"));
    // Never overwritten by an answer (no witness to compare with): only the reset replaces it.
    assertThat(redis.cli("STRLEN", guard)).isEqualTo(Integer.toString(HUGE));

    assertThat(admin(b, "pulls", "guard/reset", BODY).body()).contains("\"everyReplica\":true");
    assertThat(Long.parseLong(redis.cli("STRLEN", guard))).isLessThan(Bounded.SMALL);
    assertThat(b.getparams("pulls", BODY).body()).isEqualTo(answer(10));
    waitFor("a answers again", () -> a.getparams("pulls", BODY).status() == 200);
  }

  @Test
  void aBaselineKeyHoldingAnotherTypeIsA503ThatSaysSo() throws Exception {
    PluginServer a = guarded();
    assertThat(a.getparams("pulls", BODY).body()).isEqualTo(answer(10));
    String guard = redis.cli("--scan", "--pattern", "appset-mapper:guard:*");
    redis.cli("DEL", guard);
    redis.cli("RPUSH", guard, "not", "a", "baseline");

    PluginServer b = guarded();
    Answer refused = b.getparams("pulls", BODY);
    assertThat(refused.status()).as(refused.body()).isEqualTo(503);
    assertThat(refused.body())
        .contains("the value in Redis is a list, not a string")
        .contains("POST /mappings/pulls/guard/reset")
        .doesNotContain("has not answered");
    assertThat(admin(b, "pulls", "guard/reset", BODY).status()).isEqualTo(200);
    assertThat(b.getparams("pulls", BODY).body()).isEqualTo(answer(10));
  }

  @Test
  void anOversizedResetGenerationIsIgnoredAndCountedNotReadAsRedisSilence() throws Exception {
    PluginServer a = guarded();
    assertThat(a.getparams("pulls", BODY).body()).isEqualTo(answer(10));
    assertThat(admin(a, "pulls", "guard/reset", "").body()).contains("\"everyReplica\":true");
    String epoch = redis.cli("--scan", "--pattern", "appset-mapper:guard-epoch:*");
    assertThat(epoch).startsWith("appset-mapper:guard-epoch:");
    inflate(epoch);

    PluginServer b = guarded();
    Answer answered = b.getparams("pulls", BODY);
    assertThat(answered.status()).as(answered.body()).isEqualTo(200);
    assertThat(b.redisStats().integrityFailures(RedisStats.Sealed.GUARD_EPOCH)).isPositive();
    // The shared baseline still holds: a drop is refused.
    rows.set(2);
    assertThat(b.getparams("pulls", BODY).status()).isEqualTo(502);
    assertThat(logs.lines())
        .anyMatch(l -> l.contains("reset generation") && l.contains(HUGE + " bytes"));
  }

  @Test
  void anOversizedListingIsNotReadWholeTheCallIsMadeHere() throws Exception {
    PluginServer a = replica(mapping("pulls", "cache: {ttl: 1h}", ""));
    assertThat(a.getparams("pulls", BODY).body()).isEqualTo(answer(10));
    String listing = redis.cli("--scan", "--pattern", "appset-mapper:listing:*");
    assertThat(listing).startsWith("appset-mapper:listing:");
    inflate(listing);

    PluginServer b = replica(mapping("pulls", "cache: {ttl: 1h}", ""));
    rows.set(11);
    assertThat(b.getparams("pulls", BODY).body()).isEqualTo(answer(11));
    assertThat(b.redisStats().integrityFailures(RedisStats.Sealed.LISTING)).isPositive();
    assertThat(logs.lines())
        .anyMatch(l -> l.contains("a listing") && l.contains(HUGE + " bytes, more than"));
  }

  @Test
  void anOversizedLeaseIsNotReadWholeTheCallIsMadeHere() throws Exception {
    PluginServer a = replica(mapping("pulls", "", ""));
    assertThat(a.getparams("pulls", BODY).body()).isEqualTo(answer(10));
    // The flight's lease name is seen while a call holds it; then anyone who can write this
    // Redis puts 50 MB there, for ten minutes.
    java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
    AtomicInteger asked = new AtomicInteger();
    stub.on(
        "GET /repos/held/pulls",
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
    String held = SharedReplicasTest.body("held");
    java.util.concurrent.ExecutorService pool =
        java.util.concurrent.Executors.newFixedThreadPool(1);
    try {
      var first = pool.submit(() -> a.getparams("pulls", held));
      waitFor("the call holds the lease", () -> asked.get() == 1);
      List<String> leases =
          List.of(redis.cli("--scan", "--pattern", "appset-mapper:lease:*").split("\n"));
      assertThat(leases).hasSize(1);
      release.countDown();
      assertThat(first.get().body()).isEqualTo(answer(2));
      inflate(leases.get(0));
      assertThat(redis.cli("PEXPIRE", leases.get(0), "600000")).isEqualTo("1");
      assertThat(a.getparams("pulls", held).body()).isEqualTo(answer(2));
      assertThat(a.redisStats().integrityFailures(RedisStats.Sealed.LEASE)).isEqualTo(1);
      assertThat(a.redisStats().leases(RedisStats.Lease.GAVE_UP)).isZero();
      assertThat(logs.lines())
          .anyMatch(l -> l.contains("a lease") && l.contains(HUGE + " bytes, more than"));
    } finally {
      release.countDown();
      pool.shutdownNow();
    }
  }
}
