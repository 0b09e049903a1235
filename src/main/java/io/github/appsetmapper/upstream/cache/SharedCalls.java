package io.github.appsetmapper.upstream.cache;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import io.github.appsetmapper.upstream.HttpUpstream;
import io.github.appsetmapper.upstream.Upstream;
import io.github.appsetmapper.upstream.UpstreamException;
import io.github.appsetmapper.upstream.UpstreamRequest;
import io.github.appsetmapper.upstream.UpstreamResponse;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;
import java.util.function.Predicate;

/**
 * Upstream calls shared across every getparams of this server (one replica): identical calls in
 * flight are made once and their answer handed to every caller (always), and, for requests with a
 * {@link CachePolicy}, successful answers are kept in a bounded cache (Caffeine, weighed in bytes
 * against the {@link MemoryBudget}). An expired entry with an {@code ETag} or {@code Last-Modified}
 * is revalidated with {@code If-None-Match}/{@code If-Modified-Since}; a 304 refreshes it. Within
 * {@code staleIfError}, a failing upstream (no answer, a 5xx or a 429) is answered from the last
 * good answer, and the outcome says so.
 */
public final class SharedCalls {
  /** Where an answer came from. */
  public enum Source {
    /** A call made to the upstream, for a request without a cache policy. */
    NETWORK,
    /** A call made to the upstream because the cache had no fresh answer. */
    MISS,
    /** A fresh answer from the cache: no call. */
    HIT,
    /** An expired answer the upstream confirmed with a 304. */
    REVALIDATED,
    /** The last good answer, standing in for a failing upstream. */
    STALE,
    /** The answer of an identical call in flight for another getparams: no call of its own. */
    COALESCED;

    /** Whether this caller made an upstream call of its own. */
    public boolean called() {
      return this == NETWORK || this == MISS || this == REVALIDATED || this == STALE;
    }
  }

  /** An answer, where it came from and, for a stale one, why the upstream could not answer. */
  public record Outcome(UpstreamResponse response, Source source, String staleBecause) {}

  private final Upstream next;
  private final MemoryBudget budget;
  private final LongSupplier clock;
  private final Cache<String, CachedAnswer> cache;
  private final ConcurrentHashMap<String, CompletableFuture<Outcome>> inFlight =
      new ConcurrentHashMap<>();

  public SharedCalls(Upstream next, MemoryBudget budget) {
    this(next, budget, System::nanoTime);
  }

  SharedCalls(Upstream next, MemoryBudget budget, LongSupplier clock) {
    this.next = next;
    this.budget = budget;
    this.clock = clock;
    this.cache =
        Caffeine.newBuilder()
            .maximumWeight(budget.cacheShare())
            .weigher((String key, CachedAnswer answer) -> answer.weight())
            .expireAfter(
                Expiry.writing(
                    (String key, CachedAnswer answer) ->
                        java.time.Duration.ofNanos(answer.retentionNanos)))
            .executor(Runnable::run)
            .ticker(clock::getAsLong)
            .recordStats()
            .build();
    budget.cacheBytes(this::cachedBytes);
  }

  public MemoryBudget budget() {
    return budget;
  }

  /** Entries in the cache. */
  public long cachedEntries() {
    return cache.estimatedSize();
  }

  /** Bytes the cache holds, as weighed. */
  public long cachedBytes() {
    return cache.policy().eviction().map(e -> e.weightedSize().orElse(0)).orElse(0L);
  }

  /** Entries evicted for size or expired, since start. */
  public long evictions() {
    return cache.stats().evictionCount();
  }

  /**
   * Makes the call, or shares an identical one in flight, or answers from the cache. {@code owners}
   * tag the cache entry (which mappings and inputs used it) for {@link #invalidate}.
   */
  public Outcome exchange(UpstreamRequest request, Set<String> owners) throws UpstreamException {
    String key = CacheKey.of(request);
    CachePolicy policy = request.settings().cache();
    Outcome hit = fresh(key, policy, owners);
    if (hit != null) {
      return hit;
    }
    CompletableFuture<Outcome> mine = new CompletableFuture<>();
    // Calls share in flight only under the same policy: a stale answer allowed by one mapping's
    // staleIfError must not reach a mapping that allows none.
    String flight = key + "|" + policy;
    CompletableFuture<Outcome> existing = inFlight.putIfAbsent(flight, mine);
    if (existing != null) {
      Outcome shared = await(existing, request);
      tag(key, owners);
      return shared.source() == Source.STALE
          ? shared
          : new Outcome(shared.response(), Source.COALESCED, null);
    }
    try {
      // A leader that finished between the look-up and now may have filled the cache.
      Outcome outcome = fresh(key, policy, owners);
      if (outcome == null) {
        outcome = fetch(key, request, policy, owners);
      }
      // Out of the map before it completes: a call arriving from now on is made afresh (or
      // answered by the cache) rather than handed an answer that is already finished.
      inFlight.remove(flight, mine);
      mine.complete(outcome);
      return outcome;
    } catch (UpstreamException | RuntimeException | Error e) {
      inFlight.remove(flight, mine);
      mine.completeExceptionally(e);
      throw e;
    } finally {
      inFlight.remove(flight, mine);
    }
  }

