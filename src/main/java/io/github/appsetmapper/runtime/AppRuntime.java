package io.github.appsetmapper.runtime;

import com.github.benmanes.caffeine.cache.Ticker;
import io.github.appsetmapper.compile.CompileOptions;
import io.github.appsetmapper.compile.CompiledMapping;
import io.github.appsetmapper.compile.MappingLoader;
import io.github.appsetmapper.compile.VarValues;
import io.github.appsetmapper.engine.Engine;
import io.github.appsetmapper.engine.GetparamsTracing;
import io.github.appsetmapper.metrics.Metrics;
import io.github.appsetmapper.redis.RedisSettings;
import io.github.appsetmapper.redis.RedisSharing;
import io.github.appsetmapper.redis.RedisStats;
import io.github.appsetmapper.reload.MappingReloader;
import io.github.appsetmapper.replay.ExchangeFile;
import io.github.appsetmapper.replay.ReplayUpstream;
import io.github.appsetmapper.secret.Redactor;
import io.github.appsetmapper.server.AppServer;
import io.github.appsetmapper.server.MappingRegistry;
import io.github.appsetmapper.server.ServerOptions;
import io.github.appsetmapper.tracing.Tracings;
import io.github.appsetmapper.upstream.HttpUpstream;
import io.github.appsetmapper.upstream.UpstreamOptions;
import io.github.appsetmapper.upstream.cache.MemoryBudget;
import io.github.appsetmapper.upstream.call.Upstream;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The application wired in one place, for every command ({@code serve}, {@code run}, {@code test},
 * {@code validate}) and every test that runs it whole: the redactor every part shares, how mappings
 * compile ({@code --var}s, the environment, a test file's secret values), the upstream transport
 * (HTTP, a replay, or a test's), the enrich pool, the memory budget and the engine over them, the
 * metrics, and from these the server and the reloader. Closing it stops the pool and the transport
 * (a server and a reloader it made are closed by their owner).
 */
public final class AppRuntime implements AutoCloseable {
  private final Redactor redactor;
  private final CompileOptions compileOptions;
  private Metrics metrics; // made when first asked for (metrics())
  private final StartAhead ahead = new StartAhead();
  private final Upstream transport;
  private final ExecutorService pool;
  private final Engine engine;
  private final RedisSharing redis;
  private final UpstreamOptions http;
  private final Clock clock;
  private final Ticker ticker;
  private final GetparamsTracing tracing;
  private final ExchangeFile replayed;

  private AppRuntime(
      Builder builder,
      Upstream transport,
      Map<String, String> secretValues,
      RedisSharing redis,
      ExchangeFile replayed) {
    this.redactor = builder.redactor;
    this.replayed = replayed;
    this.redis = redis;
    this.http = builder.http;
    this.compileOptions =
        new CompileOptions(builder.vars, builder.environment, redactor, secretValues);
    this.metrics = builder.metrics;
    this.transport = transport;
    this.clock = builder.clock;
    this.ticker = builder.ticker;
    // Threads are made as tasks come: a runtime that only loads never makes one.
    this.pool = Executors.newFixedThreadPool(builder.enrichThreads, daemon("enrich"));
    this.tracing =
        transport == null
            ? GetparamsTracing.OFF
            : Tracings.fromEnvironment(builder.tracing, redactor, this::metrics);
    if (transport == null) {
      this.engine = null;
    } else {
      this.engine =
          Engine.builder()
              .transport(transport)
              .pool(pool)
              .redactor(redactor)
              .clock(builder.clock)
              .memoryBudget(new MemoryBudget(builder.memoryBudget))
              .ticker(builder.ticker)
              .sharing(redis == null ? Engine.Sharing.ALONE : redis.sharing())
              .tracing(tracing)
              .build();
    }
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The one redactor: every secret read and every token fetched is scrubbed by it. */
  public Redactor redactor() {
    return redactor;
  }

  /** How mappings compile here. */
  public CompileOptions compileOptions() {
    return compileOptions;
  }

  /**
   * Made when first asked for: its registry and JVM meters (JMX, GC listeners, several hundred
   * classes) serve {@code /metrics}; {@code validate}, {@code test}, {@code run} and {@code diff}
   * never ask, and start without them.
   */
  public synchronized Metrics metrics() {
    if (metrics == null) {
      metrics = new Metrics();
    }
    return metrics;
  }

  /** Starts making what {@code serve} needs soon but not first ({@link StartAhead}). */
  public void prepareAhead() {
    ahead.start(this::metrics, transport);
  }

  /**
   * {@code serve}'s first load, told to the start-ahead thread (whether to make the HTTP client).
   */
  public MappingLoader.Result loadFirst(MappingReloader reloader) {
    MappingLoader.Result loaded = reloader.loadFirst();
    ahead.firstLoad(loaded.mappings());
    return loaded;
  }

  /** What the Redis level did (null when this replica is alone). */
  public RedisStats redisStats() {
    return redis == null ? null : redis.stats();
  }

  /** The engine; a runtime built without a transport only loads ({@code validate}). */
  public Engine engine() {
    if (engine == null) {
      throw new IllegalStateException("this runtime has no upstream: it only loads mappings");
    }
    return engine;
  }

  /** Where enrich requests run (also for {@code test}, which runs its own engine per case). */
  public ExecutorService pool() {
    return pool;
  }

  /**
   * Why the replayed test file tests none of {@code loaded} (the mappings of {@code source}), or
   * null (no replay, or it does): {@code test}'s rule, so that a file {@code test} refuses is not
   * replayed with its vars going to no mapping, or to every one.
   */
  public String replayRefusal(List<CompiledMapping> loaded, Object source) {
    if (replayed == null) {
      return null;
    }
    String why = replayed.notTesting(loaded.stream().map(CompiledMapping::name).toList(), source);
    return why == null ? null : replayed.path() + ": " + why;
  }

  /** Every mapping of {@code paths}, loaded once, with every problem (no reload after). */
  public MappingLoader.Result load(List<Path> paths) {
    return MappingLoader.load(paths, compileOptions);
  }

  /**
   * A reloader of {@code paths} that hands each registry to {@code publish}; its {@link
   * MappingReloader#loadFirst} is the strict first load, its timer the reloads after.
   */
  public MappingReloader reloader(
      List<Path> paths, String defaultMapping, Consumer<MappingRegistry> publish) {
    // Asked for when a load is counted, not now: prepareAhead may still be making them.
    return new MappingReloader(
        paths,
        compileOptions,
        defaultMapping,
        registry -> {
          ahead.beforeServing(registry, transport);
          publish.accept(registry);
        },
        result -> metrics().reload(result));
  }

  /** The server over this engine and these metrics, serving {@code registry} (not started). */
  public AppServer server(ServerOptions options, MappingRegistry registry) {
    return server(options, registry, io.github.appsetmapper.server.Shadowing.NONE);
  }

  /** As {@link #server(ServerOptions, MappingRegistry)}, with candidates beside the live ones. */
  public AppServer server(
      ServerOptions options,
      MappingRegistry registry,
      io.github.appsetmapper.server.Shadowing shadowing) {
    if (transport instanceof HttpUpstream http) {
      metrics().bindTransport(http);
    }
    AppServer server = new AppServer(options, registry, engine(), metrics(), shadowing);
    if (redis != null) {
      metrics().bindRedis(redis.stats());
      // Not ready before Redis first answers (or a bounded wait ran out): a replica answering
      // from its empty memory in those seconds would not share what the others know.
      server.readyWhen(redis::settled);
    }
    return server;
  }

  /** The transport this runtime's engine calls through (null when it only loads). */
  public Upstream transport() {
    return transport;
  }

  /** The HTTP settings of the transport (null for a replay or a test's transport). */
  public UpstreamOptions httpOptions() {
    return http;
  }

  /** What decides when cached tokens expire. */
  public Clock clock() {
    return clock;
  }

  /** What tells the answer cache the time. */
  public Ticker ticker() {
    return ticker;
  }

  @Override
  public void close() {
    ahead.close();
    pool.shutdownNow();
    tracing.close();
    if (transport != null) {
      transport.close();
    }
    if (redis != null) {
      redis.close();
    }
  }

  /** Daemon threads named {@code prefix-1}, {@code prefix-2}...: none keeps the JVM alive. */
  public static ThreadFactory daemon(String prefix) {
    AtomicInteger count = new AtomicInteger();
    return r -> {
      Thread thread = new Thread(r, prefix + "-" + count.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    };
  }

  /** Sets what differs between a command, a deployment and a test; the rest has its default. */
  public static final class Builder {
    private Redactor redactor = new Redactor();
    private VarValues vars = VarValues.NONE;
    private Function<String, String> environment = System::getenv;
    private Map<String, String> secretValues = Map.of();
    private UpstreamOptions http;
    private Path replay;
    private Upstream transport;
    private int enrichThreads = 16;
    private long memoryBudget = MemoryBudget.DEFAULT_BYTES;
    private Clock clock = Clock.systemUTC();
    private Ticker ticker = Ticker.systemTicker();
    private Metrics metrics;
    private RedisSettings redis;
    private Map<String, String> tracing = Map.of();

    private Builder() {}

    /** Replicas share the cache, coalescing and baselines on this Redis (null: alone). */
    public Builder redis(RedisSettings settings) {
      this.redis = settings;
      return this;
    }

    /** Calls go over HTTP with these settings. */
    public Builder http(UpstreamOptions options) {
      this.http = options;
      return this;
    }

    /**
     * Calls are answered from a test file's recorded exchanges, whose secret values stand in for
     * the mapping's sources and whose {@code vars} win over {@code --var}s, as in {@code test}
     * ({@link VarValues#under}) (null: no replay).
     */
    public Builder replay(Path testFile) {
      this.replay = testFile;
      return this;
    }

    /** Calls go through {@code upstream} (a test's), closed with the runtime. */
    public Builder transport(Upstream upstream) {
      this.transport = upstream;
      return this;
    }

    /** {@code --var}s. */
    public Builder vars(VarValues values) {
      this.vars = values;
      return this;
    }

    /** {@code --var}s as given ({@code NAME} or {@code MAPPING.NAME} keys). */
    public Builder vars(Map<String, String> given) {
      return vars(VarValues.parse(given));
    }

    /** Where vars' {@code env} and secrets' {@code env} are read (default: the process's). */
    public Builder environment(Function<String, String> lookup) {
      this.environment = lookup;
      return this;
    }

    /** Secret values that replace the mappings' sources (a test file's). */
    public Builder secretValues(Map<String, String> values) {
      this.secretValues = Map.copyOf(values);
      return this;
    }

    public Builder redactor(Redactor value) {
      this.redactor = value;
      return this;
    }

    /** Threads that run enrich requests (default 16). */
    public Builder enrichThreads(int threads) {
      this.enrichThreads = threads;
      return this;
    }

    /** Bytes of upstream answers held in flight and in the cache, at most. */
    public Builder memoryBudget(long bytes) {
      this.memoryBudget = bytes;
      return this;
    }

    /** What decides when cached tokens expire. */
    public Builder clock(Clock value) {
      this.clock = value;
      return this;
    }

    /** What tells the answer cache the time. */
    public Builder ticker(Ticker value) {
      this.ticker = value;
      return this;
    }

    public Builder metrics(Metrics value) {
      this.metrics = value;
      return this;
    }

    /**
     * The {@code OTEL_*} variables that configure tracing ({@code serve} passes its environment);
     * default none: tracing off.
     */
    public Builder tracing(Map<String, String> otelEnvironment) {
      this.tracing = Map.copyOf(otelEnvironment);
      return this;
    }

    /**
     * @throws IOException when the replay file cannot be read, or Redis's integrity keys file
     */
    public AppRuntime build() throws IOException {
      if ((http != null ? 1 : 0) + (replay != null ? 1 : 0) + (transport != null ? 1 : 0) > 1) {
        throw new IllegalStateException("one transport: http, replay or a test's");
      }
      ExchangeFile recorded = replay == null ? null : ExchangeFile.read(replay);
      if (recorded != null) {
        // The recorded calls were made with the test file's vars: they win, as in `test`.
        vars = vars.underTestFile(recorded.mapping(), recorded.vars());
      }
      Upstream chosen =
          recorded != null
              ? new ReplayUpstream(recorded.allExchanges())
              : http != null ? new HttpUpstream(http) : transport;
      Map<String, String> secrets =
          recorded != null && secretValues.isEmpty() ? recorded.secrets() : secretValues;
      RedisSharing sharing = redis == null ? null : RedisSharing.start(redis, redactor);
      return new AppRuntime(this, chosen, secrets, sharing, recorded);
    }
  }
}
