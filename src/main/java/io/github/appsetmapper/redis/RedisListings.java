package io.github.appsetmapper.redis;

import io.github.appsetmapper.secret.Redactor;
import io.github.appsetmapper.upstream.cache.SharedLevel;
import io.github.appsetmapper.upstream.cache.StoredListing;
import io.github.appsetmapper.upstream.call.CachePolicy;
import io.github.appsetmapper.upstream.call.UpstreamRequest;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SetArgs;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Consumer;

/**
 * The listing cache and coalescing shared by every replica, on Redis. A listing is one sealed value
 * holding every page ({@link ListingCodec}), never page by page, kept for its retention ({@code
 * PX}); this replica's copy is confirmed by reading the value's header alone (its version). Owner
 * tags are invalidated by a sealed record of the flight {@code seq} at that moment: a listing
 * fetched by a flight with a lower seq is expired for callers with that tag. Fetches are made once
 * across replicas by {@link RedisFlight}.
 *
 * <p>A seal proves who wrote a value, not that it is the latest: a writer of this Redis could put
 * back an older sealed listing, or delete an invalidation record. So this replica keeps high-water
 * marks: the highest seq it has seen per listing key (an older listing under it is refused and
 * counted, {@code rollback}) and per invalidated tag (a deleted or older record cannot undo an
 * invalidation it knows of). A replica that just started has no marks: see docs/security.md.
 */
final class RedisListings implements SharedLevel {
  /** How long an invalidation is remembered: longer than any listing is kept. */
  static final long INVALIDATION_MILLIS = 30L * 24 * 3600 * 1000;

  private final RedisLink link;
  private final Seal seal;
  private final RedisKeys keys;
  private final RedisStats stats;
  private final RedisEvents events;
  private final Redactor redactor;
  private final RedisSettings settings;
  private final ScheduledExecutorService timers;

  /** The highest seq seen per listing key, and per invalidated tag: never lowered. */
  private final com.github.benmanes.caffeine.cache.Cache<String, Long> listingMarks = marks();

  private final com.github.benmanes.caffeine.cache.Cache<String, Long> invalidationMarks = marks();

  private final java.util.concurrent.atomic.AtomicLong highestSeq =
      new java.util.concurrent.atomic.AtomicLong();
  private final Said said = new Said(java.time.Duration.ofMinutes(5));
  private static final org.slf4j.Logger LOG =
      org.slf4j.LoggerFactory.getLogger("appset_mapper.redis");

  private static com.github.benmanes.caffeine.cache.Cache<String, Long> marks() {
    return com.github.benmanes.caffeine.cache.Caffeine.newBuilder()
        .maximumSize(100_000)
        .expireAfterAccess(java.time.Duration.ofMillis(INVALIDATION_MILLIS))
        .build();
  }

  RedisListings(
      RedisLink link,
      Seal seal,
      RedisKeys keys,
      RedisStats stats,
      RedisEvents events,
      Redactor redactor,
      RedisSettings settings,
      ScheduledExecutorService timers) {
    this.link = link;
    this.seal = seal;
    this.keys = keys;
    this.stats = stats;
    this.events = events;
    this.redactor = redactor;
    this.settings = settings;
    this.timers = timers;
  }

