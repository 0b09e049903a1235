package io.github.appsetmapper.engine;

import io.github.appsetmapper.secret.SecretUnavailableException;
import io.github.appsetmapper.upstream.Deadline;
import io.github.appsetmapper.upstream.HttpUpstream;
import io.github.appsetmapper.upstream.UpstreamException;
import io.github.appsetmapper.upstream.UpstreamRequest;
import io.github.appsetmapper.upstream.UpstreamResponse;
import io.github.appsetmapper.upstream.cache.ListingPass;
import io.github.appsetmapper.upstream.cache.SharedCalls;
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
 * {@link SharedCalls} shares and caches whole listings. Every call is stamped with the answer's
 * deadline and timed, so that a deadline error can name the slowest. Every answer held, and the
 * data parsed and the rows made from it, are counted against the memory budget until {@link
 * #release()}.
 */
final class Fetcher implements Page.Owner {
  /**
   * What a row costs beyond its parsed item, as the memory budget counts it: the row, its values
   * and its place in the lists that hold it. An estimate, documented in docs/operations.md; the
   * parameter maps it becomes are counted on their own ({@link #holdAnswer}).
   */
  static final int ROW_BYTES = 256;

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
  private final Trace trace;
  private final Deadline deadline;
  private final Map<String, Local> listings = new ConcurrentHashMap<>();
  private final CallTimings timings = new CallTimings();
  private final HeldMemory held;
  private final Set<String> stale = Collections.synchronizedSet(new java.util.LinkedHashSet<>());
  private volatile Set<String> owners = Set.of();

  private final io.github.appsetmapper.secret.Redactor redactor;

  Fetcher(
      SharedCalls shared,
      Trace trace,
      Deadline deadline,
      io.github.appsetmapper.secret.Redactor redactor) {
    this.redactor = redactor;
    this.shared = shared;
    this.trace = trace;
    this.deadline = deadline;
    this.held = new HeldMemory(shared.budget(), this::refused);
  }

  /** Tags for the cache entries this getparams uses: its mapping, and mapping with input. */
  void owners(Set<String> tags) {
    this.owners = tags;
  }

  /** Why answers came from the cache in place of a failing upstream (empty: none did). */
  List<String> staleReasons() {
    synchronized (stale) {
      return List.copyOf(stale);
    }
  }

  /** Gives what this getparams held back to the memory budget; what arrives later is not held. */
  void release() {
    held.release();
  }

  Deadline deadline() {
    return deadline;
  }

  /** The call that took (or has been taking) longest: "enrich.x GET https://... (1200 ms)". */
  String slowest() {
    return timings.slowest();
  }

  /**
   * Every page of one listing, in order, from one moment of the upstream. A first page that is not
   * a complete answer comes alone, for the caller to judge (an enrich's 404); errors name the
   * {@code step}.
   *
   * @param paginators a fresh paginator for each walk over the pages
   */
  List<Page> listing(String step, Supplier<Paginator> paginators, ResponseChecks checks)
      throws UpstreamException, EvaluationException, InputException, SecretUnavailableException {
    // Outside the try: a first request that cannot be rendered is named by its field already.
    UpstreamRequest first = stamp(paginators.get().first());
    try {
      String key = first.identity();
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
      return own(step, first, paginators, checks, mine);
    } catch (UpstreamException e) {
      throw e.withMessage(step + " " + e.getMessage());
    }
  }

  private List<Page> own(
      String step,
      UpstreamRequest first,
      Supplier<Paginator> paginators,
      ResponseChecks checks,
      Local mine)
      throws UpstreamException, EvaluationException, InputException, SecretUnavailableException {
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
                  (request, n) -> fetch(step, current, request, n, recorded));
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
      ListingPass pass,
      UpstreamRequest rendered,
      int number,
      Map<String, Object> recorded)
      throws UpstreamException, ListingPass.Restart {
    UpstreamRequest request = stamp(rendered);
    long started = System.nanoTime();
    CallTimings.Timing timing = timings.start(step + " " + HttpUpstream.describe(request));
    try {
      if (deadline.expired()) {
        throw new UpstreamException(
            HttpUpstream.describe(request) + ": not sent, the deadline ran out",
            UpstreamException.Kind.DEADLINE);
      }
      SharedCalls.Outcome outcome = pass.page(request);
      UpstreamResponse response = outcome.response();
      timing.end(false);
      held.body(request, response);
      if (outcome.source() == SharedCalls.Source.STALE) {
        stale.add(step + " " + outcome.staleBecause());
      }
      Page page = new Page(request, response, this);
      recorded.put(request.identity(), page);
      trace.call(
          new UpstreamCall(
              step,
              request,
              response,
              null,
              System.nanoTime() - started,
              number,
              !outcome.source().called(),
              outcome.source(),
              outcome.staleBecause()));
      return page;
    } catch (UpstreamException | RuntimeException e) {
      timing.end(e instanceof UpstreamException u && u.kind() == UpstreamException.Kind.DEADLINE);
      if (e instanceof UpstreamException failure) {
        recorded.put(request.identity(), failure);
      }
      trace.call(
          UpstreamCall.failed(step, request, e.getMessage(), System.nanoTime() - started, number));
      throw e;
    } finally {
      timing.end(false);
    }
  }

  /** A page of a listing this getparams already walked. */
  private Page replay(String step, Local local, UpstreamRequest request, int number)
      throws UpstreamException, ListingPass.Restart {
    Object found = local.pages.get(request.identity());
    if (found instanceof Page page) {
      trace.call(
          new UpstreamCall(step, request, page.response(), null, 0, number, true, null, null));
      return page;
    }
    if (found instanceof UpstreamException failure) {
      trace.call(UpstreamCall.failed(step, request, failure.getMessage(), 0, number));
      throw failure;
    }
    throw new ListingPass.Restart();
  }

  private void await(Local local, UpstreamRequest request) throws UpstreamException {
    try {
      if (deadline.isSet()) {
        // The identical call ends by the same deadline and says why; the grace lets it.
        local.done.get(Waits.nanos(deadline), TimeUnit.NANOSECONDS);
      } else {
        local.done.get();
      }
    } catch (TimeoutException e) {
      throw new UpstreamException(
          HttpUpstream.describe(request) + ": the deadline ran out waiting for an identical call",
          UpstreamException.Kind.DEADLINE);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new UpstreamException(HttpUpstream.describe(request) + ": interrupted");
    } catch (ExecutionException e) {
      throw new IllegalStateException("a listing is never published with a failure", e);
    }
  }

  private UpstreamRequest stamp(UpstreamRequest rendered) {
    return rendered.withSettings(rendered.settings().withDeadline(deadline));
  }

  @Override
  public void hold(Page page, long bytes) throws UpstreamException {
    held.reserve(
        bytes, page.describe() + ": the answer's data (about " + bytes + " bytes once parsed)");
  }

  /** Counts {@code rows} rows made from an answer ({@code where} names it) against the budget. */
  void holdRows(String where, int rows) throws UpstreamException {
    long bytes = (long) rows * ROW_BYTES;
    held.reserve(bytes, where + ": " + rows + " rows (about " + bytes + " bytes)");
  }

  /**
   * Counts the parameter maps of the answer against the budget ({@code rows} so far, {@code bytes}
   * more): what a small answer can grow into is written out whole.
   */
  void holdAnswer(int rows, long bytes) throws UpstreamException {
    held.reserve(
        bytes, "the answer's parameter maps (" + rows + " so far, about " + bytes + " bytes more)");
  }

  @Override
  public void refused(String reason) {
    try {
      trace.refusedAnswer(reason);
    } catch (RuntimeException e) {
      // Bookkeeping must never fail a getparams.
    }
  }

  /** A key an answer quotes in an error: 80 characters, after redaction. */
  @Override
  public String excerpt(String upstreamText) {
    return redactor.excerpt(upstreamText, 80);
  }

  /** Scrubs what this getparams' upstreams answered before it reaches a message. */
  io.github.appsetmapper.secret.Redactor redactor() {
    return redactor;
  }
}