  /**
   * Marks every entry whose owners match as expired: the next call asks the upstream (with its
   * validators, so an unchanged answer costs a 304), and stale use stays possible.
   *
   * @return how many entries were marked
   */
  public int invalidate(Predicate<Set<String>> owners) {
    int count = 0;
    for (CachedAnswer answer : cache.asMap().values()) {
      if (owners.test(answer.owners)) {
        answer.invalidate();
        count++;
      }
    }
    return count;
  }

  private Outcome fresh(String key, CachePolicy policy, Set<String> owners) {
    if (policy == null) {
      return null;
    }
    CachedAnswer cached = cache.getIfPresent(key);
    if (cached == null || !cached.freshFor(policy, clock.getAsLong())) {
      return null;
    }
    cached.owners.addAll(owners);
    return new Outcome(cached.response, Source.HIT, null);
  }

  private void tag(String key, Set<String> owners) {
    CachedAnswer cached = cache.getIfPresent(key);
    if (cached != null) {
      cached.owners.addAll(owners);
    }
  }

  private Outcome fetch(String key, UpstreamRequest request, CachePolicy policy, Set<String> owners)
      throws UpstreamException {
    CachedAnswer old = policy == null ? null : cache.getIfPresent(key);
    UpstreamRequest sent = request;
    if (old != null) {
      String etag = old.response.headers().first("ETag");
      String modified = old.response.headers().first("Last-Modified");
      if (etag != null) {
        sent = sent.withHeader("If-None-Match", etag);
      }
      if (modified != null) {
        sent = sent.withHeader("If-Modified-Since", modified);
      }
    }
    UpstreamResponse response;
    try {
      response = next.exchange(sent);
    } catch (UpstreamException e) {
      Outcome stale = stale(old, policy, e.kind(), e.getMessage());
      if (stale != null) {
        return stale;
      }
      throw e;
    }
    long now = clock.getAsLong();
    if (response.status() == 304 && old != null) {
      old.confirmed(now);
      old.owners.addAll(owners);
      cache.put(key, old); // restarts its retention
      return new Outcome(old.response, Source.REVALIDATED, null);
    }
    if (response.isSuccess()) {
      if (policy == null) {
        return new Outcome(response, Source.NETWORK, null);
      }
      if (storable(response)) {
        CachedAnswer fresh = new CachedAnswer(response, now, policy);
        fresh.owners.addAll(owners);
        cache.put(key, fresh);
      }
      return new Outcome(response, Source.MISS, null);
    }
    if (response.status() >= 500 || response.status() == 429) {
      Outcome stale =
          stale(
              old,
              policy,
              UpstreamException.Kind.FAILED,
              HttpUpstream.describe(request) + ": answered " + response.status());
      if (stale != null) {
        return stale;
      }
    }
    return new Outcome(response, policy == null ? Source.NETWORK : Source.MISS, null);
  }

  private Outcome stale(
      CachedAnswer old, CachePolicy policy, UpstreamException.Kind kind, String why) {
    if (old == null
        || kind == UpstreamException.Kind.LOCAL
        || kind == UpstreamException.Kind.OVERLOAD
        || !old.usableWhenFailing(policy, clock.getAsLong())) {
      return null;
    }
    return new Outcome(old.response, Source.STALE, why);
  }

  /**
   * {@code Cache-Control: no-store} is honoured; anything else a mapping asked to cache is kept.
   */
  private static boolean storable(UpstreamResponse response) {
    for (String value : response.headers().all("Cache-Control")) {
      if (value.toLowerCase(java.util.Locale.ROOT).contains("no-store")) {
        return false;
      }
    }
    return true;
  }

  private static Outcome await(CompletableFuture<Outcome> leader, UpstreamRequest request)
      throws UpstreamException {
    var deadline = request.settings().deadline();
    try {
      return deadline.isSet()
          ? leader.get(deadline.remaining().toNanos(), TimeUnit.NANOSECONDS)
          : leader.get();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof UpstreamException failure) {
        throw failure;
      }
      if (e.getCause() instanceof RuntimeException failure) {
        throw failure;
      }
      throw new UpstreamException(HttpUpstream.describe(request) + ": " + e.getCause());
    } catch (TimeoutException e) {
      throw new UpstreamException(
          HttpUpstream.describe(request) + ": the deadline ran out waiting for an identical call",
          UpstreamException.Kind.DEADLINE);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new UpstreamException(HttpUpstream.describe(request) + ": interrupted");
    }
  }
}
