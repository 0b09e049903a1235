package io.github.appsetmapper.cli;

import io.github.appsetmapper.compile.CompileOptions;
import io.github.appsetmapper.compile.VarValues;
import io.github.appsetmapper.engine.Engine;
import io.github.appsetmapper.redis.RedisSettings;
import io.github.appsetmapper.redis.RedisSharing;
import io.github.appsetmapper.replay.ExchangeFile;
import io.github.appsetmapper.replay.ReplayUpstream;
import io.github.appsetmapper.secret.Redactor;
import io.github.appsetmapper.upstream.HttpUpstream;
import io.github.appsetmapper.upstream.Upstream;
import io.github.appsetmapper.upstream.UpstreamOptions;
import io.github.appsetmapper.upstream.cache.MemoryBudget;
import io.github.appsetmapper.upstream.net.ProxySettings;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/** The engine and what it runs on: the upstream (HTTP or replayed) and the enrich thread pool. */
final class EngineRuntime implements AutoCloseable {
  final Redactor redactor = new Redactor();
  final Upstream upstream;
  final ExecutorService pool;
  final Engine engine;

  /** Redis, when replicas share (null: alone). */
  final RedisSharing redis;

  /** With a replay, the test file's secret values stand in for the mapping's own sources. */
  final Map<String, String> replaySecrets;

  /** The defaults, with proxies from the environment (run). */
  EngineRuntime(int upstreamThreads, Path replay) throws IOException {
    this(upstreamThreads, defaults(upstreamThreads), replay, MemoryBudget.DEFAULT_BYTES);
  }

  private static UpstreamOptions defaults(int connections) throws IOException {
    try {
      return UpstreamOptions.defaults(connections, HttpUpstream.DEFAULT_MAX_BODY_BYTES)
          .withProxies(ProxySettings.fromEnvironment(System::getenv));
    } catch (IllegalArgumentException e) {
      throw new IOException(e.getMessage());
    }
  }

  /**
   * @param upstreamThreads threads that run enrich requests
   * @param options the HTTP upstream's settings; its pool ({@code maxConnections}) holds enrich
   *     threads plus getparams threads
   * @param memoryBudget bytes of upstream answers held in flight and in the cache, at most
   */
  EngineRuntime(int upstreamThreads, UpstreamOptions options, Path replay, long memoryBudget)
      throws IOException {
    this(upstreamThreads, options, replay, memoryBudget, null);
  }

  /**
   * @param redis where replicas share the cache and baselines (null: this replica alone)
   */
  EngineRuntime(
      int upstreamThreads,
      UpstreamOptions options,
      Path replay,
      long memoryBudget,
      RedisSettings redis)
      throws IOException {
    this.redis = redis == null ? null : RedisSharing.start(redis, redactor);
    ExchangeFile recorded = replay == null ? null : ExchangeFile.read(replay);
    this.upstream =
        recorded == null ? new HttpUpstream(options) : new ReplayUpstream(recorded.allExchanges());
    this.replaySecrets = recorded == null ? Map.of() : recorded.secrets();
    this.pool = Executors.newFixedThreadPool(upstreamThreads, daemon("enrich"));
    this.engine =
        new Engine(
            upstream,
            pool,
            redactor,
            java.time.Clock.systemUTC(),
            new MemoryBudget(memoryBudget),
            this.redis == null ? Engine.Sharing.ALONE : this.redis.sharing());
  }

  CompileOptions compileOptions(VarValues vars) {
    return new CompileOptions(vars, System::getenv, redactor, replaySecrets);
  }

  static ThreadFactory daemon(String prefix) {
    AtomicInteger count = new AtomicInteger();
    return r -> {
      Thread thread = new Thread(r, prefix + "-" + count.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    };
  }

  @Override
  public void close() {
    pool.shutdownNow();
    upstream.close();
    if (redis != null) {
      redis.close();
    }
  }
}
