package io.github.appsetmapper.tracing;

import io.github.appsetmapper.engine.Trace;
import io.github.appsetmapper.engine.UpstreamCall;
import io.github.appsetmapper.upstream.cache.SharedCalls;
import io.github.appsetmapper.upstream.call.WireTrace;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The engine's {@link Trace} seen as spans: a span per stage (opened when its first call leaves,
 * else drawn from the stage before it once the stage tells its rows), the client spans of its calls
 * ({@link ClientSpans}), and spans for the answers that came without a call of their own (cache
 * hits, coalesced waits, stale answers). Everything is also told to the trace it wraps.
 */
final class SpanTrace implements Trace {
  private static final AttributeKey<String> REASON = AttributeKey.stringKey("appset_mapper.reason");

  private final Trace inner;
  private final Tracer tracer;
  private final Context parent;
  private final SpanValues values;
  private final Map<String, String> templates;
  private final Map<String, Span> open = new ConcurrentHashMap<>();
  private volatile long mark = System.nanoTime();

  SpanTrace(
      Trace inner,
      Tracer tracer,
      Context parent,
      SpanValues values,
      Map<String, String> templates) {
    this.inner = inner;
    this.tracer = tracer;
    this.parent = parent;
    this.values = values;
    this.templates = templates;
  }

  @Override
  public WireTrace wire(String step) {
    try {
      Span stage = open.computeIfAbsent(step, this::stageSpan);
      return new ClientSpans(tracer, parent.with(stage), values, step, templates.get(step));
    } catch (RuntimeException e) {
      return WireTrace.NONE;
    }
  }

  @Override
  public void call(UpstreamCall call) {
    inner.call(call);
    try {
      SharedCalls.Source source = call.source();
      if (source == null
          || source == SharedCalls.Source.NETWORK
          || source == SharedCalls.Source.MISS) {
        return;
      }
      // No call of its own (or a stale answer standing in): a span for where the answer came from.
      Span stage = open.get(call.step());
      long started = call.startedAt() != 0 ? call.startedAt() : System.nanoTime() - call.nanos();
      Span span =
          tracer
              .spanBuilder(name(source))
              .setParent(stage != null ? parent.with(stage) : parent)
              .setSpanKind(SpanKind.INTERNAL)
              .setStartTimestamp(SpanValues.instant(started))
              .setAttribute("appset_mapper.step", values.of(call.step()))
              .setAttribute("appset_mapper.source", source.name().toLowerCase(Locale.ROOT))
              .startSpan();
      if (call.request() != null) {
        span.setAttribute("http.request.method", call.request().method());
        span.setAttribute("server.address", values.of(call.request().uri().getHost()));
      }
      String template = templates.get(call.step());
      if (template != null) {
        span.setAttribute("url.template", values.of(template));
      }
      if (call.response() != null) {
        span.setAttribute("http.response.status_code", (long) call.response().status());
      }
      if (call.staleBecause() != null) {
        span.setAttribute("appset_mapper.stale_because", values.of(call.staleBecause()));
      }
      span.end(SpanValues.instant(started + call.nanos()));
    } catch (RuntimeException e) {
      // Tracing never fails a getparams.
    }
  }

  private static String name(SharedCalls.Source source) {
    return switch (source) {
      case HIT, SHARED_HIT -> "cache hit";
      case REVALIDATED -> "cache revalidated";
      case STALE -> "stale answer";
      case COALESCED, SHARED_COALESCED -> "coalesced wait";
      case NETWORK, MISS -> "call";
    };
  }

  @Override
  public void stage(String stage, int rows) {
    inner.stage(stage, rows);
    try {
      Span span = open.remove(stage);
      if (span == null) {
        span = stageSpan(stage);
      }
      span.setAttribute("appset_mapper.rows", (long) rows);
      span.end();
      mark = System.nanoTime();
    } catch (RuntimeException e) {
      // Tracing never fails a getparams.
    }
  }

  /** A stage's span, from the end of the stage before it. */
  private Span stageSpan(String stage) {
    return tracer
        .spanBuilder(values.of(stage))
        .setParent(parent)
        .setSpanKind(SpanKind.INTERNAL)
        .setStartTimestamp(SpanValues.instant(mark))
        .startSpan();
  }

  /** Ends the stages a failure left open. */
  void endOpen() {
    for (String stage : open.keySet()) {
      Span span = open.remove(stage);
      if (span != null) {
        span.end();
      }
    }
  }

  @Override
  public void dropped(String stage, int row, String label, String reason) {
    inner.dropped(stage, row, label, reason);
  }

  @Override
  public boolean explaining() {
    return inner.explaining();
  }

  @Override
  public void parameters(int row, String element, Map<String, Object> parameters) {
    inner.parameters(row, element, parameters);
  }

  @Override
  public void refusedRequest(String reason) {
    inner.refusedRequest(reason);
    event("request refused", reason);
  }

  @Override
  public void refusedAnswer(String reason) {
    inner.refusedAnswer(reason);
    event("answer refused", reason);
  }

  @Override
  public void refusedByGuard(String guard) {
    inner.refusedByGuard(guard);
    event("refused by guard", guard);
  }

  private void event(String name, String reason) {
    try {
      Span.fromContext(parent).addEvent(name, Attributes.of(REASON, values.of(reason)));
    } catch (RuntimeException e) {
      // Tracing never fails a getparams.
    }
  }
}
