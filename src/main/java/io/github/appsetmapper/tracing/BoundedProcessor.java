package io.github.appsetmapper.tracing;

import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.ReadWriteSpan;
import io.opentelemetry.sdk.trace.ReadableSpan;
import io.opentelemetry.sdk.trace.SpanProcessor;

/**
 * The SDK's batch processor behind a bound: a sampled span goes to its queue only while fewer than
 * the queue's size wait for the exporter; past that it is dropped here and counted ({@code
 * queue_full}), so a slow or absent collector costs a getparams nothing.
 */
final class BoundedProcessor implements SpanProcessor {
  private final SpanProcessor processor;
  private final int max;
  private final Backlog backlog;

  BoundedProcessor(SpanProcessor processor, int max, Backlog backlog) {
    this.processor = processor;
    this.max = Math.max(1, max);
    this.backlog = backlog;
  }

  @Override
  public void onStart(Context parentContext, ReadWriteSpan span) {
    processor.onStart(parentContext, span);
  }

  @Override
  public boolean isStartRequired() {
    return processor.isStartRequired();
  }

  @Override
  public void onEnd(ReadableSpan span) {
    if (!span.getSpanContext().isSampled()) {
      processor.onEnd(span);
    } else if (backlog.admit(max)) {
      processor.onEnd(span);
    } else {
      backlog.dropped("queue_full", 1);
    }
  }

  @Override
  public boolean isEndRequired() {
    return processor.isEndRequired();
  }

  @Override
  public CompletableResultCode shutdown() {
    return processor.shutdown();
  }

  @Override
  public CompletableResultCode forceFlush() {
    return processor.forceFlush();
  }
}
