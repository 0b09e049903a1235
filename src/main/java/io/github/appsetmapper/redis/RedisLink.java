package io.github.appsetmapper.redis;

import io.github.appsetmapper.files.BoundedFiles;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisCredentials;
import io.lettuce.core.RedisCredentialsProvider;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.SslOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BiConsumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The connection to Redis, and the circuit breaker in front of it: a failing Redis costs a
 * getparams nothing. Commands share one multiplexed connection (Lettuce pipelines what is sent
 * together: the reads of a look-up are one round trip); each waits at most {@code --redis-timeout},
 * or longer when its caller has more patience ({@link #all(RedisStats.Op, Function, long)}: a
 * lease, a baseline the guard cannot do without). A slow answer is not a failure: a command its
 * caller stopped waiting for counts only once it is known to have failed (no answer within {@link
 * #commandTimeout}, or the connection lost); {@link #FAILURES_TO_OPEN} in a row (no success
 * between) open the breaker (a lost connection fails every command at once): from then on every
 * operation is refused at once ({@link Unavailable}, the caller uses its own memory) while a
 * background probe tries Redis every {@code probeInterval}; the first answer closes it. A busy
 * machine (load 20) makes round trips of a second: they used to open the breaker, which turned
 * answers into 503s and lost cross-replica coalescing. Going down and coming back are logged once
 * each and shown by {@code appset_mapper_redis_up}. An error answer from a reachable Redis (a full
 * one refusing a write) fails that operation only. Connecting happens in the background too: a
 * server starts, and is ready, whether Redis is there or not.
 */
final class RedisLink implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger("appset_mapper.redis");

  /** Redis cannot answer now: use this replica's memory. */
  static final class Unavailable extends Exception {
    private static final long serialVersionUID = 1L;

    /** Redis answered, with an error (full, read-only): asking again soon gets the same. */
    final boolean answered;

    Unavailable() {
      this(false);
    }

    Unavailable(boolean answered) {
      super(null, null, false, false);
      this.answered = answered;
    }
  }

  /** Failures in a row that open the breaker. */
  static final int FAILURES_TO_OPEN = 3;

  private final java.util.concurrent.atomic.AtomicInteger failures =
      new java.util.concurrent.atomic.AtomicInteger();
  private final RedisSettings settings;
  private final RedisStats stats;
  private final RedisWords words = new RedisWords();
  private final RedisClient client;
  private final ScheduledExecutorService probe;
  private final byte[] channel;
  private final BiConsumer<byte[], byte[]> onMessage;
  private volatile StatefulRedisConnection<byte[], byte[]> connection;
  private volatile StatefulRedisPubSubConnection<byte[], byte[]> subscription;
  private volatile boolean closed;
  private volatile String lastConnectFailure;
  private volatile boolean reachedOnce;
  private volatile Runnable onUp = () -> {};

  /**
   * @param onMessage called with each message of {@code channel} (on a Lettuce thread: keep it
   *     short)
   */
  RedisLink(
      RedisSettings settings,
      RedisStats stats,
      String channel,
      BiConsumer<byte[], byte[]> onMessage) {
    this.settings = settings;
    this.stats = stats;
    this.channel = channel.getBytes(StandardCharsets.UTF_8);
    this.onMessage = onMessage;
    this.client = RedisClient.create(uri(settings));
    client.setOptions(options(settings));
    this.probe =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread thread = new Thread(r, "redis-probe");
              thread.setDaemon(true);
              return thread;
            });
  }

  /** Starts connecting, in the background. */
  void start() {
    probe.execute(this::probe);
  }

  /**
   * The time a connection (TCP, TLS, AUTH, HELLO) may take: a cold JVM loads Netty and Lettuce on
   * the first one, which takes far longer than {@code --redis-timeout} allows a command.
   */
  static Duration connectTimeout(RedisSettings settings) {
    Duration floor = Duration.ofSeconds(2);
    return settings.timeout().compareTo(floor) > 0 ? settings.timeout() : floor;
  }

  /**
   * How long a command may go unanswered before it fails (and counts toward the breaker): eight
   * times {@code --redis-timeout}, at least {@link #connectTimeout}. Until then a late answer is a
   * slow round trip, not a Redis that is gone.
   */
  static Duration commandTimeout(RedisSettings settings) {
    Duration eight = settings.timeout().multipliedBy(8);
    Duration connect = connectTimeout(settings);
    return eight.compareTo(connect) > 0 ? eight : connect;
  }

  /** How soon a first connection that failed is tried again: sharing should start promptly. */
  static final long FIRST_RETRY_MILLIS = 200;

  private static RedisURI uri(RedisSettings settings) {
    RedisURI uri = RedisURI.create(settings.url());
    // Commands wait --redis-timeout in all(); this bounds the connection's own handshake.
    uri.setTimeout(connectTimeout(settings));
    if (settings.usernameFile() != null || settings.passwordFile() != null) {
      // Read at each (re)connection: a rotated password takes effect without a restart.
      uri.setCredentialsProvider(
          RedisCredentialsProvider.from(
              () ->
                  RedisCredentials.just(
                      read(settings.usernameFile()), read(settings.passwordFile()))));
    }
    return uri;
  }

  private static String read(Path file) {
    if (file == null) {
      return null;
    }
    try {
      return BoundedFiles.readText(file, BoundedFiles.SECRET_BYTES).strip();
    } catch (IOException e) {
      throw new IllegalStateException("cannot read " + file + ": " + BoundedFiles.reason(e));
    }
  }

  private static ClientOptions options(RedisSettings settings) {
    ClientOptions.Builder options =
        ClientOptions.builder()
            .autoReconnect(true)
            // Refused at once while disconnected, never queued for later.
            .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
            .requestQueueSize(10_000)
            .timeoutOptions(TimeoutOptions.enabled(commandTimeout(settings)))
            .socketOptions(
                SocketOptions.builder()
                    .connectTimeout(connectTimeout(settings))
                    .keepAlive(true)
                    .build());
    if (settings.caFile() != null) {
      options.sslOptions(
          SslOptions.builder().jdkSslProvider().trustManager(settings.caFile().toFile()).build());
    }
    return options.build();
  }

  /** Whether commands are sent now (the breaker is closed). */
  boolean up() {
    return stats.up() && connection != null;
  }

  /**
   * Sends the commands {@code commands} issues (pipelined) and waits for all of them, at most the
   * timeout.
   */
  List<Object> all(
      RedisStats.Op op, Function<RedisAsyncCommands<byte[], byte[]>, List<RedisFuture<?>>> commands)
      throws Unavailable {
    return all(op, commands, NO_PATIENCE);
  }

  /** No wait beyond {@code --redis-timeout}. */
  static final long NO_PATIENCE = Long.MIN_VALUE;

  /**
   * As {@link #all(RedisStats.Op, Function)}, waiting until {@code patientUntil} ({@link
   * System#nanoTime}) when that is later than the timeout: for a caller whose alternative to
   * Redis's answer is worse than waiting (a second upstream call, a refused answer).
   */
  List<Object> all(
      RedisStats.Op op,
      Function<RedisAsyncCommands<byte[], byte[]>, List<RedisFuture<?>>> commands,
      long patientUntil)
      throws Unavailable {
    StatefulRedisConnection<byte[], byte[]> now = connection;
    if (now == null || !stats.up()) {
      stats.skip();
      throw new Unavailable();
    }
    long end = System.nanoTime() + settings.timeout().toNanos();
    if (patientUntil != NO_PATIENCE && patientUntil - end > 0) {
      end = patientUntil;
    }
    List<RedisFuture<?>> sent = List.of();
    try {
      sent = commands.apply(now.async());
      Object[] answers = new Object[sent.size()];
      for (int i = 0; i < answers.length; i++) {
        answers[i] = sent.get(i).get(Math.max(0, end - System.nanoTime()), TimeUnit.NANOSECONDS);
      }
      failures.set(0);
      return java.util.Arrays.asList(answers);
    } catch (ExecutionException e) {
      stats.error(op);
      if (e.getCause() instanceof RedisCommandExecutionException refusal) {
        // Redis answered (full, read-only, a script error): this operation fails, Redis stays.
        words.refused(op, refusal);
        throw new Unavailable(true);
      }
      down(op, e.getCause());
      throw new Unavailable();
    } catch (TimeoutException e) {
      // This caller stops waiting; whether Redis is slow or gone, the commands tell when they end.
      stats.error(op);
      judgeLater(op, sent);
      throw new Unavailable();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new Unavailable();
    } catch (RuntimeException e) {
      stats.error(op);
      down(op, e);
      throw new Unavailable();
    }
  }

  /**
   * Counts commands a caller stopped waiting for once they end: an answer (however late) shows
   * Redis is there; a failure (no answer within {@link #commandTimeout}, a lost connection) counts
   * toward the breaker.
   */
  private void judgeLater(RedisStats.Op op, List<RedisFuture<?>> sent) {
    CompletableFuture<?>[] pending =
        sent.stream().map(f -> f.toCompletableFuture()).toArray(CompletableFuture<?>[]::new);
    CompletableFuture.allOf(pending)
        .whenComplete(
            (done, failure) -> {
              Throwable cause =
                  failure instanceof java.util.concurrent.CompletionException wrapped
                          && wrapped.getCause() != null
                      ? wrapped.getCause()
                      : failure;
              if (cause == null || cause instanceof RedisCommandExecutionException) {
                failures.set(0);
              } else {
                down(op, cause);
              }
            });
  }

  /**
   * As {@link #all(RedisStats.Op, Function, long)} for reads that may be sent again (GETs), when
   * the caller's alternative is refusing its answer: a round trip that fails while the breaker
   * stays closed (Lettuce gave up on a command that long unanswered) is tried again, until {@code
   * until}. An open breaker is a Redis gone, not a slow one: refused at once, as ever.
   */
  List<Object> patiently(
      RedisStats.Op op,
      Function<RedisAsyncCommands<byte[], byte[]>, List<RedisFuture<?>>> commands,
      long until)
      throws Unavailable {
    long pause = TimeUnit.MILLISECONDS.toNanos(10);
    while (true) {
      try {
        return all(op, commands, until);
      } catch (Unavailable e) {
        long left = until - System.nanoTime();
        if (e.answered || !up() || left <= 0 || closed) {
          throw e;
        }
        java.util.concurrent.locks.LockSupport.parkNanos(Math.min(pause, left));
        pause = Math.min(pause * 2, TimeUnit.MILLISECONDS.toNanos(200));
        if (Thread.interrupted()) {
          Thread.currentThread().interrupt();
          throw e;
        }
      }
    }
  }

  /** One command. */
  @SuppressWarnings("unchecked")
  <T> T one(RedisStats.Op op, Function<RedisAsyncCommands<byte[], byte[]>, RedisFuture<T>> command)
      throws Unavailable {
    return one(op, command, NO_PATIENCE);
  }

  /** One command, waiting until {@code patientUntil} if that is later than the timeout. */
  @SuppressWarnings("unchecked")
  <T> T one(
      RedisStats.Op op,
      Function<RedisAsyncCommands<byte[], byte[]>, RedisFuture<T>> command,
      long patientUntil)
      throws Unavailable {
    return (T) all(op, commands -> List.of(command.apply(commands)), patientUntil).get(0);
  }

  /** Sends a message to every replica (this one included). */
  void publish(byte[] message) throws Unavailable {
    one(RedisStats.Op.PUBLISH, commands -> commands.publish(channel, message));
  }

  private void down(RedisStats.Op op, Throwable cause) {
    if (failures.incrementAndGet() < FAILURES_TO_OPEN) {
      return;
    }
    if (stats.up(false)) {
      LOG.warn(
          "redis: {} failed ({}): every replica uses its own memory until Redis answers again"
              + " (appset_mapper_redis_up 0)",
          op.name().toLowerCase(java.util.Locale.ROOT),
          RedisWords.describe(cause));
      if (!closed) {
        probe.schedule(this::probe, settings.probeInterval().toMillis(), TimeUnit.MILLISECONDS);
      }
    }
  }

  /** Connects when not yet connected, then PINGs; up on an answer, else tries again later. */
  private void probe() {
    if (closed) {
      return;
    }
    try {
      if (connection == null) {
        connection = client.connect(ByteArrayCodec.INSTANCE);
      }
      if (subscription == null) {
        StatefulRedisPubSubConnection<byte[], byte[]> pubsub =
            client.connectPubSub(ByteArrayCodec.INSTANCE);
        pubsub.addListener(
            new RedisPubSubAdapter<>() {
              @Override
              public void message(byte[] from, byte[] message) {
                try {
                  onMessage.accept(from, message);
                } catch (RuntimeException e) {
                  LOG.debug("redis: a message was not handled: {}", e.toString());
                }
              }
            });
        pubsub
            .async()
            .subscribe(channel)
            .get(settings.timeout().toMillis() * 8, TimeUnit.MILLISECONDS);
        subscription = pubsub;
      }
      connection.async().ping().get(connectTimeout(settings).toMillis(), TimeUnit.MILLISECONDS);
      failures.set(0);
      reachedOnce = true;
      if (stats.up(true)) {
        LOG.info(
            "redis: {} answers: replicas share the cache, leases and baselines", settings.where());
        try {
          onUp.run();
        } catch (RuntimeException e) {
          LOG.debug("redis: the check after connecting failed: {}", e.toString());
        }
      }
    } catch (Exception e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
        return;
      }
      String why = RedisWords.describe(e);
      if (connection == null && !why.equals(lastConnectFailure)) {
        // Said once per cause: a first timeout on a cold start must not hide a refused password.
        lastConnectFailure = why;
        LOG.warn(
            "redis: cannot connect to {} ({}): every replica uses its own memory until it can",
            settings.where(),
            why);
      }
      if (!closed) {
        long again =
            reachedOnce
                ? settings.probeInterval().toMillis()
                : Math.min(FIRST_RETRY_MILLIS, settings.probeInterval().toMillis());
        probe.schedule(this::probe, again, TimeUnit.MILLISECONDS);
      }
    }
  }

  /** Whether Redis answered at least once since this replica started. */
  boolean reachedOnce() {
    return reachedOnce;
  }

  /** Runs {@code check} on the probe thread each time Redis answers again (after being down). */
  void onUp(Runnable check) {
    this.onUp = check;
  }

  @Override
  public void close() {
    closed = true;
    probe.shutdownNow();
    try {
      if (subscription != null) {
        subscription.close();
      }
      if (connection != null) {
        connection.close();
      }
    } catch (RuntimeException e) {
      // Closing: nothing left to do with it.
    }
    client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
  }
}
