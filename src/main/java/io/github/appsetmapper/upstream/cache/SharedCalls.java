package io.github.appsetmapper.upstream.cache;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import com.github.benmanes.caffeine.cache.Ticker;
import io.github.appsetmapper.upstream.call.CachePolicy;
import io.github.appsetmapper.upstream.call.RequestFailure;
import io.github.appsetmapper.upstream.call.Upstream;
import io.github.appsetmapper.upstream.call.UpstreamRequest;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;

/**
 * Upstream calls shared across every getparams of this server (one replica). The unit is a
 * <em>listing</em>: every page of a paginated request, fetched in one pass (an unpaginated request
 * is a listing of one page). A listing is one moment of the upstream, so pages are never shared one
 * by one: identical listings in flight are fetched once and every caller walks the leader's pages
 * (always), and, for requests with a {@link CachePolicy}, a listing whose pages all answered is
 * kept whole in a bounded cache (Caffeine, weighed in bytes against the {@link MemoryBudget}). When
 * a listing is no longer fresh, each page is asked for with the validators it had ({@code
 * If-None-Match}/{@code If-Modified-Since}); a 304 confirms that page as it is now. Within {@code
 * staleIfError}, a failing upstream (no answer, a 5xx or a 429) is answered from the last good
 * listing, every page of it, and the outcome says so. Callers walk a listing with a {@link
 * ListingPass}.
 */
public final class SharedCalls {
  /** Where an answer came from. */
  public enum Source {
    /** A call made to the upstream, for a request without a cache policy. */
    NETWORK,
    /** A call made to the upstream because the cache had no fresh listing. */
    MISS,
    /** A page of a fresh cached listing: no call. */
    HIT,
    /** A kept page the upstream confirmed with a 304. */
    REVALIDATED,
    /** A page of the last good listing, standing in for a failing upstream. */
    STALE,
    /** A page of an identical listing in flight for another getparams: no call of its own. */
    COALESCED,
    /** A page of a fresh listing read from the level every replica shares: no call. */
    SHARED_HIT,
    /** A page of an identical listing another replica fetched while this one waited: no call. */
    SHARED_COALESCED;

    /** Whether this caller made an upstream call of its own. */
    public boolean called() {
      return this == NETWORK || this == MISS || this == REVALIDATED || this == STALE;
    }
  }

  /** An answer, where it came from and, for a stale one, why the upstream could not answer. */
  public record Outcome(
      io.github.appsetmapper.upstream.call.UpstreamResponse response,
      Source source,
      String staleBecause) {}

  private final Upstream next;
  private final MemoryBudget budget;
  private final Ticker clock;
  private final Cache<String, CachedListing> cache;
  private final ConcurrentHashMap<String, CompletableFuture<ListingPass.Led>> inFlight =
      new ConcurrentHashMap<>();
  private final SharedLevel level;

  public SharedCalls(Upstream next, MemoryBudget budget) {
    this(next, budget, Ticker.systemTicker(), SharedLevel.NONE);
  }

  /** With the level every replica shares ({@link SharedLevel#NONE}: this replica alone). */
  public SharedCalls(Upstream next, MemoryBudget budget, SharedLevel level) {
    this(next, budget, Ticker.systemTicker(), level);
  }

  public SharedCalls(Upstream next, MemoryBudget budget, Ticker clock) {
    this(next, budget, clock, SharedLevel.NONE);
  }

  /**
   * @param clock what tells the cache the time, in nanoseconds of a monotonic clock: freshness,
   *     staleIfError and eviction all read it (tests move it by hand)
   */
  public SharedCalls(Upstream next, MemoryBudget budget, Ticker clock, SharedLevel level) {
    this.level = level;
    // Another replica's invalidation, to act before the next look-up would see it.
    level.onInvalidate(tag -> invalidate(owners -> owners.contains(tag)));
    this.next = next;
    this.budget = budget;
    this.clock = clock;
    this.cache =
        Caffeine.newBuilder()
            .maximumWeight(budget.cacheShare())
            .weigher((String key, CachedListing listing) -> listing.weight())
            .expireAfter(
                Expiry.writing(
                    (String key, CachedListing listing) ->
                        java.time.Duration.ofNanos(listing.retentionNanos)))
            .executor(Runnable::run)
            .ticker(clock)
            .recordStats()
            .build();
    budget.cacheBytes(this::cachedBytes);
  }

  public MemoryBudget budget() {
    return budget;
  }

  /** Listings in the cache. */
  public long cachedEntries() {
    return cache.estimatedSize();
  }

  /** Bytes the cache holds, as weighed. */
  public long cachedBytes() {
    return cache.policy().eviction().map(e -> e.weightedSize().orElse(0)).orElse(0L);
  }

