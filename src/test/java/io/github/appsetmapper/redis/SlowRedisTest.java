package io.github.appsetmapper.redis;

import static io.github.appsetmapper.redis.SharedReplicasTest.BODY;
import static io.github.appsetmapper.redis.SharedReplicasTest.answer;
import static io.github.appsetmapper.redis.SharedReplicasTest.mapping;
import static io.github.appsetmapper.redis.SharedReplicasTest.numbers;
import static io.github.appsetmapper.redis.SharedReplicasTest.waitFor;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.PluginServer.Answer;
import io.github.appsetmapper.testing.RedisServer;
import io.github.appsetmapper.testing.StubUpstream;
import io.github.appsetmapper.testing.StubUpstream.Reply;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 21 item 9: on a busy machine (load 20) a Redis round trip takes longer than {@code
 * --redis-timeout}. Three replicas, a cold burst of identical getparams: 22% were 503 ("no baseline
 * known ... Redis has not answered") and the burst made up to three upstream calls. Redis is made
 * slow deterministically here: stopped (SIGSTOP) while the burst arrives, for three round trips
 * past the timeout (every replica has seen one time out first), then let go on (SIGCONT) while the
 * getparams still have time. A slow Redis is waited for within each getparams's deadline: every
 * answer is a 200, and the burst makes one upstream call.
 */
class SlowRedisTest {
  private static final Duration TIMEOUT = Duration.ofMillis(1500);

  @TempDir Path dir;

  @Test
  void aColdBurstWhileRedisIsSlowIsAnsweredWholeWithOneUpstreamCall() throws Exception {
    RedisServer.assumeInstalled();
    List<PluginServer> replicas = new ArrayList<>();
    try (RedisServer redis = RedisServer.start(dir, null);
        StubUpstream stub = new StubUpstream()) {
      stub.on("GET /repos/front/pulls", Reply.json(200, numbers(3)));
      Path keys = dir.resolve("keys");
      Files.writeString(keys, "k1=integrity-key-for-tests-0123456789abcdef\n");
      RedisSettings settings =
          new RedisSettings(
              redis.url(),
              null,
              null,
              null,
              keys,
              RedisSettings.DEFAULT_PREFIX,
              TIMEOUT,
              RedisSettings.DEFAULT_MAX_ENTRY_BYTES,
              Duration.ofMillis(100));
      // A deadline the waits fit in (the lease waiter keeps 10 s, the request timeout, for its
      // own call), a cache, and a maxDrop guard that knows no baseline yet on any replica.
      String yaml = mapping("pulls", "cache: {ttl: 1h}", "deadline: 28s\nmaxDrop: 50%");
      for (int i = 0; i < 3; i++) {
        Path own = Files.createDirectories(dir.resolve("replica-" + i));
        replicas.add(PluginServer.withRedis(own, Map.of("up", stub.url()), settings, yaml));
      }
      for (PluginServer replica : replicas) {
        waitFor("Redis up on every replica", () -> replica.redisStats().up());
      }

      redis.pause();
      ExecutorService callers = Executors.newFixedThreadPool(30);
      List<Answer> answers = new ArrayList<>();
      try {
        List<Future<Answer>> sent = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
          PluginServer replica = replicas.get(i % 3);
          sent.add(callers.submit(() -> replica.getparams("pulls", BODY)));
        }
        waitFor(
            "a Redis round trip past --redis-timeout on every replica",
            () ->
                replicas.stream()
                    .allMatch(r -> r.redisStats().errors(RedisStats.Op.CACHE_READ) > 0));
        // Slow for three more round trips: the scenario itself, not a synchronisation. Up to
        // eight timeouts unanswered is slow, not gone.
        Thread.sleep(TIMEOUT.multipliedBy(3).toMillis());
        redis.resume();
        for (Future<Answer> future : sent) {
          answers.add(future.get());
        }
      } finally {
        redis.resume();
        callers.shutdownNow();
      }
      assertThat(answers)
          .allSatisfy(
              a -> {
                assertThat(a.status()).as(a.body()).isEqualTo(200);
                assertThat(a.body()).isEqualTo(answer(3));
              });
      assertThat(stub.calls()).isEqualTo(1);
      for (PluginServer replica : replicas) {
        assertThat(replica.redisStats().up()).as("a slow Redis is not a Redis gone").isTrue();
      }
    } finally {
      replicas.forEach(PluginServer::close);
    }
  }
}
