package io.github.appsetmapper.tracing;

import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.util.Collection;

/**
 * The configured exporter, telling the backlog of each batch that left and of those that failed.
 */
final class CountingExporter implements SpanExporter {
  private final SpanExporter exporter;
  private final Backlog backlog;

  CountingExporter(SpanExporter exporter, Backlog backlog) {
    this.exporter = exporter;
    this.backlog = backlog;
  }

  @Override
  public CompletableResultCode export(Collection<SpanData> spans) {
    int size = spans.size();
    CompletableResultCode result;
    try {
      result = exporter.export(spans);
    } catch (RuntimeException e) {
      backlog.exported(size);
      backlog.dropped("export_failed", size);
      return CompletableResultCode.ofFailure();
    }
    result.whenComplete(
        () -> {
          backlog.exported(size);
          if (!result.isSuccess()) {
            backlog.dropped("export_failed", size);
          }
        });
    return result;
  }

  @Override
  public CompletableResultCode flush() {
    return exporter.flush();
  }

  @Override
  public CompletableResultCode shutdown() {
    return exporter.shutdown();
  }

  @Override
  public String toString() {
    return "CountingExporter{" + exporter + "}";
  }
}
