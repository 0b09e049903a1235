package io.github.appsetmapper.upstream.call;

import java.util.function.UnaryOperator;

/**
 * The one request-time failure: what kind it is (which decides the HTTP status and whether a retry
 * may help), where it happened (the mapping, the step, the field, the call) and why, as one line,
 * and the exception that caused it, kept for the log and never put in an answer. Its message is
 * composed by {@link #getMessage()} and nowhere else:
 *
 * <pre>
 * mapping 'M': STEP[.FIELD] CALL: DETAIL     (a call failed:  list GET https://...: answered 503)
 * mapping 'M': STEP[.FIELD]: DETAIL          (no call:        enrich.x.url: '...' gave an invalid URL)
 * mapping 'M': DETAIL                        (no step:        the answer has 2 rows, fewer than ...)
 * DETAIL                                     (input, which names the input, not the mapping)
 * </pre>
 *
 * Immutable: one failure may be shared by several callers (coalesced calls), each adding its own
 * step. The text must hold no secret; callers pass it through the redactor as well.
 */
public final class RequestFailure extends Exception {
  /** What kind of failure: it decides the status and whether a retry may help. */
  public enum Kind {
    /** An upstream answer or call that cannot be used: a refused host, a bad answer. */
    FAILED,
    /** The connection could not be made (refused, no route): worth a retry. */
    CONNECT,
    /** The request's own timeout ran out. */
    TIMEOUT,
    /** The mapping's deadline ran out. */
    DEADLINE,
    /** Our side is misconfigured: a TLS file, a private key. */
    LOCAL,
    /** The memory budget for upstream answers is used up: try again later. */
    OVERLOAD,
    /** The caller's input is wrong: undeclared, missing, invalid, or it built a bad request. */
    INPUT,
    /** An expression failed on the data it was given. */
    EXPRESSION,
    /** A secret could not be read. */
    SECRET,
    /** The answer looks wrong and is refused so that Argo CD keeps its Applications. */
    GUARD,
    /**
     * A guard cannot tell whether the answer is safe (its shared baseline cannot be read or opened
     * now): refused so that Argo CD keeps its Applications; try again later.
     */
    GUARD_UNKNOWN;

    /** Whether it is the failure of an upstream call, which the step that made the call names. */
    boolean ofACall() {
      return this == FAILED
          || this == CONNECT
          || this == TIMEOUT
          || this == DEADLINE
          || this == LOCAL
          || this == OVERLOAD;
    }
  }

  private final Kind kind;
  private final String mapping;
  private final String step;
  private final String field;
  private final String call;
  private final String detail;

  private RequestFailure(
      Kind kind,
      String mapping,
      String step,
      String field,
      String call,
      String detail,
      Throwable cause) {
    super(null, cause);
    this.kind = kind;
    this.mapping = mapping;
    this.step = step;
    this.field = field;
    this.call = call;
    this.detail = detail;
  }

  public RequestFailure(String detail, Kind kind) {
    this(kind, null, null, null, null, detail, null);
  }

  public RequestFailure(String detail) {
    this(detail, Kind.FAILED);
  }

  /** A failure of one call, which {@code request} names ("GET https://...: {@code detail}"). */
  public static RequestFailure of(UpstreamRequest request, String detail, Kind kind) {
    return new RequestFailure(kind, null, null, null, request.describe(), detail, null);
  }

  public static RequestFailure of(UpstreamRequest request, String detail) {
    return of(request, detail, Kind.FAILED);
  }

  /** A failure at a field of a step's request ("list.url: {@code detail}"). */
  public static RequestFailure at(String step, String field, Kind kind, String detail) {
    return new RequestFailure(kind, null, step, field, null, detail, null);
  }

  /** The caller's input is wrong (a 400 naming the parameter). */
  public static RequestFailure input(String detail) {
    return new RequestFailure(detail, Kind.INPUT);
  }

  /** An expression failed ({@code detail} names it, by its path); {@code cause} is SpEL's. */
  public static RequestFailure expression(String detail, Throwable cause) {
    return new RequestFailure(Kind.EXPRESSION, null, null, null, null, detail, cause);
  }

