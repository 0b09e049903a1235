package io.github.appsetmapper.redis;

import static io.github.appsetmapper.redis.SharedReplicasTest.BODY;
import static io.github.appsetmapper.redis.SharedReplicasTest.admin;
import static io.github.appsetmapper.redis.SharedReplicasTest.answer;
import static io.github.appsetmapper.redis.SharedReplicasTest.mapping;
import static io.github.appsetmapper.redis.SharedReplicasTest.metrics;
import static io.github.appsetmapper.redis.SharedReplicasTest.numbers;
import static io.github.appsetmapper.redis.SharedReplicasTest.waitFor;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.testing.LogCapture;
import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.PluginServer.Answer;
import io.github.appsetmapper.testing.RedisServer;
import io.github.appsetmapper.testing.StubUpstream;
import io.github.appsetmapper.testing.StubUpstream.Reply;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a writer of the shared Redis, a replica started at the wrong moment or a replica with other
 * keys could do to the promise "never a short 200", each against a real redis-server.
 */
class SharedStateAttacksTest {
  private static final String PASSWORD = "attacks-redis-password-77";
  private static final String KEY = "k1=integrity-key-for-attack-tests-0123456789";

  @TempDir Path dir;
  private RedisServer redis;
  private StubUpstream stub;
  private final List<PluginServer> servers = new ArrayList<>();
  private final List<AutoCloseable> closing = new ArrayList<>();
  private final AtomicInteger rows = new AtomicInteger(14);

  @BeforeEach
  void start() throws IOException {
    RedisServer.assumeInstalled();
    redis = RedisServer.start(dir, PASSWORD);
    stub = new StubUpstream();
    stub.on("GET /repos/front/pulls", r -> Reply.json(200, numbers(rows.get())));
    Files.writeString(dir.resolve("password"), PASSWORD + "\n");
    Files.writeString(dir.resolve("keys"), KEY + "\n");
  }

  @AfterEach
  void stop() throws Exception {
    servers.forEach(PluginServer::close);
    for (AutoCloseable c : closing) {
      c.close();
    }
    if (stub != null) {
      stub.close();
    }
    if (redis != null) {
      redis.resume();
      redis.close();
    }
  }

  RedisSettings settings(Path keys, Duration timeout) {
    return new RedisSettings(
        redis.url(),
        null,
        dir.resolve("password"),
        null,
        keys,
        RedisSettings.DEFAULT_PREFIX,
        timeout,
        RedisSettings.DEFAULT_MAX_ENTRY_BYTES,
        Duration.ofMillis(100));
  }

  PluginServer replica(String yaml, Path keys, boolean waitForRedis) throws IOException {
    Path own = Files.createDirectories(dir.resolve("replica-" + servers.size()));
    PluginServer server =
        PluginServer.withRedis(
            own, Map.of("up", stub.url()), settings(keys, Duration.ofSeconds(2)), yaml);
    servers.add(server);
    if (waitForRedis) {
      waitFor("Redis up", () -> server.redisStats().up());
    }
    return server;
  }

  PluginServer guarded(boolean waitForRedis) throws IOException {
    return replica(mapping("pulls", "", "maxDrop: 50%"), dir.resolve("keys"), waitForRedis);
  }

  @Test
  void aReplicaStartedWhileRedisCannotAnswerRefusesADropRatherThanAcceptItFromItsEmptyMemory()
      throws Exception {
    PluginServer a = guarded(true);
    assertThat(a.getparams("pulls", BODY).body()).isEqualTo(answer(14));
    rows.set(4);
    redis.pause();
    PluginServer b = guarded(false);
    // Ready after a bounded wait for Redis, on its own memory.
    waitFor(
        "ready without Redis", () -> b.send("GET", "/readyz", null, null, null).status() == 200);
    Answer unknown = b.getparams("pulls", BODY);
    assertThat(unknown.status()).as(unknown.body()).isEqualTo(503);
    assertThat(unknown.body()).contains("no baseline known").contains("Redis");
    redis.resume();
    waitFor("Redis back", () -> b.redisStats().up());
    // The shared baseline (14) refuses the drop, as it would have from the start.
    Answer refused = b.getparams("pulls", BODY);
    assertThat(refused.status()).as(refused.body()).isEqualTo(502);
    assertThat(refused.body()).contains("fewer than the last good answer (14)");
  }

