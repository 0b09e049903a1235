package io.github.appsetmapper.redis;

import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.SetArgs;
import java.nio.charset.StandardCharsets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells, when Redis answers, whether this replica's integrity keys agree with the other replicas':
 * each replica leaves one sealed record per sealing key ({@code keycheck:<digest of its id>}) and
 * opens the others'. A record that does not open means replicas that cannot read each other's
 * values (a Secret half rolled out, a rotation moved too early, two releases on one prefix): each
 * would take the others' baselines for unreadable. Said at ERROR, with the key id (not secret),
 * never the key.
 */
final class KeyCheck implements Runnable {
  private static final Logger LOG = LoggerFactory.getLogger("appset_mapper.redis");

  /**
   * How long a record stays unless rewritten ({@link #refresh}, every {@link #REFRESH_MILLIS}): a
   * key id no replica seals with any more (after a rotation) stops being reported soon after.
   */
  private static final long KEEP_MILLIS = 10L * 60 * 1000;

  static final long REFRESH_MILLIS = 2L * 60 * 1000;
  private static final byte[] TEXT = "appset-mapper key check".getBytes(StandardCharsets.US_ASCII);

  private final RedisLink link;
  private final Seal seal;
  private final RedisKeys keys;
  private final RedisStats stats;

  KeyCheck(RedisLink link, Seal seal, RedisKeys keys, RedisStats stats) {
    this.link = link;
    this.seal = seal;
    this.keys = keys;
    this.stats = stats;
  }

  @Override
  public void run() {
    try {
      ScanCursor cursor = ScanCursor.INITIAL;
      for (int round = 0; round < 100 && !cursor.isFinished(); round++) {
        ScanCursor from = cursor;
        KeyScanCursor<byte[]> page =
            link.one(
                RedisStats.Op.CACHE_READ,
                commands ->
                    commands.scan(from, ScanArgs.Builder.matches(keys.keyChecks()).limit(100)));
        for (byte[] name : page.getKeys()) {
          check(new String(name, StandardCharsets.UTF_8));
        }
        cursor = page;
      }
      write();
    } catch (RedisLink.Unavailable e) {
      // Checked again the next time Redis answers.
    }
  }

  /** Writes this replica's record again, so that it outlives no rotation by much. */
  void refresh() {
    if (!link.up()) {
      return;
    }
    try {
      write();
    } catch (RedisLink.Unavailable | RuntimeException e) {
      // Written again at the next refresh.
    }
  }

  private void write() throws RedisLink.Unavailable {
    String mine = keys.keyCheck(seal.sealingKeyId());
    long now = System.currentTimeMillis();
    byte[] value = seal.seal(mine, now, now + KEEP_MILLIS, 0, Seal.newVersion(), TEXT);
    link.one(
        RedisStats.Op.CACHE_WRITE,
        commands -> commands.set(RedisKeys.bytes(mine), value, SetArgs.Builder.px(KEEP_MILLIS)));
  }

  private void check(String name) throws RedisLink.Unavailable {
    Bounded read =
        Bounded.of(link.one(RedisStats.Op.CACHE_READ, c -> Bounded.get(c, name, Bounded.SMALL)));
    if (read.refused()) {
      // Not a record of ours (too large, or not a string): nothing to learn from it.
      stats.integrityFailure(RedisStats.Sealed.KEY_CHECK);
      return;
    }
    byte[] value = read.value();
    if (value == null) {
      return;
    }
    String id = "?";
    try {
      id = Seal.header(value).keyId();
      seal.open(name, value, System.currentTimeMillis());
    } catch (Seal.Refused e) {
      stats.integrityFailure(RedisStats.Sealed.KEY_CHECK);
      LOG.error(
          "redis: another replica seals with key id '{}', which {}: replicas cannot open each"
              + " other's values (baselines then refuse answers with 503, listings are fetched"
              + " again). Give every replica the same --redis-integrity-keys-file; during a"
              + " rotation, add the new key as a second line on every pod before moving it first",
          safe(id),
          "unknown key id".equals(e.getMessage())
              ? "this replica's keys file does not have"
              : "holds a different secret in this replica's keys file (" + e.getMessage() + ")");
    }
  }

  private static String safe(String id) {
    return id.matches("[A-Za-z0-9._-]{1,32}") ? id : "?";
  }
}
