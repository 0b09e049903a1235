package io.github.appsetmapper.redis;

import io.github.appsetmapper.upstream.cache.SharedLevel;
import io.github.appsetmapper.upstream.cache.StoredListing;
import io.github.appsetmapper.upstream.call.CachePolicy;
import io.github.appsetmapper.upstream.call.Deadline;
import io.github.appsetmapper.upstream.call.UpstreamRequest;
import io.lettuce.core.SetArgs;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One listing fetched once across replicas. The first replica takes a lease ({@code SET NX PX},
 * with the next flight seq, in one script) whose time follows the request's timeout and is renewed
 * while it walks; the others wait for what it lands, woken by a message or by polling the lease and
 * the landing, and stop waiting while there is still time, within their deadline, to fetch on their
 * own (the request's timeout, at most half the deadline): waiting never turns into a 504. A leader
 * that stops early, or dies (its lease runs out), lets the next one take the lease. What lands is a
 * sealed record: the listing kept in the cache (by version), or, when it is not kept (no cache, a
 * stale stand-in), the listing itself.
 */
final class RedisFlight implements SharedLevel.Flight {
  static final long LANDED_MILLIS = 30_000;
  private static final long FIRST_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(20);
  private static final long LAST_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(200);

  private enum Landing {
    ABANDONED,
    CACHED,
    INLINE
  }

  private final RedisListings level;
  private final String key;
  private final String flight;
  private final String token;
  private final byte[] leaseValue;
  private final long seq;
  private final long leaseMillis;
  private final SharedLevel.Landed landed;
  private final long deadlineEnd;
  private volatile ScheduledFuture<?> renewal;

  private RedisFlight(
      RedisListings level,
      String key,
      String flight,
      String token,
      byte[] leaseValue,
      long seq,
      long leaseMillis,
      SharedLevel.Landed landed,
      long deadlineEnd) {
    this.level = level;
    this.deadlineEnd = deadlineEnd;
    this.key = key;
    this.flight = flight;
    this.token = token;
    this.leaseValue = leaseValue;
    this.seq = seq;
    this.leaseMillis = leaseMillis;
    this.landed = landed;
  }

  static SharedLevel.Flight join(
      RedisListings level, String key, String flight, UpstreamRequest first) {
    Duration timeout = first.timeout() == null ? Duration.ofSeconds(10) : first.timeout();
    Deadline deadline = first.settings().deadline();
    long leaseMillis = Math.max(1000, timeout.toMillis() + 1000);
    long waitEnd =
        deadline.isSet()
            ? deadline.endNanos() - Math.min(timeout.toNanos(), deadline.budget().toNanos() / 2)
            : System.nanoTime() + timeout.toNanos();
    long end = deadline.isSet() ? deadline.endNanos() : System.nanoTime() + timeout.toNanos();
    String token = Seal.newVersion();
    RedisKeys keys = level.keys();
    // Sealed, so that a lease written by anyone else is known for what it is and not waited on.
    byte[] lease =
        level
            .seal()
            .seal(
                keys.lease(flight),
                System.currentTimeMillis(),
                0,
                0,
                Seal.newVersion(),
                RedisKeys.bytes(token));
    byte[][] leaseAndSeq = {RedisKeys.bytes(keys.lease(flight)), RedisKeys.bytes(keys.seq())};
    try {
      for (int round = 0; round < 50; round++) {
        // Patient until the wait ends: a lease answered late still coalesces the replicas, where
        // giving up at --redis-timeout made each replica call the upstream on a busy machine.
        List<Object> answer =
            level
                .link()
                .one(
                    RedisStats.Op.LEASE,
                    commands ->
                        commands.<List<Object>>eval(
                            RedisListings.ACQUIRE,
                            RedisListings.multi(),
                            leaseAndSeq,
                            lease,
                            RedisKeys.bytes(Long.toString(leaseMillis)),
                            RedisKeys.bytes(Long.toString(level.highestSeq())),
                            RedisKeys.bytes(Long.toString(Bounded.SMALL))),
                    waitEnd);
        if (((Long) answer.get(0)) == 1) {
          level.stats().lease(RedisStats.Lease.WON);
          long seq = level.seqAnswered((Long) answer.get(1), (Long) answer.get(2));
          RedisFlight lead =
              new RedisFlight(level, key, flight, token, lease, seq, leaseMillis, null, end);
          lead.renew();
          return lead;
        }
        if (answer.size() < 2) {
          continue; // the lease ran out between SET and GET: try again
        }
        if (System.nanoTime() - waitEnd >= 0) {
          level.stats().lease(RedisStats.Lease.GAVE_UP);
          return new RedisFlight(level, key, flight, null, null, 0, 0, null, end);
        }
        if (answer.size() == 3) {
          // A lease too large to be one: never read, not ours, nobody is fetching.
          level.stats().integrityFailure(RedisStats.Sealed.LEASE);
          level.oversized(
              level.keys().lease(flight),
              new Bounded(null, (Long) answer.get(2), "string"),
              "a lease",
              Bounded.SMALL);
          return new RedisFlight(level, key, flight, null, null, 0, 0, null, end);
        }
        String holder = holderToken(level, flight, (byte[]) answer.get(1));
        if (holder == null) {
          // Not a lease of ours: nobody is fetching; this replica fetches on its own.
          return new RedisFlight(level, key, flight, null, null, 0, 0, null, end);
        }
        SharedLevel.Landed taken = await(level, flight, (byte[]) answer.get(1), holder, waitEnd);
        if (taken != null) {
          level.stats().lease(RedisStats.Lease.WAITED);
          return new RedisFlight(level, key, flight, null, null, 0, 0, taken, end);
        }
        if (System.nanoTime() - waitEnd >= 0) {
          level.stats().lease(RedisStats.Lease.GAVE_UP);
          return new RedisFlight(level, key, flight, null, null, 0, 0, null, end);
        }
      }
      return SharedLevel.Flight.ALONE;
    } catch (RedisLink.Unavailable e) {
      return SharedLevel.Flight.ALONE;
    }
  }

  /**
   * Waits for the holder of the lease: what it landed, or null when it let the lease go without a
   * usable landing (or the wait is over).
   */
  /** The token of the replica holding the lease, or null when the lease is not a sealed one. */
  private static String holderToken(RedisListings level, String flight, byte[] holder) {
    try {
      return new String(
          level.seal().open(level.keys().lease(flight), holder, System.currentTimeMillis()).plain(),
          StandardCharsets.UTF_8);
    } catch (Seal.Refused e) {
      level.stats().integrityFailure(RedisStats.Sealed.LEASE);
      if (level.sayOnce("lease")) {
        org.slf4j.LoggerFactory.getLogger("appset_mapper.redis")
            .warn(
                "redis: a lease in Redis is not one of ours ({}): ignored, the call is made here;"
                    + " something other than appset-mapper writes this Redis"
                    + " (appset_mapper_redis_integrity_failures_total{kind=\"lease\"})",
                e.getMessage());
      }
      return null;
    }
  }

  private static SharedLevel.Landed await(
      RedisListings level, String flight, byte[] holder, String holderToken, long waitEnd)
      throws RedisLink.Unavailable {
    RedisKeys keys = level.keys();
    String leaseName = keys.lease(flight);
    String landedName = keys.landed(flight, holderToken);
    CompletableFuture<Void> signal = level.events().landing(flight, holderToken);
    long poll = FIRST_POLL_NANOS;
    level.stats().waiting(1);
    try {
      while (true) {
        // The lease first: a landing is written before the lease goes, so a lease seen gone
        // means the landing is there to be read.
        List<Object> seen =
            level
                .link()
                .all(
                    RedisStats.Op.LEASE,
                    commands ->
                        List.of(
                            Bounded.get(commands, leaseName, Bounded.SMALL),
                            Bounded.get(commands, landedName, level.listingLimit())),
                    waitEnd);
        Bounded landed = Bounded.of(seen.get(1));
        if (landed.refused()) {
          level.stats().integrityFailure(RedisStats.Sealed.LANDED);
          level.oversized(landedName, landed, "a landing", level.listingLimit());
          return null;
        }
        if (landed.value() != null) {
          return open(level, landedName, landed.value());
        }
        byte[] lease = Bounded.of(seen.get(0)).value();
        if (lease == null || !Arrays.equals(lease, holder)) {
          return null;
        }
        long left = waitEnd - System.nanoTime();
        if (left <= 0) {
          return null;
        }
        try {
          signal.get(Math.min(poll, left), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
          poll = Math.min(poll * 2, LAST_POLL_NANOS);
        } catch (ExecutionException e) {
          return null;
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return null;
        }
      }
    } finally {
      level.stats().waiting(-1);
      level.events().forget(flight, holderToken);
    }
  }

  private static SharedLevel.Landed open(RedisListings level, String name, byte[] value) {
    try {
      Seal.Opened opened = level.seal().open(name, value, System.currentTimeMillis());
      DataInputStream in = new DataInputStream(new ByteArrayInputStream(opened.plain()));
      int kind = in.readUnsignedByte();
      String stale = ListingCodec.text(in);
      if (kind == Landing.CACHED.ordinal()) {
        ListingCodec.text(in); // the version kept; another flight may have replaced it since,
        // and any listing kept now is as good.
        StoredListing listing = level.read(level.keys().listing(ListingCodec.text(in)));
        return listing == null ? null : new SharedLevel.Landed(listing, null);
      }
      if (kind == Landing.INLINE.ordinal()) {
        byte[] rest = in.readAllBytes();
        Seal.Header header = opened.header();
        return new SharedLevel.Landed(
            new StoredListing(
                header.version(), header.seq(), header.storedAt(), ListingCodec.read(rest)),
            stale.isEmpty() ? null : stale);
      }
      return null;
    } catch (Seal.Refused | IOException | RuntimeException e) {
      level.stats().integrityFailure(RedisStats.Sealed.LANDED);
      return null;
    }
  }

  @Override
  public SharedLevel.Landed landed() {
    return landed;
  }

  private void renew() {
    long every = Math.max(100, leaseMillis / 3);
    byte[][] lease = {RedisKeys.bytes(level.keys().lease(flight))};
    renewal =
        level
            .timers()
            .scheduleAtFixedRate(
                () -> {
                  try {
                    level
                        .link()
                        .one(
                            RedisStats.Op.LEASE,
                            commands ->
                                commands.<Long>eval(
                                    RedisListings.RENEW,
                                    io.lettuce.core.ScriptOutputType.INTEGER,
                                    lease,
                                    leaseValue,
                                    RedisKeys.bytes(Long.toString(leaseMillis))));
                  } catch (RedisLink.Unavailable | RuntimeException e) {
                    // The lease may run out: another replica then fetches too, nothing worse.
                  }
                },
                every,
                every,
                TimeUnit.MILLISECONDS);
  }

  private void stopRenewing() {
    ScheduledFuture<?> running = renewal;
    if (running != null) {
      running.cancel(false);
    }
  }

  @Override
  public StoredListing land(StoredListing listing, CachePolicy keepFor, String staleBecause) {
    stopRenewing();
    RedisStats.NotShared kept = level.keptHere(listing);
    if (kept != null) {
      level.stats().keptHere(kept);
      abandon();
      return null;
    }
    try {
      long flightSeq = token != null ? seq : nextSeq();
      String version = Seal.newVersion();
      long now = listing.storedAtMillis();
      boolean cache = keepFor != null && staleBecause == null;
      String listingName = level.keys().listing(key);
      byte[] value =
          cache ? level.sealListing(listingName, listing, keepFor, version, flightSeq) : null;
      List<byte[]> landing = new ArrayList<>();
      if (token != null) {
        landing.add(
            landing(
                cache ? Landing.CACHED : Landing.INLINE,
                staleBecause,
                version,
                cache ? null : listing,
                now,
                flightSeq));
      }
      if ((value != null && value.length > level.listingLimit())
          || (!landing.isEmpty() && landing.get(0).length > level.listingLimit())) {
        // Larger than any replica reads back (its headers and fields, not its bodies alone).
        level.stats().keptHere(RedisStats.NotShared.TOO_LARGE);
        abandon();
        return null;
      }
      // The replicas waiting wait while the lease lasts: landing late beats their own calls.
      level
          .link()
          .all(
              RedisStats.Op.CACHE_WRITE,
              commands -> {
                List<io.lettuce.core.RedisFuture<?>> sent = new ArrayList<>();
                if (value != null) {
                  sent.add(
                      commands.set(
                          RedisKeys.bytes(listingName),
                          value,
                          SetArgs.Builder.px(keepFor.retention().toMillis())));
                }
                if (token != null) {
                  sent.addAll(release(commands, landing.get(0)));
                }
                return sent;
              },
              landBy());
      if (cache) {
        level.kept(listingName, flightSeq);
      }
      return cache ? listing.as(version, flightSeq, now) : null;
    } catch (RedisLink.Unavailable | RuntimeException e) {
      return null;
    }
  }

  /**
   * How long the landing may wait for Redis: while the lease still holds the other replicas waiting
   * (half its time), not past the leader's own deadline.
   */
  private long landBy() {
    long byLease = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(leaseMillis) / 2;
    return deadlineEnd - byLease < 0 ? deadlineEnd : byLease;
  }

  @Override
  public void abandon() {
    stopRenewing();
    if (token == null) {
      return;
    }
    try {
      byte[] landing = landing(Landing.ABANDONED, null, "", null, System.currentTimeMillis(), seq);
      level.link().all(RedisStats.Op.CACHE_WRITE, commands -> release(commands, landing));
    } catch (RedisLink.Unavailable | RuntimeException e) {
      // The lease runs out on its own.
    }
  }

  /** The landing written, the lease let go, the replicas waiting told: in this order. */
  private List<io.lettuce.core.RedisFuture<?>> release(
      io.lettuce.core.api.async.RedisAsyncCommands<byte[], byte[]> commands, byte[] landing) {
    RedisKeys keys = level.keys();
    return List.of(
        commands.set(
            RedisKeys.bytes(keys.landed(flight, token)),
            landing,
            SetArgs.Builder.px(LANDED_MILLIS)),
        commands.<Long>eval(
            RedisListings.RELEASE,
            io.lettuce.core.ScriptOutputType.INTEGER,
            new byte[][] {RedisKeys.bytes(keys.lease(flight))},
            leaseValue),
        commands.publish(
            RedisKeys.bytes(keys.channel()),
            level.events().message(RedisEvents.Kind.LANDED, flight, token)));
  }

  private long nextSeq() throws RedisLink.Unavailable {
    return level.nextSeq(RedisStats.Op.CACHE_WRITE);
  }

  private byte[] landing(
      Landing kind, String staleBecause, String version, StoredListing inline, long now, long s) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeByte(kind.ordinal());
      ListingCodec.text(out, staleBecause == null ? "" : staleBecause);
      if (kind == Landing.CACHED) {
        ListingCodec.text(out, version);
        ListingCodec.text(out, key);
      } else if (kind == Landing.INLINE) {
        out.write(ListingCodec.write(inline.pages()));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    String name = level.keys().landed(flight, token);
    return level
        .seal()
        .seal(
            name,
            now,
            now + LANDED_MILLIS,
            s,
            version.isEmpty() ? Seal.newVersion() : version,
            bytes.toByteArray());
  }
}