  /** Listings evicted for size or expired, since start. */
  public long evictions() {
    return cache.stats().evictionCount();
  }

  /**
   * Starts a walk over the listing whose first page {@code first} asks for: from a fresh cached
   * listing, from an identical listing in flight (waiting for it, at most until the request's
   * deadline), or from the upstream. {@code owners} tag the cache entry (which mappings and inputs
   * used it) for {@link #invalidate}.
   */
  public ListingPass open(UpstreamRequest first, Set<String> owners) throws RequestFailure {
    String key = CacheKey.of(first);
    CachePolicy policy = first.settings().cache();
    ListingPass kept = kept(key, policy, owners);
    if (kept != null) {
      return kept;
    }
    // Listings share in flight only under the same policy: a stale listing allowed by one
    // mapping's staleIfError must not reach a mapping that allows none.
    String flight = key + "|" + policy;
    CompletableFuture<ListingPass.Led> mine = new CompletableFuture<>();
    CompletableFuture<ListingPass.Led> existing = inFlight.putIfAbsent(flight, mine);
    if (existing != null) {
      ListingPass.Led led = await(existing, first);
      tag(key, owners);
      return ListingPass.replaying(
          this,
          key,
          policy,
          owners,
          led.snapshot(),
          led.staleBecause() == null ? Source.COALESCED : Source.STALE,
          led.staleBecause());
    }
    // A leader that finished between the look-up and now may have filled the cache.
    CachedListing hit = fresh(key, policy, owners);
    if (hit != null) {
      inFlight.remove(flight, mine);
      mine.complete(new ListingPass.Led(hit.snapshot, null));
      return ListingPass.replaying(this, key, policy, owners, hit.snapshot, Source.HIT, null);
    }
    // This replica's leader: across replicas, one fetches and the others take its listing.
    SharedLevel.Flight across;
    try {
      across = level.fly(key, flight, first);
    } catch (RuntimeException e) {
      // The shared level never fails a getparams: this replica fetches on its own.
      across = SharedLevel.Flight.ALONE;
    }
    SharedLevel.Landed landed = across.landed();
    if (landed != null) {
      Snapshot snapshot = Snapshot.of(landed.listing());
      inFlight.remove(flight, mine);
      mine.complete(new ListingPass.Led(snapshot, landed.staleBecause()));
      tag(key, owners);
      return ListingPass.replaying(
          this,
          key,
          policy,
          owners,
          snapshot,
          landed.staleBecause() == null ? Source.SHARED_COALESCED : Source.STALE,
          landed.staleBecause());
    }
    if (across != SharedLevel.Flight.ALONE) {
      // Another replica may have landed this listing between the look-up and the lease.
      ListingPass landedMeanwhile = kept(key, policy, owners);
      if (landedMeanwhile != null) {
        across.abandon();
        inFlight.remove(flight, mine);
        mine.complete(new ListingPass.Led(landedMeanwhile.replayed(), null));
        return landedMeanwhile;
      }
    }
    return ListingPass.fetching(this, key, policy, owners, flight, mine, across);
  }

  /**
   * A walk over a kept listing that is fresh for these owners, or null. With a shared level, this
   * replica's copy answers only when it is the shared one (so that two replicas never answer from
   * two moments of the upstream), and a newer shared listing replaces it; while the shared level
   * cannot answer, this replica's memory decides alone.
   */
  private ListingPass kept(String key, CachePolicy policy, Set<String> owners) {
    if (policy == null) {
      return null;
    }
    CachedListing local = cache.getIfPresent(key);
    SharedLevel.Lookup seen;
    try {
      seen =
          level.lookup(
              key, owners, local == null ? null : local.version, local == null ? 0 : local.seq);
    } catch (RuntimeException e) {
      seen = SharedLevel.Lookup.UNAVAILABLE;
    }
    CachedListing hit;
    Source source = Source.HIT;
    switch (seen.state()) {
      case SAME -> {
        if (seen.invalidated()) {
          local.invalidate();
        }
        hit = fresh(key, policy, owners);
      }
      case OTHER -> {
        CachedListing adopted = adopt(key, seen.listing(), policy, owners, local);
        if (seen.invalidated()) {
          adopted.invalidate();
        }
        hit = adopted.freshFor(policy, clock.read()) ? adopted : null;
        source = Source.SHARED_HIT;
      }
      case ABSENT -> {
        if (local != null && local.version != null) {
          // It was shared and is gone (evicted, flushed): kept for validators and stale use.
          local.invalidate();
          hit = null;
        } else {
          // Never shared (too large to share, or fetched while the shared level was down):
          // this replica's own, under its own ttl, until a shared listing replaces it.
          hit = fresh(key, policy, owners);
        }
      }
      default -> hit = fresh(key, policy, owners);
    }
    return hit == null
        ? null
        : ListingPass.replaying(this, key, policy, owners, hit.snapshot, source, null);
  }

