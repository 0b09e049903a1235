package io.github.appsetmapper.upstream.cache;

import io.github.appsetmapper.upstream.call.CachePolicy;
import io.github.appsetmapper.upstream.call.RequestFailure;
import io.github.appsetmapper.upstream.call.UpstreamRequest;
import io.github.appsetmapper.upstream.call.UpstreamResponse;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * One walk over the pages of a listing, as {@link SharedCalls} serves it: every page from one
 * snapshot. The pages come from a fresh cached listing ({@link SharedCalls.Source#HIT}), from an
 * identical listing another getparams has in flight ({@link SharedCalls.Source#COALESCED}), or from
 * the upstream; never mixed. When the caller asks for a page its snapshot does not hold (its
 * pagination went further), or the upstream fails while the last good listing may stand in, the
 * pass changes source and says so with {@link Restart}: the caller walks again from the first page.
 * {@link #finish} or {@link #abandon} ends every pass.
 */
public final class ListingPass {
  /** Walk the listing again from its first page: the pass now answers from another source. */
  public static final class Restart extends Exception {
    private static final long serialVersionUID = 1L;

    public Restart() {
      super(null, null, false, false);
    }
  }

  /** What a leading pass hands the passes that waited for it. */
  record Led(Snapshot snapshot, String staleBecause) {}

  private enum Mode {
    REPLAY,
    FETCH,
    STALE
  }

  private final SharedCalls shared;
  private final String key;
  private final CachePolicy policy;
  private final Set<String> owners;
  private final String flight;
  private final CompletableFuture<Led> leading;
  private final SharedLevel.Flight across;
  private Mode mode;
  private Snapshot replay;
  private SharedCalls.Source replaySource;
  private String staleBecause;
  private RequestFailure staleFailure;
  private CachedListing old;
  private Snapshot.Builder fetched = new Snapshot.Builder();
  private boolean done;

  private ListingPass(
      SharedCalls shared,
      String key,
      CachePolicy policy,
      Set<String> owners,
      String flight,
      CompletableFuture<Led> leading,
      SharedLevel.Flight across) {
    this.shared = shared;
    this.key = key;
    this.policy = policy;
    this.owners = owners;
    this.flight = flight;
    this.leading = leading;
    this.across = across;
  }

  static ListingPass replaying(
      SharedCalls shared,
      String key,
      CachePolicy policy,
      Set<String> owners,
      Snapshot snapshot,
      SharedCalls.Source source,
      String staleBecause) {
    ListingPass pass =
        new ListingPass(shared, key, policy, owners, null, null, SharedLevel.Flight.ALONE);
    pass.mode = Mode.REPLAY;
    pass.replay = snapshot;
    pass.replaySource = source;
    pass.staleBecause = staleBecause;
    return pass;
  }

  static ListingPass fetching(
      SharedCalls shared,
      String key,
      CachePolicy policy,
      Set<String> owners,
      String flight,
      CompletableFuture<Led> leading,
      SharedLevel.Flight across) {
    ListingPass pass = new ListingPass(shared, key, policy, owners, flight, leading, across);
    pass.mode = Mode.FETCH;
    pass.old = shared.cached(key, policy);
    return pass;
  }

  /** The snapshot a replaying pass answers from. */
  Snapshot replayed() {
    return replay;
  }

  /**
   * The answer to one page's request, from this pass' source.
   *
   * @throws Restart when the source changed: walk again from the first page
   */
  public synchronized SharedCalls.Outcome page(UpstreamRequest request)
      throws RequestFailure, Restart {
    String page = CacheKey.of(request);
    if (mode != Mode.FETCH) {
      Object found = replay.find(page);
      if (found instanceof UpstreamResponse response) {
        return new SharedCalls.Outcome(response, replaySource, staleBecause);
      }
      if (found instanceof RequestFailure failure) {
        throw failure;
      }
      if (mode == Mode.STALE) {
        // The last good listing went no further: the failure that made it stand in stands.
        throw staleFailure;
      }
      mode = Mode.FETCH;
      old = shared.cached(key, policy);
      fetched = new Snapshot.Builder();
      throw new Restart();
    }
    return fetch(request, page);
  }

  private SharedCalls.Outcome fetch(UpstreamRequest request, String page)
      throws RequestFailure, Restart {
    UpstreamResponse previous = old == null ? null : old.snapshot.response(page);
    UpstreamRequest sent = request;
    if (previous != null) {
      String etag = previous.headers().first("ETag");
      String modified = previous.headers().first("Last-Modified");
      if (etag != null) {
        sent = sent.withHeader("If-None-Match", etag);
      }
      if (modified != null) {
        sent = sent.withHeader("If-Modified-Since", modified);
      }
    }
    UpstreamResponse response;
    try {
      response = shared.next().exchange(sent);
    } catch (RequestFailure e) {
      if (canStandIn(e.kind())) {
        standIn(e.getMessage(), e);
        throw new Restart();
      }
      fetched.fail(page, e);
      throw e;
    }
    if (response.status() == 304 && previous != null) {
      // Unchanged now: the page as kept is as good as one fetched now.
      fetched.add(page, previous);
      return new SharedCalls.Outcome(previous, SharedCalls.Source.REVALIDATED, null);
    }
    if ((response.status() >= 500 || response.status() == 429)
        && canStandIn(RequestFailure.Kind.FAILED)) {
      RequestFailure failure =
          RequestFailure.of(
              request, response.answered(request) + response.status() + response.bodyNote());
      standIn(failure.getMessage(), failure);
      throw new Restart();
    }
    fetched.add(page, response);
    return new SharedCalls.Outcome(
        response, policy == null ? SharedCalls.Source.NETWORK : SharedCalls.Source.MISS, null);
  }

  private boolean canStandIn(RequestFailure.Kind kind) {
    return old != null
        && kind != RequestFailure.Kind.LOCAL
        && kind != RequestFailure.Kind.OVERLOAD
        && old.usableWhenFailing(policy, shared.now());
  }

  /** The last good listing answers from now on, every page of it. */
  private void standIn(String why, RequestFailure failure) {
    mode = Mode.STALE;
    replay = old.snapshot;
    replaySource = SharedCalls.Source.STALE;
    staleBecause = why;
    staleFailure = failure;
  }

  /**
   * The walk is over. With {@code complete}, it ended normally: a listing fetched in this pass is
   * kept when its request has a cache policy. Passes waiting for this one get its pages.
   */
  public synchronized void finish(boolean complete) {
    if (done) {
      return;
    }
    done = true;
    Snapshot result = mode == Mode.FETCH ? fetched.build() : replay;
    boolean keep = mode == Mode.FETCH && complete && policy != null && result.storable();
    StoredListing landed = land(result, keep);
    if (keep) {
      shared.store(key, result, policy, owners, old, landed);
    }
    lead(result);
  }

  /**
   * The walk stopped early (a failure of its own): passes waiting for this one get the pages it
   * fetched, and fetch the rest themselves when they need more.
   */
  public synchronized void abandon() {
    if (done) {
      return;
    }
    done = true;
    try {
      across.abandon();
    } catch (RuntimeException e) {
      // The replicas waiting stop waiting when the lease runs out.
    }
    lead(mode == Mode.FETCH ? fetched.build() : replay);
  }

  /** Hands the listing to the other replicas (and keeps it shared when {@code keep}). */
  private StoredListing land(Snapshot result, boolean keep) {
    // Only listings whose every page answered go to other replicas; failures stay here.
    StoredListing listing = result.stored(System.currentTimeMillis());
    try {
      if (listing == null) {
        across.abandon();
        return null;
      }
      return across.land(listing, keep ? policy : null, mode == Mode.STALE ? staleBecause : null);
    } catch (RuntimeException e) {
      return null;
    }
  }

  private void lead(Snapshot result) {
    if (leading != null) {
      shared.landed(flight, leading);
      leading.complete(new Led(result, mode == Mode.STALE ? staleBecause : null));
    }
  }
}