  /** The answer is refused so that Argo CD keeps its Applications. */
  public static RequestFailure guard(String detail) {
    return new RequestFailure(detail, Kind.GUARD);
  }

  /** The guard cannot judge the answer now: refused (a 503), to be asked again. */
  public static RequestFailure guardUnknown(String detail) {
    return new RequestFailure(detail, Kind.GUARD_UNKNOWN);
  }

  /**
   * The failure a task ended with, to throw: ours as it is, an unchecked one rethrown as it is (a
   * bug shows as one), anything else wrapped.
   */
  public static RequestFailure unwrap(java.util.concurrent.ExecutionException e) {
    Throwable cause = e.getCause();
    if (cause instanceof RequestFailure failure) {
      return failure;
    }
    if (cause instanceof RuntimeException unchecked) {
      throw unchecked;
    }
    if (cause instanceof Error error) {
      throw error;
    }
    return new RequestFailure(
        Kind.FAILED, null, null, null, null, "failed: " + cause.getClass().getSimpleName(), cause);
  }

  public Kind kind() {
    return kind;
  }

  /** The step that failed ({@code list}, {@code enrich.front}), or null. */
  public String step() {
    return step;
  }

  /** The same failure, caused by {@code cause} (kept for the log). */
  public RequestFailure causedBy(Throwable cause) {
    return copy(kind, mapping, step, field, call, detail, cause);
  }

  /**
   * The same failure named by the step that made the call, when it is a call's failure no step
   * names yet; any other failure names its place already (an expression its path, a template its
   * field) and is returned as it is.
   */
  public RequestFailure inStep(String name) {
    return step != null || !kind.ofACall()
        ? this
        : copy(kind, mapping, name, field, call, detail, getCause());
  }

  /** The same failure in {@code name}, the mapping that was answering. */
  public RequestFailure inMapping(String name) {
    return copy(kind, name, step, field, call, detail, getCause());
  }

  /** The same failure with more said at its end ("... after 3 attempts"). */
  public RequestFailure adding(String more) {
    return copy(kind, mapping, step, field, call, detail + more, getCause());
  }

  /**
   * A copy for one more caller of a shared computation: an exception instance is never thrown in
   * two threads (each may add suppressed exceptions to it).
   */
  public RequestFailure copy() {
    return copy(kind, mapping, step, field, call, detail, getCause());
  }

  /** The same failure named by the call it happened in (a TLS file read for that call). */
  public RequestFailure onCall(UpstreamRequest request) {
    return copy(kind, mapping, step, field, request.describe(), detail, getCause());
  }

  /** The same failure of another call, for which this one was made ("GET ...: login request"). */
  public RequestFailure forCall(UpstreamRequest outer, String what) {
    return copy(kind, mapping, step, field, outer.describe(), what + " " + getMessage(), this);
  }

  /** The same failure, its call and detail (what upstreams said) passed through {@code scrub}. */
  public RequestFailure scrubbed(UnaryOperator<String> scrub) {
    return copy(
        kind,
        mapping,
        step,
        field,
        call == null ? null : scrub.apply(call),
        scrub.apply(detail),
        getCause());
  }

  /** The one line: see the class comment. */
  @Override
  public String getMessage() {
    StringBuilder line = new StringBuilder();
    if (mapping != null && kind != Kind.INPUT) {
      line.append("mapping '").append(mapping).append("': ");
    }
    String where = step == null ? null : field == null ? step : step + "." + field;
    if (call != null) {
      if (where != null) {
        line.append(where).append(' ');
      }
      line.append(call).append(": ");
    } else if (where != null) {
      line.append(where).append(": ");
    }
    return line.append(detail).toString();
  }

  private RequestFailure copy(
      Kind kind,
      String mapping,
      String step,
      String field,
      String call,
      String detail,
      Throwable cause) {
    RequestFailure copy = new RequestFailure(kind, mapping, step, field, call, detail, cause);
    // Where it was first thrown, not where it was named: that is what the log needs.
    copy.setStackTrace(getStackTrace());
    return copy;
  }
}