  @Test
  void aFreshRedisStillMeansNoBaselineOnceRead() throws Exception {
    PluginServer a = guarded(true);
    rows.set(4);
    assertThat(a.getparams("pulls", BODY).body()).isEqualTo(answer(4));
    // Read once (none there): a Redis failing afterwards leaves this replica its floor.
    redis.pause();
    waitFor(
        "the breaker opens",
        () -> {
          a.getparams("pulls", BODY);
          return !a.redisStats().up();
        });
    assertThat(a.getparams("pulls", BODY).body()).isEqualTo(answer(4));
  }

  @Test
  void anOlderSealedListingPutBackUnderItsKeyIsRefusedAndAnInvalidationOutlivesItsRecord()
      throws Exception {
    rows.set(3);
    PluginServer a = replica(mapping("pulls", "cache: {ttl: 1h}", ""), dir.resolve("keys"), true);
    assertThat(a.getparams("pulls", BODY).body()).isEqualTo(answer(3));
    String key = redis.cli("--scan", "--pattern", "appset-mapper:listing:*");
    assertThat(redis.cli("COPY", key, "saved-by-attacker")).isEqualTo("1");
    rows.set(4);
    assertThat(admin(a, "pulls", "cache/invalidate", "").body()).contains("\"everyReplica\":true");
    assertThat(a.getparams("pulls", BODY).body()).isEqualTo(answer(4));
    // The old listing put back, the invalidation records deleted.
    assertThat(redis.cli("COPY", "saved-by-attacker", key, "REPLACE")).isEqualTo("1");
    for (String inv : redis.cli("--scan", "--pattern", "appset-mapper:inv:*").lines().toList()) {
      redis.cli("DEL", inv);
    }
    assertThat(a.getparams("pulls", BODY).body()).isEqualTo(answer(4));
    assertThat(a.redisStats().integrityFailures(RedisStats.Sealed.ROLLBACK)).isPositive();
    assertThat(metrics(a))
        .contains("appset_mapper_redis_integrity_failures_total{kind=\"rollback\"}");
  }

  @Test
  void aResetMessagePublishedAgainCannotClearABaselineWrittenAfterIt() throws Exception {
    List<byte[]> captured = new CopyOnWriteArrayList<>();
    RedisClient client = attacker();
    closing.add(client::shutdown);
    StatefulRedisPubSubConnection<byte[], byte[]> listener =
        client.connectPubSub(ByteArrayCodec.INSTANCE);
    listener.addListener(
        new RedisPubSubAdapter<>() {
          @Override
          public void message(byte[] channel, byte[] message) {
            captured.add(message);
          }
        });
    listener.sync().subscribe(bytes("appset-mapper:events"));
    PluginServer a = guarded(true);
    PluginServer b = guarded(true);
    rows.set(10);
    assertThat(a.getparams("pulls", BODY).body()).isEqualTo(answer(10));
    assertThat(admin(b, "pulls", "guard/reset", "").body()).contains("\"everyReplica\":true");
    waitFor("the reset message seen", () -> !captured.isEmpty());
    byte[] reset = captured.get(captured.size() - 1);
    // A baseline after the reset, then A restarts: it holds no memory of messages taken.
    assertThat(a.getparams("pulls", BODY).body()).isEqualTo(answer(10));
    a.close();
    servers.remove(a);
    PluginServer again = guarded(true);
    assertThat(again.getparams("pulls", BODY).body()).isEqualTo(answer(10));
    // The attacker deletes the shared baseline (only the floor is left) and replays the reset.
    for (String g : redis.cli("--scan", "--pattern", "appset-mapper:guard:*").lines().toList()) {
      redis.cli("DEL", g);
    }
    long published =
        client
            .connect(ByteArrayCodec.INSTANCE)
            .sync()
            .publish(bytes("appset-mapper:events"), reset);
    assertThat(published).isPositive();
    // A marker the test can wait on: a forged message after it is counted once both are handled.
    client
        .connect(ByteArrayCodec.INSTANCE)
        .sync()
        .publish(bytes("appset-mapper:events"), bytes("forged"));
    waitFor(
        "both messages handled",
        () -> again.redisStats().integrityFailures(RedisStats.Sealed.MESSAGE) >= 1);
    rows.set(2);
    Answer refused = again.getparams("pulls", BODY);
    assertThat(refused.status()).as(refused.body()).isEqualTo(502);
    assertThat(refused.body()).contains("fewer than the last good answer (10)");
  }

