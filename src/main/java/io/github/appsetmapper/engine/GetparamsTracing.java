package io.github.appsetmapper.engine;

import io.github.appsetmapper.compile.CompiledMapping;
import java.util.function.UnaryOperator;

/**
 * Distributed tracing of getparams: one trace each, opened by the server with the caller's headers
 * (a {@code traceparent} is honoured) and ended with its outcome. {@link #OFF} when no {@code
 * OTEL_*} variable is set: then no tracing class is even loaded.
 */
public interface GetparamsTracing extends AutoCloseable {
  GetparamsTracing OFF = (route, headers) -> Traced.OFF;

  /**
   * A getparams arriving on {@code route} (the route's template, never the path it was called
   * with); {@code headers} looks up a request header by name (null: absent).
   */
  Traced start(String route, UnaryOperator<String> headers);

  /** Sends what is still queued, within a short bound, and stops. */
  @Override
  default void close() {}

  /** How a getparams ended, for its span. {@code error} is the answer's one line (null: none). */
  record Ended(
      String mapping,
      String applicationSet,
      int status,
      int rows,
      String error,
      boolean coalesced,
      boolean stale) {}

  /** One getparams' trace. */
  interface Traced {
    Traced OFF = new Traced() {};

    /** The trace that records into this one and tells {@code inner} everything too. */
    default Trace around(Trace inner, CompiledMapping mapping) {
      return inner;
    }

    /** The trace id (32 hex digits) to show in the log line and answers; null when off. */
    default String traceId() {
      return null;
    }

    /** Whether the trace is exported; an unsampled id names a trace no one can open. */
    default boolean sampled() {
      return true;
    }

    /**
     * What an error line ends with, as Argo CD shows it: {@code " (trace_id=...)"}, {@code "
     * (trace_id=..., not sampled)"}, or nothing when off.
     */
    default String errorSuffix() {
      String id = traceId();
      if (id == null) {
        return "";
      }
      return " (trace_id=" + id + (sampled() ? ")" : ", not sampled)");
    }

    default void end(Ended outcome) {}
  }
}