  @Override
  public Lookup lookup(String key, Set<String> owners, String localVersion, long localSeq) {
    String name = keys.listing(key);
    List<String> tags = new ArrayList<>(new TreeSet<>(owners));
    List<Object> answers;
    try {
      answers =
          link.all(
              RedisStats.Op.CACHE_READ,
              commands -> {
                List<RedisFuture<?>> sent = new ArrayList<>();
                sent.add(commands.getrange(RedisKeys.bytes(name), 0, Seal.HEADER_MAX - 1));
                for (String tag : tags) {
                  sent.add(Bounded.get(commands, keys.invalidation(tag), Bounded.SMALL));
                }
                return sent;
              });
    } catch (RedisLink.Unavailable e) {
      return Lookup.UNAVAILABLE;
    }
    byte[] head = (byte[]) answers.get(0);
    if (head == null || head.length == 0) {
      return Lookup.ABSENT;
    }
    long invalidatedAt = 0;
    for (int i = 0; i < tags.size(); i++) {
      invalidatedAt =
          Math.max(invalidatedAt, invalidation(tags.get(i), Bounded.of(answers.get(i + 1))));
    }
    Seal.Header header;
    try {
      header = Seal.header(head);
    } catch (Seal.Refused e) {
      stats.integrityFailure(RedisStats.Sealed.LISTING);
      return Lookup.ABSENT;
    }
    if (rolledBack(name, header.seq())) {
      return Lookup.ABSENT;
    }
    if (localVersion != null && localVersion.equals(header.version())) {
      // The copy held here was verified whole when it was read; its own seq counts.
      return new Lookup(State.SAME, null, localSeq < invalidatedAt);
    }
    StoredListing listing = read(name);
    if (listing == null) {
      return Lookup.ABSENT;
    }
    return new Lookup(State.OTHER, listing, listing.seq() < invalidatedAt);
  }

  /**
   * The seq of the last invalidation of {@code tag}: the highest of the record and what this
   * replica knows (0: none).
   */
  private long invalidation(String tag, Bounded read) {
    long found = 0;
    byte[] value = read.value();
    if (read.refused()) {
      stats.integrityFailure(RedisStats.Sealed.INVALIDATION);
      oversized(keys.invalidation(tag), read, "an invalidation record", Bounded.SMALL);
    } else if (value != null) {
      try {
        found = seal.open(keys.invalidation(tag), value, System.currentTimeMillis()).header().seq();
      } catch (Seal.Refused e) {
        stats.integrityFailure(RedisStats.Sealed.INVALIDATION);
      }
    }
    return invalidated(tag, found);
  }

  /** Records that {@code tag} was invalidated at {@code seq}; the highest known. */
  private long invalidated(String tag, long seq) {
    if (seq <= 0) {
      Long known = invalidationMarks.getIfPresent(tag);
      return known == null ? 0 : known;
    }
    highestSeq.accumulateAndGet(seq, Math::max);
    return invalidationMarks.asMap().merge(tag, seq, Math::max);
  }

  /**
   * Whether a listing of {@code seq} under {@code name} is older than one this replica saw there: a
   * rollback, refused and counted. Otherwise {@code seq} becomes the mark.
   */
  private boolean rolledBack(String name, long seq) {
    Long known = listingMarks.getIfPresent(name);
    if (known != null && seq < known) {
      stats.integrityFailure(RedisStats.Sealed.ROLLBACK);
      return true;
    }
    listingMarks.asMap().merge(name, seq, Math::max);
    highestSeq.accumulateAndGet(seq, Math::max);
    return false;
  }

  /** The next flight seq from Redis's counter, checked ({@link #NEXT_SEQ}). */
  long nextSeq(RedisStats.Op op) throws RedisLink.Unavailable {
    List<Object> answer =
        link.one(
            op,
            commands ->
                commands.<List<Object>>eval(
                    NEXT,
                    multi(),
                    new byte[][] {RedisKeys.bytes(keys.seq())},
                    RedisKeys.bytes(Long.toString(highestSeq.get()))));
    return seqAnswered((Long) answer.get(0), (Long) answer.get(1));
  }

  /** A seq Redis gave, {@code repaired} 1 when the counter had to be set again. */
  long seqAnswered(long seq, long repaired) {
    if (repaired != 0) {
      stats.integrityFailure(RedisStats.Sealed.SEQ);
      if (said.first("seq")) {
        LOG.warn(
            "redis: the sequence counter {} was not a number this replica can trust (not a"
                + " number, lowered, or near overflow): set again from the highest seq known"
                + " here; something other than appset-mapper writes this Redis"
                + " (appset_mapper_redis_integrity_failures_total{kind=\"seq\"})",
            keys.seq());
      }
    }
    highestSeq.accumulateAndGet(seq, Math::max);
    return seq;
  }