  @Test
  void aResetMessageOlderThanItsWindowIsRefusedAndCounted() throws Exception {
    PluginServer a = guarded(true);
    rows.set(10);
    assertThat(a.getparams("pulls", BODY).body()).isEqualTo(answer(10));
    Seal seal = new Seal(Keys.of(dir.resolve("keys")));
    long then = System.currentTimeMillis() - 33_000;
    byte[] old =
        seal.seal(
            "appset-mapper:events",
            then,
            then + 600_000,
            0,
            Seal.newVersion(),
            message(RedisEvents.Kind.RESET, "pulls", "", "", Long.toString(Long.MAX_VALUE)));
    redis.cli("DEL", redis.cli("--scan", "--pattern", "appset-mapper:guard:*"));
    RedisClient client = attacker();
    closing.add(client::shutdown);
    client.connect(ByteArrayCodec.INSTANCE).sync().publish(bytes("appset-mapper:events"), old);
    waitFor(
        "the old message refused",
        () -> a.redisStats().integrityFailures(RedisStats.Sealed.MESSAGE) == 1);
    rows.set(2);
    assertThat(a.getparams("pulls", BODY).status()).isEqualTo(502);
  }

  @Test
  void aBaselineSealedWithOtherKeysIsARefusalItIsNeverOverwrittenAndTheMismatchIsLogged()
      throws Exception {
    LogCapture logs = new LogCapture();
    closing.add(logs);
    PluginServer a = guarded(true);
    rows.set(10);
    assertThat(a.getparams("pulls", BODY).body()).isEqualTo(answer(10));
    String guard = redis.cli("--scan", "--pattern", "appset-mapper:guard:*");
    String before = redis.cli("GET", guard);
    Path other = dir.resolve("other-keys");
    Files.writeString(other, "k2=another-integrity-key-0123456789abcdefgh\n");
    PluginServer b = replica(mapping("pulls", "", "maxDrop: 50%"), other, true);
    waitFor(
        "the mismatch logged",
        () -> logs.lines().stream().anyMatch(l -> l.contains("another replica seals with key id")));
    rows.set(2);
    Answer refused = b.getparams("pulls", BODY);
    assertThat(refused.status()).as(refused.body()).isEqualTo(503);
    assertThat(refused.body()).contains("does not open with this replica's integrity keys");
    rows.set(10);
    assertThat(b.getparams("pulls", BODY).status()).isEqualTo(503);
    assertThat(redis.cli("GET", guard)).isEqualTo(before);
    assertThat(logs.lines()).anyMatch(l -> l.contains("maxDrop baseline") && l.contains("refused"));
    assertThat(logs.lines()).noneMatch(l -> l.contains("another-integrity-key"));
    // The replica with the right keys still refuses the drop.
    rows.set(2);
    assertThat(a.getparams("pulls", BODY).status()).isEqualTo(502);
  }

  @Test
  void aSequenceCounterSetOutOfRangeIsRepairedCountedAndInvalidationsStillReachEveryReplica()
      throws Exception {
    rows.set(3);
    PluginServer a = replica(mapping("pulls", "cache: {ttl: 1h}", ""), dir.resolve("keys"), true);
    PluginServer b = replica(mapping("pulls", "cache: {ttl: 1h}", ""), dir.resolve("keys"), true);
    assertThat(a.getparams("pulls", BODY).body()).isEqualTo(answer(3));
    assertThat(b.getparams("pulls", BODY).body()).isEqualTo(answer(3));
    // INCR on it would fail forever ("increment or decrement would overflow").
    assertThat(redis.cli("SET", "appset-mapper:seq", "9223372036854775807")).isEqualTo("OK");
    rows.set(4);
    assertThat(admin(a, "pulls", "cache/invalidate", "").body()).contains("\"everyReplica\":true");
    assertThat(a.redisStats().integrityFailures(RedisStats.Sealed.SEQ)).isEqualTo(1);
    assertThat(b.getparams("pulls", BODY).body()).isEqualTo(answer(4));
    // Lowered below what replicas know: set again from their highest seq, never reused.
    assertThat(redis.cli("SET", "appset-mapper:seq", "0")).isEqualTo("OK");
    rows.set(5);
    assertThat(admin(b, "pulls", "cache/invalidate", "").body()).contains("\"everyReplica\":true");
    assertThat(a.getparams("pulls", BODY).body()).isEqualTo(answer(5));
    assertThat(metrics(b))
        .contains("appset_mapper_redis_integrity_failures_total{kind=\"seq\"} 1.0");
  }

