package io.github.appsetmapper.redis;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * The messages replicas send each other on one Redis channel, only to act sooner: pub/sub delivers
 * at most once (a replica reconnecting misses what was sent meanwhile), so nothing depends on them;
 * what counts is in keys (invalidation and reset generations, landed flights). Every message is
 * sealed like a value (the channel is its name), is refused once older than {@link #WINDOW_MILLIS}
 * (by the time sealed in it; replicas' clocks agree far better than that) and is taken once (its
 * version remembered), so that a message can be neither forged nor replayed: a captured message
 * published again later is refused even by a replica that restarted since (its memory of what it
 * took is gone, the window is not). Resets carry their generation besides, so that one cannot clear
 * a baseline written after it either.
 */
final class RedisEvents {
  /** How old a message may be when it arrives: delivery takes milliseconds. */
  static final long WINDOW_MILLIS = 10_000;

  private static final long LIFETIME_MILLIS = WINDOW_MILLIS;

  /** Larger messages are not opened: ours are a few hundred bytes. */
  static final int MAX_MESSAGE_BYTES = 16 * 1024;

  enum Kind {
    LANDED,
    INVALIDATED,
    RESET
  }

  /** A message: its kind and its fields (texts, "" for none). */
  record Event(Kind kind, List<String> fields) {}

  private final Seal seal;
  private final String channel;
  private final String sender = Seal.newVersion();
  private final RedisStats stats;
  private final Cache<String, Boolean> seen =
      Caffeine.newBuilder()
          .maximumSize(100_000)
          .expireAfterWrite(Duration.ofMillis(WINDOW_MILLIS * 3))
          .build();
  private final ConcurrentHashMap<String, CompletableFuture<Void>> landings =
      new ConcurrentHashMap<>();
  private final List<Consumer<Event>> listeners = new CopyOnWriteArrayList<>();

  /** Runs the listeners: off Lettuce's event loop (forgetting floors walks a map). */
  private final java.util.concurrent.Executor dispatch;

  RedisEvents(Seal seal, String channel, RedisStats stats) {
    this(seal, channel, stats, Runnable::run);
  }

  RedisEvents(Seal seal, String channel, RedisStats stats, java.util.concurrent.Executor dispatch) {
    this.seal = seal;
    this.channel = channel;
    this.stats = stats;
    this.dispatch = dispatch;
  }

  byte[] message(Kind kind, String... fields) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      ListingCodec.text(out, sender);
      out.writeByte(kind.ordinal());
      out.writeInt(fields.length);
      for (String field : fields) {
        ListingCodec.text(out, field == null ? "" : field);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    long now = System.currentTimeMillis();
    return seal.seal(
        channel, now, now + LIFETIME_MILLIS, 0, Seal.newVersion(), bytes.toByteArray());
  }

  void listen(Consumer<Event> listener) {
    listeners.add(listener);
  }

  /** Completes when a LANDED message for {@code flight} and {@code token} arrives. */
  CompletableFuture<Void> landing(String flight, String token) {
    return landings.computeIfAbsent(flight + ":" + token, k -> new CompletableFuture<>());
  }

  void forget(String flight, String token) {
    landings.remove(flight + ":" + token);
  }

  /** A message from the channel: opened, checked, then handed on. */
  void received(byte[] message) {
    Event event;
    try {
      if (message == null || message.length > MAX_MESSAGE_BYTES) {
        throw new IOException("too large");
      }
      long now = System.currentTimeMillis();
      Seal.Opened opened = seal.open(channel, message, now);
      if (Math.abs(now - opened.header().storedAt()) > WINDOW_MILLIS) {
        throw new IOException("outside its window: a replay");
      }
      if (seen.asMap().putIfAbsent(opened.header().version(), Boolean.TRUE) != null) {
        return;
      }
      DataInputStream in = new DataInputStream(new ByteArrayInputStream(opened.plain()));
      String from = ListingCodec.text(in);
      int kind = in.readUnsignedByte();
      int count = in.readInt();
      if (kind >= Kind.values().length || count < 0 || count > 16) {
        throw new IOException("bad message");
      }
      String[] fields = new String[count];
      for (int i = 0; i < count; i++) {
        fields[i] = ListingCodec.text(in);
      }
      if (from.equals(sender)) {
        return;
      }
      event = new Event(Kind.values()[kind], List.of(fields));
    } catch (Seal.Refused | IOException e) {
      stats.integrityFailure(RedisStats.Sealed.MESSAGE);
      return;
    }
    if (event.kind() == Kind.LANDED && event.fields().size() == 2) {
      CompletableFuture<Void> waiting =
          landings.get(event.fields().get(0) + ":" + event.fields().get(1));
      if (waiting != null) {
        waiting.complete(null);
      }
      return;
    }
    Event taken = event;
    dispatch.execute(
        () -> {
          for (Consumer<Event> listener : listeners) {
            listener.accept(taken);
          }
        });
  }
}