  /** The highest seq this replica knows, the floor of the counter. */
  long highestSeq() {
    return highestSeq.get();
  }

  /**
   * A value in Redis that was not read (too large for what it should be, or not a string): said
   * once per 5 minutes per kind, by its size, never its content; counted by the caller.
   */
  void oversized(String name, Bounded read, String what, long limit) {
    if (said.first("oversized " + what)) {
      LOG.warn(
          "redis: {} {} refused: {}; not read, this replica does without it; something other than appset-mapper writes this Redis"
              + " (appset_mapper_redis_integrity_failures_total)",
          what,
          RedisKeys.digest(name).substring(0, 12),
          read.why(what, limit));
    }
  }

  /** The largest listing, or landing, read or written. */
  long listingLimit() {
    return Bounded.listing(settings);
  }

  /** Said once per 5 minutes per subject. */
  boolean sayOnce(String subject) {
    return said.first(subject);
  }

  /** This replica kept {@code seq} under {@code name}: nothing older is taken from now on. */
  void kept(String name, long seq) {
    listingMarks.asMap().merge(name, seq, Math::max);
    highestSeq.accumulateAndGet(seq, Math::max);
  }

  /** The listing kept under {@code name}, read whole and verified; null when none or refused. */
  StoredListing read(String name) {
    Bounded read;
    long limit = Bounded.listing(settings);
    try {
      read =
          Bounded.of(
              link.one(RedisStats.Op.CACHE_READ, commands -> Bounded.get(commands, name, limit)));
    } catch (RedisLink.Unavailable e) {
      return null;
    }
    if (read.refused()) {
      stats.integrityFailure(RedisStats.Sealed.LISTING);
      oversized(name, read, "a listing", limit);
      return null;
    }
    byte[] value = read.value();
    if (value == null) {
      return null;
    }
    try {
      Seal.Opened opened = seal.open(name, value, System.currentTimeMillis());
      Seal.Header header = opened.header();
      if (rolledBack(name, header.seq())) {
        return null;
      }
      return new StoredListing(
          header.version(), header.seq(), header.storedAt(), ListingCodec.read(opened.plain()));
    } catch (Seal.Refused | IOException | RuntimeException e) {
      stats.integrityFailure(RedisStats.Sealed.LISTING);
      return null;
    }
  }

  @Override
  public Flight fly(String key, String flight, UpstreamRequest first) {
    if (!link.up()) {
      stats.skip();
      return Flight.ALONE;
    }
    return RedisFlight.join(this, key, RedisKeys.digest(flight), first);
  }

  @Override
  public boolean invalidate(String tag) {
    try {
      long seq = nextSeq(RedisStats.Op.INVALIDATE);
      long now = System.currentTimeMillis();
      String name = keys.invalidation(tag);
      byte[] value =
          seal.seal(name, now, now + INVALIDATION_MILLIS, seq, Seal.newVersion(), new byte[0]);
      invalidated(tag, seq);
      byte[] message = events.message(RedisEvents.Kind.INVALIDATED, tag, Long.toString(seq));
      link.all(
          RedisStats.Op.INVALIDATE,
          commands ->
              List.of(
                  commands.set(
                      RedisKeys.bytes(name), value, SetArgs.Builder.px(INVALIDATION_MILLIS)),
                  commands.publish(RedisKeys.bytes(keys.channel()), message)));
      return true;
    } catch (RedisLink.Unavailable e) {
      return false;
    }
  }

  @Override
  public void onInvalidate(Consumer<String> listener) {
    events.listen(
        event -> {
          if (event.kind() == RedisEvents.Kind.INVALIDATED && event.fields().size() == 2) {
            try {
              invalidated(event.fields().get(0), Long.parseLong(event.fields().get(1)));
            } catch (NumberFormatException e) {
              stats.integrityFailure(RedisStats.Sealed.MESSAGE);
              return;
            }
            listener.accept(event.fields().get(0));
          }
        });
  }

