package io.github.appsetmapper.redis;

import io.github.appsetmapper.engine.Engine;
import io.github.appsetmapper.secret.Redactor;
import java.io.IOException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/**
 * What replicas share through Redis ({@code serve --redis}): the listing cache and coalescing
 * ({@link RedisListings}), the {@code maxDrop} baselines ({@link RedisBaselines}) and the messages
 * between them ({@link RedisEvents}), over one connection ({@link RedisLink}). Built whether Redis
 * answers or not: until it does, and whenever it stops, every replica runs on its own memory.
 */
public final class RedisSharing implements AutoCloseable {
  private final RedisStats stats = new RedisStats();
  private final RedisLink link;
  private final ScheduledExecutorService timers;
  private final ExecutorService background;
  private final Engine.Sharing sharing;
  private final long startedNanos = System.nanoTime();

  /**
   * How long {@code /readyz} waits for Redis's first answer; then the replica turns ready on its
   * own memory (a replica must start while Redis is down).
   */
  public static final java.time.Duration FIRST_ANSWER_WAIT = java.time.Duration.ofSeconds(10);

  private RedisSharing(RedisSettings settings, Redactor redactor) throws IOException {
    Seal seal = new Seal(Keys.of(settings.keysFile()));
    RedisKeys keys = new RedisKeys(settings.prefix());
    this.timers = Executors.newSingleThreadScheduledExecutor(daemon("redis-lease"));
    this.background = Executors.newSingleThreadExecutor(daemon("redis-background"));
    RedisEvents events = new RedisEvents(seal, keys.channel(), stats, background);
    this.link =
        new RedisLink(settings, stats, keys.channel(), (from, message) -> events.received(message));
    KeyCheck keyCheck = new KeyCheck(link, seal, keys, stats);
    link.onUp(keyCheck);
    link.start();
    timers.scheduleWithFixedDelay(
        keyCheck::refresh,
        KeyCheck.REFRESH_MILLIS,
        KeyCheck.REFRESH_MILLIS,
        java.util.concurrent.TimeUnit.MILLISECONDS);
    this.sharing =
        new Engine.Sharing(
            new RedisListings(link, seal, keys, stats, events, redactor, settings, timers),
            new RedisBaselines(link, seal, keys, stats, events, background));
  }

  /**
   * Starts connecting to Redis (in the background) with {@code settings}; the keys file is read
   * now.
   *
   * @param redactor knows every secret in use: a listing holding one is never shared
   * @throws IOException the keys file cannot be read or holds no usable key
   */
  public static RedisSharing start(RedisSettings settings, Redactor redactor) throws IOException {
    return new RedisSharing(settings, redactor);
  }

  public Engine.Sharing sharing() {
    return sharing;
  }

  /** Whether Redis has answered once, or {@link #FIRST_ANSWER_WAIT} has passed since the start. */
  public boolean settled() {
    return link.reachedOnce() || System.nanoTime() - startedNanos > FIRST_ANSWER_WAIT.toNanos();
  }

  public RedisStats stats() {
    return stats;
  }

  private static java.util.concurrent.ThreadFactory daemon(String name) {
    return r -> {
      Thread thread = new Thread(r, name);
      thread.setDaemon(true);
      return thread;
    };
  }

  @Override
  public void close() {
    timers.shutdownNow();
    background.shutdownNow();
    link.close();
  }
}