  @Test
  void aLeaseThatIsNotOursIsIgnoredNotWaitedOn() throws Exception {
    java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
    AtomicInteger asked = new AtomicInteger();
    stub.on(
        "GET /repos/held/pulls",
        r -> {
          asked.incrementAndGet();
          try {
            release.await(60, java.util.concurrent.TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          return Reply.json(200, numbers(2));
        });
    PluginServer a = replica(mapping("pulls", "", ""), dir.resolve("keys"), true);
    String held = SharedReplicasTest.body("held");
    java.util.concurrent.ExecutorService pool =
        java.util.concurrent.Executors.newFixedThreadPool(1);
    try {
      var first = pool.submit(() -> a.getparams("pulls", held));
      waitFor("the call holds the lease", () -> asked.get() == 1);
      String lease = redis.cli("--scan", "--pattern", "appset-mapper:lease:*");
      assertThat(lease).startsWith("appset-mapper:lease:");
      release.countDown();
      assertThat(first.get().body()).isEqualTo(answer(2));
      // Anyone who can write this Redis: a lease of ten minutes nobody holds.
      assertThat(redis.cli("SET", lease, "evil", "PX", "600000")).isEqualTo("OK");
      assertThat(a.getparams("pulls", held).body()).isEqualTo(answer(2));
      assertThat(a.redisStats().integrityFailures(RedisStats.Sealed.LEASE)).isEqualTo(1);
      assertThat(a.redisStats().leases(RedisStats.Lease.GAVE_UP)).isZero();
    } finally {
      release.countDown();
      pool.shutdownNow();
    }
  }

  @Test
  void aWrongPasswordIsNamedAsSuchInOneLineWithoutThePassword() throws Exception {
    LogCapture logs = new LogCapture();
    closing.add(logs);
    Files.writeString(dir.resolve("password"), "wrong-password-4c1d\n");
    guarded(false);
    String here = "cannot connect to " + redis.url();
    waitFor(
        "the refusal logged",
        () ->
            logs.lines().stream()
                .anyMatch(l -> l.contains(here) && l.contains("Redis refused the credentials")));
    String line =
        logs.lines().stream()
            .filter(l -> l.contains(here) && l.contains("Redis refused the credentials"))
            .findFirst()
            .orElseThrow();
    assertThat(line).contains("WRONGPASS");
    assertThat(line).doesNotContain("wrong-password-4c1d").doesNotContain("<unresolved>");
    assertThat(logs.lines()).noneMatch(l -> l.contains("wrong-password-4c1d"));
  }

  @Test
  void aFullRedisRefusingWritesIsLoggedOncePerOperationAndSaysWhatItMeans() throws Exception {
    LogCapture logs = new LogCapture();
    closing.add(logs);
    PluginServer a = guarded(true);
    assertThat(redis.cli("CONFIG", "SET", "maxmemory", "1")).isEqualTo("OK");
    for (int i = 0; i < 3; i++) {
      rows.set(14 + i);
      assertThat(a.getparams("pulls", BODY).status()).isEqualTo(200);
    }
    assertThat(admin(a, "pulls", "cache/invalidate", "").body()).contains("\"everyReplica\":false");
    assertThat(a.redisStats().up()).isTrue();
    List<String> lines = logs.lines();
    assertThat(lines.stream().filter(l -> l.contains("baseline_write refused by Redis (OOM")))
        .hasSize(1);
    assertThat(lines.stream().filter(l -> l.contains("invalidate refused by Redis (OOM")))
        .hasSize(1);
    assertThat(lines)
        .anyMatch(
            l ->
                l.contains("maxDrop baselines are kept in this replica's memory only")
                    && l.contains("appset_mapper_redis_errors_total{op=\"baseline_write\"}"));
    assertThat(metrics(a))
        .containsPattern("appset_mapper_redis_errors_total\\{op=\"baseline_write\"} [1-9]");
  }

  /** A client of the shared Redis, as anyone holding its password. */
  RedisClient attacker() {
    return RedisClient.create(
        RedisURI.builder()
            .withHost("127.0.0.1")
            .withPort(redis.port())
            .withPassword(PASSWORD.toCharArray())
            .build());
  }

  static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  /** A message as RedisEvents writes it, from a sender that is not the receiver. */
  static byte[] message(RedisEvents.Kind kind, String... fields) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      ListingCodec.text(out, Seal.newVersion());
      out.writeByte(kind.ordinal());
      out.writeInt(fields.length);
      for (String field : fields) {
        ListingCodec.text(out, field);
      }
    }
    return bytes.toByteArray();
  }
}