  /**
   * Why {@code listing} must stay in this replica, or null when it may be shared: too large, marked
   * {@code no-store}, or it holds a secret this server knows (an upstream echoing a token, a URL
   * carrying one).
   */
  RedisStats.NotShared keptHere(StoredListing listing) {
    if (listing.bodyBytes() > settings.maxEntryBytes()) {
      return RedisStats.NotShared.TOO_LARGE;
    }
    for (StoredListing.Page page : listing.pages()) {
      var response = page.response();
      for (String control : response.headers().all("Cache-Control")) {
        if (control.toLowerCase(java.util.Locale.ROOT).contains("no-store")) {
          return RedisStats.NotShared.NO_STORE;
        }
      }
    }
    for (StoredListing.Page page : listing.pages()) {
      var response = page.response();
      if (holdsSecret(response.uri() == null ? "" : response.uri().toString())
          || holdsSecret(new String(response.body(), StandardCharsets.UTF_8))) {
        return RedisStats.NotShared.SECRET;
      }
      for (var field : ListingCodec.shared(response.headers())) {
        if (holdsSecret(field.value())) {
          return RedisStats.NotShared.SECRET;
        }
      }
    }
    return null;
  }

  private boolean holdsSecret(String text) {
    return !redactor.redact(text).equals(text);
  }

  /** Seals and keeps {@code listing} for {@code policy}'s retention; null when it could not. */
  byte[] sealListing(
      String name, StoredListing listing, CachePolicy policy, String version, long seq) {
    long now = listing.storedAtMillis();
    return seal.seal(
        name,
        now,
        now + policy.retention().toMillis(),
        seq,
        version,
        ListingCodec.write(listing.pages()));
  }

  // What RedisFlight needs.
  RedisLink link() {
    return link;
  }

  Seal seal() {
    return seal;
  }

  RedisKeys keys() {
    return keys;
  }

  RedisStats stats() {
    return stats;
  }

  RedisEvents events() {
    return events;
  }

  ScheduledExecutorService timers() {
    return timers;
  }

  /**
   * Lua: the next flight seq. The counter is not sealed (INCR needs a number), so it is checked:
   * never below the highest seq the replica knows ({@code floor}), and set again from it when it is
   * not a number, below it (lowered by a writer of this Redis: invalidations would no longer expire
   * newer listings) or beyond 2^53 (INCR would overflow, forever). Returns {seq, repaired}.
   */
  static final String NEXT_SEQ =
      "local function nextseq(k, floor)"
          + " local raw = redis.call('GET', k) local v = tonumber(raw) local bad = 0"
          + " if raw and (v == nil or v < floor or v >= 9007199254740000) then bad = 1 end"
          + " if v == nil or v < floor or v >= 9007199254740000 then v = floor end"
          + " v = v + 1 redis.call('SET', k, string.format('%d', v)) return {v, bad} end ";

  static final String NEXT =
      NEXT_SEQ + "local s = nextseq(KEYS[1], tonumber(ARGV[1])) return {s[1], s[2]}";

  static final String ACQUIRE =
      NEXT_SEQ
          + "if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then"
          + " local s = nextseq(KEYS[2], tonumber(ARGV[3])) return {1, s[1], s[2]} end"
          // A holder larger than a lease is never sent: said by its size ({0, '', size}).
          + " local size = redis.call('STRLEN', KEYS[1])"
          + " if size > tonumber(ARGV[4]) then return {0, '', size} end"
          + " local holder = redis.call('GET', KEYS[1])"
          + " if holder then return {0, holder} end"
          + " return {0}";
  static final String RENEW =
      "if redis.call('GET', KEYS[1]) == ARGV[1] then"
          + " return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0";
  static final String RELEASE =
      "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end"
          + " return 0";

  static ScriptOutputType multi() {
    return ScriptOutputType.MULTI;
  }
}
