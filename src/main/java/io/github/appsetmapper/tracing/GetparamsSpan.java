package io.github.appsetmapper.tracing;

import io.github.appsetmapper.compile.CompiledMapping;
import io.github.appsetmapper.engine.GetparamsTracing;
import io.github.appsetmapper.engine.Trace;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;

/**
 * The server span of one getparams: its outcome, and the trace its stages and calls record into.
 */
final class GetparamsSpan implements GetparamsTracing.Traced {
  private final Tracer tracer;
  private final Span span;
  private final SpanValues values;
  private volatile SpanTrace stages;

  GetparamsSpan(Tracer tracer, Span span, SpanValues values) {
    this.tracer = tracer;
    this.span = span;
    this.values = values;
  }

  @Override
  public Trace around(Trace inner, CompiledMapping mapping) {
    SpanTrace trace =
        new SpanTrace(inner, tracer, Context.root().with(span), values, Templates.of(mapping));
    stages = trace;
    return trace;
  }

  @Override
  public String traceId() {
    return span.getSpanContext().isValid() ? span.getSpanContext().getTraceId() : null;
  }

  @Override
  public boolean sampled() {
    return span.getSpanContext().isSampled();
  }

  @Override
  public void end(GetparamsTracing.Ended outcome) {
    try {
      SpanTrace trace = stages;
      if (trace != null) {
        trace.endOpen();
      }
      if (outcome.mapping() != null) {
        span.setAttribute("appset_mapper.mapping", values.of(outcome.mapping()));
      }
      if (outcome.applicationSet() != null && !outcome.applicationSet().isEmpty()) {
        span.setAttribute("appset_mapper.application_set", values.of(outcome.applicationSet()));
      }
      span.setAttribute("http.response.status_code", (long) outcome.status());
      if (outcome.rows() >= 0) {
        span.setAttribute("appset_mapper.rows", (long) outcome.rows());
      }
      if (outcome.coalesced()) {
        span.setAttribute("appset_mapper.coalesced", true);
      }
      if (outcome.stale()) {
        span.setAttribute("appset_mapper.stale", true);
      }
      if (outcome.error() != null) {
        span.setAttribute("error.type", String.valueOf(outcome.status()));
        span.setAttribute("appset_mapper.error", values.of(outcome.error()));
        if (outcome.status() >= 500) {
          span.setStatus(StatusCode.ERROR, values.of(outcome.error()));
        }
      }
    } finally {
      span.end();
    }
  }
}