  /** Keeps a listing read from the shared level as this replica's copy, aged as stored. */
  private CachedListing adopt(
      String key,
      StoredListing listing,
      CachePolicy policy,
      Set<String> owners,
      CachedListing local) {
    long ageNanos = Math.max(0, System.currentTimeMillis() - listing.storedAtMillis()) * 1_000_000L;
    CachedListing adopted =
        new CachedListing(
            Snapshot.of(listing),
            clock.read() - ageNanos,
            policy,
            listing.version(),
            listing.seq());
    adopted.owners.addAll(owners);
    if (local != null) {
      adopted.owners.addAll(local.owners);
    }
    cache.put(key, adopted);
    return adopted;
  }

  /** One unpaginated call: a listing of one page. */
  public Outcome exchange(UpstreamRequest request, Set<String> owners) throws RequestFailure {
    ListingPass pass = open(request, owners);
    try {
      for (int attempt = 0; ; attempt++) {
        try {
          Outcome outcome = pass.page(request);
          pass.finish(true);
          return outcome;
        } catch (ListingPass.Restart restart) {
          if (attempt > 2) {
            throw new IllegalStateException(
                "a listing of one page restarted " + attempt + " times");
          }
        }
      }
    } finally {
      pass.abandon();
    }
  }

  /**
   * Marks every listing whose owners match as expired: the next call asks the upstream (with its
   * validators, so an unchanged page costs a 304), and stale use stays possible.
   *
   * @return how many listings were marked
   */
  public int invalidate(Predicate<Set<String>> owners) {
    return invalidateHere(owners);
  }

  /**
   * Marks the listings tagged {@code tag} as expired, here and, through the shared level, on every
   * replica.
   *
   * @return how many of this replica's listings were marked, and whether every replica will see it
   */
  public Invalidated invalidate(String tag) {
    int count = invalidateHere(owners -> owners.contains(tag));
    boolean everywhere;
    try {
      everywhere = level.invalidate(tag);
    } catch (RuntimeException e) {
      everywhere = false;
    }
    return new Invalidated(count, everywhere);
  }

  /** What an invalidation did: listings marked here, and whether every replica sees it. */
  public record Invalidated(int count, boolean everyReplica) {}

  private int invalidateHere(Predicate<Set<String>> owners) {
    int count = 0;
    for (CachedListing listing : cache.asMap().values()) {
      if (owners.test(listing.owners)) {
        listing.invalidate();
        count++;
      }
    }
    return count;
  }

  Upstream next() {
    return next;
  }

  long now() {
    return clock.read();
  }

  /** The kept listing for {@code key} (fresh or not), or null: for validators and stale use. */
  CachedListing cached(String key, CachePolicy policy) {
    return policy == null ? null : cache.getIfPresent(key);
  }

  void store(
      String key,
      Snapshot snapshot,
      CachePolicy policy,
      Set<String> owners,
      CachedListing old,
      StoredListing shared) {
    CachedListing listing =
        shared == null
            ? new CachedListing(snapshot, clock.read(), policy)
            : new CachedListing(snapshot, clock.read(), policy, shared.version(), shared.seq());
    listing.owners.addAll(owners);
    if (old != null) {
      listing.owners.addAll(old.owners);
    }
    cache.put(key, listing);
  }

  /** A leading pass is done: a listing asked for from now on is fetched afresh (or cached). */
  void landed(String flight, CompletableFuture<ListingPass.Led> leading) {
    inFlight.remove(flight, leading);
  }

  private CachedListing fresh(String key, CachePolicy policy, Set<String> owners) {
    if (policy == null) {
      return null;
    }
    CachedListing cached = cache.getIfPresent(key);
    if (cached == null || !cached.freshFor(policy, clock.read())) {
      return null;
    }
    cached.owners.addAll(owners);
    return cached;
  }

  private void tag(String key, Set<String> owners) {
    CachedListing cached = cache.getIfPresent(key);
    if (cached != null) {
      cached.owners.addAll(owners);
    }
  }

  private static ListingPass.Led await(
      CompletableFuture<ListingPass.Led> leader, UpstreamRequest request) throws RequestFailure {
    var deadline = request.settings().deadline();
    try {
      return deadline.isSet()
          ? leader.get(deadline.remaining().toNanos(), TimeUnit.NANOSECONDS)
          : leader.get();
    } catch (ExecutionException e) {
      throw RequestFailure.unwrap(e);
    } catch (TimeoutException e) {
      throw RequestFailure.of(
          request,
          "the deadline ran out waiting for an identical call",
          RequestFailure.Kind.DEADLINE);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw RequestFailure.of(request, "interrupted");
    }
  }
}
