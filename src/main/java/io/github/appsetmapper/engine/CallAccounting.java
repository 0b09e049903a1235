package io.github.appsetmapper.engine;

import io.github.appsetmapper.secret.Redactor;
import io.github.appsetmapper.text.Plural;
import io.github.appsetmapper.upstream.cache.MemoryBudget;
import io.github.appsetmapper.upstream.cache.SharedCalls;
import io.github.appsetmapper.upstream.call.Deadline;
import io.github.appsetmapper.upstream.call.RequestFailure;
import io.github.appsetmapper.upstream.call.UpstreamRequest;
import io.github.appsetmapper.upstream.call.UpstreamResponse;
import io.github.appsetmapper.upstream.call.WireTrace;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The books of one getparams' upstream calls: each call stamped with the answer's deadline, timed
 * (so that a deadline error names the slowest) and told to the trace; every answer held, and the
 * data parsed and the rows made from it, counted against the memory budget until {@link
 * #release()}; and why answers came from the cache in place of a failing upstream.
 */
final class CallAccounting implements Page.Owner {
  /**
   * What a row costs beyond its parsed item, as the memory budget counts it: the row, its values
   * and its place in the lists that hold it. An estimate, documented in docs/operations.md; the
   * parameter maps it becomes are counted on their own ({@link #holdAnswer}).
   */
  static final int ROW_BYTES = 256;

  /** What a request held costs beyond its text: the request, its headers, its page. */
  static final int REQUEST_BYTES = 1024;

  private final Trace trace;
  private final Redactor redactor;
  private final Deadline deadline;
  private final CallTimings timings = new CallTimings();
  private final HeldMemory held;

  /**
   * The most reasons kept for an answer the cache stood in for: each is redacted, then joined into
   * the answer's WARN line. Kept whole, 60,000 enrich calls each stale for its own URL were a set,
   * a redaction and a log line of 60,000 reasons after the answer was made.
   */
  static final int KEEP_STALE = 10;

  private final Set<String> stale = Collections.synchronizedSet(new LinkedHashSet<>());
  private final java.util.concurrent.atomic.AtomicLong moreStale =
      new java.util.concurrent.atomic.AtomicLong();

  CallAccounting(MemoryBudget budget, Trace trace, Deadline deadline, Redactor redactor) {
    this.redactor = redactor;
    this.trace = trace;
    this.deadline = deadline;
    this.held = new HeldMemory(budget, this::refused);
  }

  Deadline deadline() {
    return deadline;
  }

  /**
   * The call of {@code step} as it is sent: bounded by the answer's deadline and, when explaining,
   * telling the trace of the calls its auth makes (shown as {@code <step> <what>}).
   */
  UpstreamRequest stamp(String step, UpstreamRequest rendered) {
    var settings = rendered.settings().toBuilder().deadline(deadline);
    WireTrace wire = trace.wire(step);
    if (wire != WireTrace.NONE) {
      settings.wire(wire);
    }
    if (trace.explaining()) {
      settings.authTrace(
          (what, request, response, error, startedAt, nanos) ->
              trace.call(
                  new UpstreamCall(
                      step + " " + what,
                      request,
                      response,
                      error,
                      nanos,
                      1,
                      false,
                      null,
                      null,
                      startedAt)));
    }
    return rendered.withSettings(settings.build());
  }

  /**
   * A call starting now, for {@code step}; end it with {@link Call#answered} or {@link
   * Call#failed}.
   */
  Call start(String step, UpstreamRequest request, int page) {
    return new Call(step, request, page);
  }

  /** One call being made. */
  final class Call {
    private final String step;
    private final UpstreamRequest request;
    private final int page;
    private final long started = System.nanoTime();
    private final CallTimings.Timing timing;

    private Call(String step, UpstreamRequest request, int page) {
      this.step = step;
      this.request = request;
      this.page = page;
      this.timing = timings.start(step + " " + request.describe());
    }

    /** The answer arrived: held against the budget (or refused), noted, traced. */
    void answered(SharedCalls.Outcome outcome) throws RequestFailure {
      timing.end(false);
      UpstreamResponse response = outcome.response();
      held.body(request, response);
      if (outcome.source() == SharedCalls.Source.STALE) {
        staleBecause(step + " " + outcome.staleBecause());
      }
      trace.call(
          new UpstreamCall(
              step,
              request,
              response,
              null,
              System.nanoTime() - started,
              page,
              !outcome.source().called(),
              outcome.source(),
              outcome.staleBecause(),
              started));
    }

    /** The call failed (or its answer was refused). */
    void failed(Exception e) {
      timing.end(e instanceof RequestFailure u && u.kind() == RequestFailure.Kind.DEADLINE);
      trace.call(
          UpstreamCall.failed(
              step, request, e.getMessage(), System.nanoTime() - started, page, started));
    }
  }

  /** A page this getparams already had, handed to another step: no call, nothing more held. */
  void replayed(String step, UpstreamRequest request, Object found, int page) {
    if (found instanceof Page known) {
      trace.call(
          new UpstreamCall(step, request, known.response(), null, 0, page, true, null, null));
    } else if (found instanceof RequestFailure failure) {
      trace.call(UpstreamCall.failed(step, request, failure.getMessage(), 0, page, 0));
    }
  }

  @Override
  public void hold(Page page, long more, long total, boolean done) throws RequestFailure {
    held.reserve(
        more,
        page.request(),
        done
            ? "the answer's data (about " + total + " bytes once parsed)"
            : "the answer's data (over " + total + " bytes, and still being read)");
  }

  /** Counts {@code rows} rows made from an answer to {@code call} against the budget. */
  void holdRows(String step, UpstreamRequest call, int rows) throws RequestFailure {
    long bytes = (long) rows * ROW_BYTES;
    try {
      held.reserve(bytes, call, Plural.of(rows, "row") + " (about " + bytes + " bytes)");
    } catch (RequestFailure e) {
      throw e.inStep(step);
    }
  }

  /**
   * Counts what an expression built for a row ({@code what}: "let.big on row 3") against the
   * budget, as {@link BuiltValues} estimates it: a value computed per row is held with the row.
   */
  void holdBuilt(String what, Object value) throws RequestFailure {
    holdBytes(what, BuiltValues.bytes(value));
  }

  /** As {@link #holdBuilt}, with the bytes {@link BuiltValues} estimated already. */
  void holdBytes(String what, long bytes) throws RequestFailure {
    if (bytes > 0) {
      held.reserve(bytes, null, "values built per row (" + what + ", about " + bytes + " bytes)");
    }
  }

  /**
   * Counts a request about to be sent against the budget: this getparams keeps it until it has
   * answered (its page and its identity, the key of both the listing and the page), so that
   * identical calls are made once. An estimate of four bytes a character: the URI's text and its
   * query, and the two keys, one byte a character as a URL's text is (a body's text twice more).
   */
  void holdRequest(String step, UpstreamRequest request) throws RequestFailure {
    long bytes =
        REQUEST_BYTES
            + 4L * request.uri().toString().length()
            + 4L * (request.body() == null ? 0 : request.body().length);
    for (var header : request.headers().fields()) {
      bytes += 4L * (header.name().length() + header.value().length());
    }
    try {
      // Not named by its request: a URL that large would be cut before the reason.
      held.reserve(bytes, null, "requests held (about " + bytes + " bytes more)");
    } catch (RequestFailure e) {
      throw e.inStep(step);
    }
  }

  /**
   * Counts the parameter maps of the answer against the budget ({@code rows} so far, {@code bytes}
   * more): what a small answer can grow into is written out whole.
   */
  void holdAnswer(int rows, long bytes) throws RequestFailure {
    held.reserve(
        bytes,
        null,
        "the answer's parameter maps (" + rows + " so far, about " + bytes + " bytes more)");
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

  /** Why answers came from the cache in place of a failing upstream (empty: none did). */
  List<String> staleReasons() {
    synchronized (stale) {
      long more = moreStale.get();
      if (more == 0) {
        return List.copyOf(stale);
      }
      List<String> out = new java.util.ArrayList<>(stale);
      out.add("and " + more + " more");
      return out;
    }
  }

  private void staleBecause(String reason) {
    synchronized (stale) {
      if (stale.size() < KEEP_STALE || stale.contains(reason)) {
        stale.add(reason);
      } else {
        moreStale.incrementAndGet();
      }
    }
  }

  /** The call that took (or has been taking) longest: "enrich.x GET https://... (1200 ms)". */
  String slowest() {
    return timings.slowest();
  }

  /** Gives what this getparams held back to the memory budget; what arrives later is not held. */
  void release() {
    held.release();
  }
}
