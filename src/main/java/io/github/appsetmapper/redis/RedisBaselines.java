package io.github.appsetmapper.redis;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.github.appsetmapper.engine.BaselineStore;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code maxDrop} baselines shared by every replica, on Redis, without an expiry (Redis's {@code
 * volatile-lru} never evicts them). A baseline is a sealed {@code rows, seq, epochs}: a write is a
 * compare-and-set over the value the replica read (a value written meanwhile, or one this replica
 * cannot open, is never overwritten: only an authenticated reset replaces it), and a reader takes
 * the highest seq it knows (its own floor beats an older value: a lost or replayed one). A value
 * that does not open is not "no baseline": the read says why, and the guard refuses. Resets are
 * generations, sealed, in their own keys: one per mapping, one per mapping and input ({@code
 * epoch}); a baseline written under a lower one no longer counts, and this replica never goes back
 * to a lower generation than it has seen (a deleted generation key cannot undo a reset). A reset of
 * one key writes a reset marker with a higher seq. A message tells the other replicas to clear
 * their floors at once.
 */
final class RedisBaselines implements BaselineStore {
  private final RedisLink link;
  private final Seal seal;
  private final RedisKeys keys;
  private final RedisStats stats;
  private final RedisEvents events;
  private final ExecutorService background;

  private static final Logger LOG = LoggerFactory.getLogger("appset_mapper.redis");

  /** Keys whose unreadable value was logged in the last minute. */
  private final Cache<String, Boolean> warned =
      Caffeine.newBuilder()
          .maximumSize(10_000)
          .expireAfterWrite(java.time.Duration.ofMinutes(1))
          .build();

  /** The highest generation seen per epoch key: never lowered. */
  private final ConcurrentHashMap<String, Long> seen = new ConcurrentHashMap<>();

  RedisBaselines(
      RedisLink link,
      Seal seal,
      RedisKeys keys,
      RedisStats stats,
      RedisEvents events,
      ExecutorService background) {
    this.link = link;
    this.seal = seal;
    this.keys = keys;
    this.stats = stats;
    this.events = events;
    this.background = background;
  }

  @Override
  public Read read(Key key) {
    return read(key, RedisLink.NO_PATIENCE);
  }

  @Override
  public Read read(Key key, long patientUntil) {
    String name = keys.baseline(key.mapping(), key.input(), key.applicationSet());
    String mappingEpoch = keys.epoch(key.mapping(), null);
    String inputEpoch = keys.epoch(key.mapping(), key.input());
    java.util.function.Function<
            io.lettuce.core.api.async.RedisAsyncCommands<byte[], byte[]>,
            List<io.lettuce.core.RedisFuture<?>>>
        gets =
            commands ->
                List.of(
                    Bounded.get(commands, name, Bounded.SMALL),
                    Bounded.get(commands, mappingEpoch, Bounded.SMALL),
                    Bounded.get(commands, inputEpoch, Bounded.SMALL));
    List<Object> answers;
    try {
      answers =
          patientUntil == RedisLink.NO_PATIENCE
              ? link.all(RedisStats.Op.BASELINE_READ, gets)
              : link.patiently(RedisStats.Op.BASELINE_READ, gets, patientUntil);
    } catch (RedisLink.Unavailable e) {
      return Read.UNAVAILABLE;
    }
    Epochs current =
        new Epochs(
            epoch(mappingEpoch, Bounded.of(answers.get(1))),
            epoch(inputEpoch, Bounded.of(answers.get(2))));
    Bounded stored = Bounded.of(answers.get(0));
    if (stored.refused()) {
      // Redis answered, with what cannot be a baseline: said so, never read whole, never
      // overwritten (no witness) but by a guard/reset.
      stats.integrityFailure(RedisStats.Sealed.BASELINE);
      String why = stored.why("a baseline", Bounded.SMALL);
      warnOnce(name, why);
      return new Read(true, null, current, why, null);
    }
    byte[] raw = stored.value();
    String witness = witness(raw);
    try {
      return new Read(true, baseline(name, raw), current, null, witness);
    } catch (Seal.Refused e) {
      stats.integrityFailure(RedisStats.Sealed.BASELINE);
      String why = unreadable(e, raw);
      warnOnce(name, why);
      return new Read(true, null, current, why, witness);
    }
  }

  @Override
  public boolean shared() {
    return true;
  }

