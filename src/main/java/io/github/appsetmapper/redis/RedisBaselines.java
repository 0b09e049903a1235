package io.github.appsetmapper.redis;

import io.github.appsetmapper.engine.BaselineStore;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.function.Consumer;

/**
 * {@code maxDrop} baselines shared by every replica, on Redis, without an expiry (Redis's {@code
 * volatile-lru} never evicts them). A baseline is a sealed {@code rows, seq, epochs}: writes are
 * last-writer-wins, and a reader takes the highest seq it knows (its own floor beats an older
 * value: a lost or replayed one). Resets are generations, sealed, in their own keys: one per
 * mapping, one per mapping and input ({@code epoch}); a baseline written under a lower one no
 * longer counts, and this replica never goes back to a lower generation than it has seen (a deleted
 * generation key cannot undo a reset). A reset of one key writes a reset marker with a higher seq.
 * A message tells the other replicas to clear their floors at once.
 */
final class RedisBaselines implements BaselineStore {
  private final RedisLink link;
  private final Seal seal;
  private final RedisKeys keys;
  private final RedisStats stats;
  private final RedisEvents events;
  private final ExecutorService background;

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
    String name = keys.baseline(key.mapping(), key.input(), key.applicationSet());
    String mappingEpoch = keys.epoch(key.mapping(), null);
    String inputEpoch = keys.epoch(key.mapping(), key.input());
    List<Object> answers;
    try {
      answers =
          link.all(
              RedisStats.Op.BASELINE_READ,
              commands ->
                  List.of(
                      commands.get(RedisKeys.bytes(name)),
                      commands.get(RedisKeys.bytes(mappingEpoch)),
                      commands.get(RedisKeys.bytes(inputEpoch))));
    } catch (RedisLink.Unavailable e) {
      return Read.UNAVAILABLE;
    }
    Epochs current =
        new Epochs(
            epoch(mappingEpoch, (byte[]) answers.get(1)),
            epoch(inputEpoch, (byte[]) answers.get(2)));
    return new Read(true, baseline(name, (byte[]) answers.get(0)), current);
  }

  /**
   * The generation in force for an epoch key: the highest of the sealed value and what was seen.
   */
  private long epoch(String name, byte[] value) {
    long found = 0;
    if (value != null) {
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

  private Baseline baseline(String name, byte[] value) {
    if (value == null) {
      return null;
    }
    try {
      Seal.Opened opened = seal.open(name, value, System.currentTimeMillis());
      ByteBuffer plain = ByteBuffer.wrap(opened.plain());
      if (plain.remaining() != 4 + 8 + 8) {
        throw new Seal.Refused("bad baseline");
      }
      int rows = plain.getInt();
      long mapping = plain.getLong();
      long input = plain.getLong();
      return new Baseline(rows, opened.header().seq(), new Epochs(mapping, input));
    } catch (Seal.Refused e) {
      stats.integrityFailure(RedisStats.Sealed.BASELINE);
      return null;
    }
  }

  @Override
  public void write(Key key, Baseline baseline) {
    if (!link.up()) {
      stats.skip();
      return;
    }
    String name = keys.baseline(key.mapping(), key.input(), key.applicationSet());
    byte[] value = sealBaseline(name, baseline);
    try {
      link.one(
          RedisStats.Op.BASELINE_WRITE, commands -> commands.set(RedisKeys.bytes(name), value));
    } catch (RedisLink.Unavailable e) {
      // This replica's floor holds it until Redis answers again.
    }
  }

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
      } else {
        String name = keys.epoch(scope.mapping(), scope.input());
        byte[] value =
            link.one(RedisStats.Op.GUARD_RESET, commands -> commands.get(RedisKeys.bytes(name)));
        long next = epoch(name, value) + 1;
        long now = System.currentTimeMillis();
        byte[] sealed = seal.seal(name, now, 0, next, Seal.newVersion(), new byte[0]);
        link.one(
            RedisStats.Op.GUARD_RESET, commands -> commands.set(RedisKeys.bytes(name), sealed));
        seen.merge(name, next, Math::max);
        // The baselines of the old generation count no more: removed when there is time.
        String pattern = keys.baselines(scope.mapping(), scope.input());
        background.execute(() -> sweep(pattern));
      }
      link.publish(
          events.message(
              RedisEvents.Kind.RESET,
              mappingName,
              scope.input() == null ? "" : scope.input(),
              scope.applicationSet() == null ? "" : scope.applicationSet()));
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
          if (event.kind() == RedisEvents.Kind.RESET && event.fields().size() == 3) {
            List<String> f = event.fields();
            listener.accept(
                new Reset(
                    f.get(0),
                    f.get(1).isEmpty() ? null : f.get(1),
                    f.get(2).isEmpty() ? null : f.get(2)));
          }
        });
  }
}
