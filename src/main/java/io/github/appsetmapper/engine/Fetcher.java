package io.github.appsetmapper.engine;

import io.github.appsetmapper.config.BodyFormat;
import io.github.appsetmapper.upstream.cache.ListingPass;
import io.github.appsetmapper.upstream.cache.SharedCalls;
import io.github.appsetmapper.upstream.call.RequestFailure;
import io.github.appsetmapper.upstream.call.UpstreamRequest;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * The upstream calls of one getparams, listing by listing. A listing (every page of a paginated
 * request; an unpaginated request is a listing of one page) is the unit that is shared: identical
 * listings of this getparams are walked once and their pages handed to every step that asks (rows
 * that share a call share its answer, and its parsed body), and across getparams the server's
 * {@link SharedCalls} shares and caches whole listings. What each call costs and how long it took
 * is kept by the getparams' {@link CallAccounting}.
 */
final class Fetcher {
  /**
   * A listing of this getparams, once walked: its pages by request identity, and the failure of a
   * call that failed. Another walk of the same listing replays these pages; a walk that wants a
   * page not here walks on its own.
   */
  private static final class Local {
    final CompletableFuture<Void> done = new CompletableFuture<>();
    volatile Map<String, Object> pages = Map.of();

    void publish(Map<String, Object> recorded) {
      pages = Collections.unmodifiableMap(new HashMap<>(recorded));
      done.complete(null);
    }
  }

  private final SharedCalls shared;
  private final CallAccounting books;
  private final Map<String, Local> listings = new ConcurrentHashMap<>();
  private volatile Set<String> owners = Set.of();

  Fetcher(SharedCalls shared, CallAccounting books) {
    this.shared = shared;
    this.books = books;
  }

  /** Tags for the cache entries this getparams uses: its mapping, and mapping with input. */
  void owners(Set<String> tags) {
    this.owners = tags;
  }

  /** What the calls of this getparams cost, and what they hold. */
  CallAccounting books() {
    return books;
  }

  /**
   * Every page of one listing, in order, from one moment of the upstream. A first page that is not
   * a complete answer comes alone, for the caller to judge (an enrich's 404); errors name the
   * {@code step}.
   *
   * @param format how the pages' bodies are read, as the request states it (null: not stated, see
   *     {@link Page}): the same call read in another format is another listing here (its answers
   *     are still shared by {@link SharedCalls})
   * @param paginators a fresh paginator for each walk over the pages
   */
  List<Page> listing(
      String step, BodyFormat format, Supplier<Paginator> paginators, ResponseChecks checks)
      throws RequestFailure {
    // Outside the try: a first request that cannot be rendered is named by its field already.
    UpstreamRequest first = books.stamp(step, paginators.get().first());
    try {
      String key = format + " " + first.callKey();
      Local mine = new Local();
      Local existing = listings.putIfAbsent(key, mine);
      if (existing != null) {
        await(existing, first);
        try {
          return ListingWalk.walk(
              paginators.get(), checks, (request, n) -> replay(step, existing, request, n));
        } catch (ListingPass.Restart restart) {
          // It went further than the walk before: this one fetches the listing on its own.
          mine = null;
        }
      }
      return own(step, format, first, paginators, checks, mine);
    } catch (RequestFailure e) {
      throw e.inStep(step);
    }
  }

  private List<Page> own(
      String step,
      BodyFormat format,
      UpstreamRequest first,
      Supplier<Paginator> paginators,
      ResponseChecks checks,
      Local mine)
      throws RequestFailure {
    Map<String, Object> recorded = new LinkedHashMap<>();
    ListingPass pass = null;
    boolean finished = false;
    try {
      pass = shared.open(first, owners);
      for (int attempt = 0; ; attempt++) {
        recorded.clear();
        ListingPass current = pass;
        try {
          List<Page> pages =
              ListingWalk.walk(
                  paginators.get(),
                  checks,
                  (request, n) -> fetch(step, format, current, request, n, recorded));
          pass.finish(true);
          finished = true;
          return pages;
        } catch (ListingPass.Restart restart) {
          // The pass changed its source (a cached listing went less far, the last good listing
          // stands in for a failing upstream): every page again, from that one source.
          if (attempt >= 3) {
            throw new IllegalStateException("a listing restarted " + attempt + " times");
          }
        }
      }
    } finally {
      if (pass != null && !finished) {
        pass.abandon();
      }
      if (mine != null) {
        mine.publish(recorded);
      }
    }
  }

  private Page fetch(
      String step,
      BodyFormat format,
      ListingPass pass,
      UpstreamRequest rendered,
      int number,
      Map<String, Object> recorded)
      throws RequestFailure, ListingPass.Restart {
    UpstreamRequest request = books.stamp(step, rendered);
    books.holdRequest(step, request);
    CallAccounting.Call call = books.start(step, request, number);
    try {
      if (books.deadline().expired()) {
        throw RequestFailure.of(
            request, "not sent, the deadline ran out", RequestFailure.Kind.DEADLINE);
      }
      SharedCalls.Outcome outcome = pass.page(request);
      call.answered(outcome);
      Page page = new Page(request, outcome.response(), format, books);
      recorded.put(request.identity(), page);
      return page;
    } catch (RequestFailure | RuntimeException e) {
      if (e instanceof RequestFailure failure) {
        recorded.put(request.identity(), failure);
      }
      call.failed(e);
      throw e;
    }
  }

  /** A page of a listing this getparams already walked. */
  private Page replay(String step, Local local, UpstreamRequest request, int number)
      throws RequestFailure, ListingPass.Restart {
    Object found = local.pages.get(request.identity());
    books.replayed(step, request, found, number);
    if (found instanceof Page page) {
      return page;
    }
    if (found instanceof RequestFailure failure) {
      throw failure;
    }
    throw new ListingPass.Restart();
  }

  private void await(Local local, UpstreamRequest request) throws RequestFailure {
    try {
      if (books.deadline().isSet()) {
        // The identical call ends by the same deadline and says why; the grace lets it.
        local.done.get(Waits.nanos(books.deadline()), TimeUnit.NANOSECONDS);
      } else {
        local.done.get();
      }
    } catch (TimeoutException e) {
      throw RequestFailure.of(
          request,
          "the deadline ran out waiting for an identical call",
          RequestFailure.Kind.DEADLINE);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw RequestFailure.of(request, "interrupted");
    } catch (ExecutionException e) {
      throw new IllegalStateException("a listing is never published with a failure", e);
    }
  }
}