  /** What a compare-and-set compares: the SHA-1 of the value read ("" for none), as Lua has it. */
  static String witness(byte[] value) {
    if (value == null) {
      return "";
    }
    try {
      return java.util.HexFormat.of()
          .formatHex(java.security.MessageDigest.getInstance("SHA-1").digest(value));
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Why a value does not open, in words for an answer: no secret, no key material. */
  private static String unreadable(Seal.Refused e, byte[] raw) {
    String id;
    try {
      id = Seal.header(raw).keyId();
    } catch (Seal.Refused notSealed) {
      return "the value in Redis does not open with this replica's integrity keys (not a sealed"
          + " value)";
    }
    return switch (e.getMessage()) {
      case "unknown key id" ->
          "the value in Redis does not open with this replica's integrity keys (sealed with key"
              + " id '"
              + (id.matches("[A-Za-z0-9._-]{1,32}") ? id : "?")
              + "', which this replica does not have)";
      case "tag mismatch" ->
          "the value in Redis does not open with this replica's integrity keys (tag mismatch:"
              + " another secret under the same key id, or a value moved from another key)";
      default ->
          "the value in Redis does not open with this replica's integrity keys ("
              + e.getMessage()
              + ")";
    };
  }

  /** Logged at most once a minute per key: a mismatch of keys would otherwise flood the log. */
  private void warnOnce(String name, String why) {
    if (warned.asMap().putIfAbsent(name, Boolean.TRUE) == null) {
      LOG.warn(
          "redis: maxDrop baseline {} refused: {}; answers for it are refused (503) until a"
              + " guard/reset (or, for a value sealed with other keys, until every replica has the"
              + " same --redis-integrity-keys-file)",
          RedisKeys.digest(name).substring(0, 12),
          why);
    }
  }

  /**
   * The generation in force for an epoch key: the highest of the sealed value and what was seen.
   */
  private long epoch(String name, Bounded read) {
    long found = 0;
    byte[] value = read.value();
    if (read.refused()) {
      stats.integrityFailure(RedisStats.Sealed.GUARD_EPOCH);
      if (warned.asMap().putIfAbsent(name, Boolean.TRUE) == null) {
        LOG.warn(
            "redis: reset generation {} ignored: {}; the highest generation this replica has seen"
                + " stays in force (appset_mapper_redis_integrity_failures_total{kind=\"guard_epoch\"})",
            RedisKeys.digest(name).substring(0, 12),
            read.why("a reset generation", Bounded.SMALL));
      }
    } else if (value != null) {
      try {
        found = seal.open(name, value, System.currentTimeMillis()).header().seq();
      } catch (Seal.Refused e) {
        stats.integrityFailure(RedisStats.Sealed.GUARD_EPOCH);
      }
    }
    if (found == 0) {
      // Nothing recorded (most inputs never had a reset): nothing to remember either.
      return seen.getOrDefault(name, 0L);
    }
    return seen.merge(name, found, Math::max);
  }

  private Baseline baseline(String name, byte[] value) throws Seal.Refused {
    if (value == null) {
      return null;
    }
    Seal.Opened opened = seal.open(name, value, System.currentTimeMillis());
    ByteBuffer plain = ByteBuffer.wrap(opened.plain());
    if (plain.remaining() != 4 + 8 + 8) {
      throw new Seal.Refused("not a baseline");
    }
    int rows = plain.getInt();
    long mapping = plain.getLong();
    long input = plain.getLong();
    return new Baseline(rows, opened.header().seq(), new Epochs(mapping, input));
  }

  @Override
  public void write(Key key, Baseline baseline, Read basis) {
    if (!basis.available() || basis.unreadable() != null || basis.witness() == null) {
      // Not read from Redis, or read and not opened: nothing is written over what this replica
      // has not seen (its floor holds the baseline).
      return;
    }
    if (!link.up()) {
      stats.skip();
      return;
    }
    String name = keys.baseline(key.mapping(), key.input(), key.applicationSet());
    byte[] value = sealBaseline(name, baseline);
    try {
      link.one(
          RedisStats.Op.BASELINE_WRITE,
          commands ->
              commands.<Long>eval(
                  WRITE_OVER,
                  io.lettuce.core.ScriptOutputType.INTEGER,
                  new byte[][] {RedisKeys.bytes(name)},
                  value,
                  RedisKeys.bytes(basis.witness())));
    } catch (RedisLink.Unavailable e) {
      // This replica's floor holds it until Redis answers again.
    }
  }

  /** SET only over the value read (by its SHA-1, "" for none): compare-and-set. */
  static final String WRITE_OVER =
      "local now = redis.call('GET', KEYS[1])"
          + " if (not now and ARGV[2] == '') or (now and redis.sha1hex(now) == ARGV[2]) then"
          + " redis.call('SET', KEYS[1], ARGV[1]) return 1 end return 0";

  private byte[] sealBaseline(String name, Baseline baseline) {
    byte[] plain =
        ByteBuffer.allocate(4 + 8 + 8)
            .putInt(baseline.rows())
            .putLong(baseline.epochs().mapping())
            .putLong(baseline.epochs().input())
            .array();
    return seal.seal(name, System.currentTimeMillis(), 0, baseline.seq(), Seal.newVersion(), plain);
  }

  @Override
  public boolean reset(String mappingName, Key scope, long floorSeq) {
    try {
      long generation;
      if (scope.input() != null && scope.applicationSet() != null) {
        Key key = scope;
        Read now = read(key);
        if (!now.available()) {
          return false;
        }
        long seq = Math.max(floorSeq, now.value() == null ? 0 : now.value().seq()) + 1;
        String name = keys.baseline(key.mapping(), key.input(), key.applicationSet());
        byte[] marker = sealBaseline(name, new Baseline(-1, seq, now.current()));
        link.one(
            RedisStats.Op.GUARD_RESET, commands -> commands.set(RedisKeys.bytes(name), marker));
        generation = seq;
      } else {
        String name = keys.epoch(scope.mapping(), scope.input());
        List<Object> value =
            link.one(
                RedisStats.Op.GUARD_RESET, commands -> Bounded.get(commands, name, Bounded.SMALL));
        long next = epoch(name, Bounded.of(value)) + 1;
        long now = System.currentTimeMillis();
        byte[] sealed = seal.seal(name, now, 0, next, Seal.newVersion(), new byte[0]);
        link.one(
            RedisStats.Op.GUARD_RESET, commands -> commands.set(RedisKeys.bytes(name), sealed));
        seen.merge(name, next, Math::max);
        generation = next;
        // The baselines of the old generation count no more: removed when there is time.
        String pattern = keys.baselines(scope.mapping(), scope.input());
        background.execute(() -> sweep(pattern));
      }
      link.publish(
          events.message(
              RedisEvents.Kind.RESET,
              mappingName,
              scope.input() == null ? "" : scope.input(),
              scope.applicationSet() == null ? "" : scope.applicationSet(),
              Long.toString(generation)));
      return true;
    } catch (RedisLink.Unavailable e) {
      return false;
    }
  }

  /** Deletes baselines of a generation that no longer counts (best effort, SCAN, not KEYS). */
  private void sweep(String pattern) {
    ScanCursor cursor = ScanCursor.INITIAL;
    try {
      for (int round = 0; round < 10_000 && !cursor.isFinished(); round++) {
        ScanCursor from = cursor;
        KeyScanCursor<byte[]> page =
            link.one(
                RedisStats.Op.GUARD_RESET,
                commands -> commands.scan(from, ScanArgs.Builder.matches(pattern).limit(500)));
        List<byte[]> found = page.getKeys();
        if (!found.isEmpty()) {
          link.one(
              RedisStats.Op.GUARD_RESET, commands -> commands.unlink(found.toArray(new byte[0][])));
        }
        cursor = page;
      }
    } catch (RedisLink.Unavailable | RuntimeException e) {
      // Left for the next reset; each value stays refused by its generation meanwhile.
    }
  }

  @Override
  public void onReset(Consumer<Reset> listener) {
    events.listen(
        event -> {
          if (event.kind() == RedisEvents.Kind.RESET && event.fields().size() == 4) {
            List<String> f = event.fields();
            long generation;
            try {
              generation = Long.parseLong(f.get(3));
            } catch (NumberFormatException e) {
              stats.integrityFailure(RedisStats.Sealed.MESSAGE);
              return;
            }
            listener.accept(
                new Reset(
                    f.get(0),
                    f.get(1).isEmpty() ? null : f.get(1),
                    f.get(2).isEmpty() ? null : f.get(2),
                    generation));
          }
        });
  }
}
