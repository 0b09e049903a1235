package io.github.appsetmapper.metrics;

import io.github.appsetmapper.engine.Trace;
import io.github.appsetmapper.upstream.UpstreamRequest;
import io.github.appsetmapper.upstream.UpstreamResponse;
import java.util.concurrent.atomic.AtomicInteger;

/** Records a getparams' upstream calls as metrics and counts them for its log line. */
public final class MetricsTrace implements Trace {
  private final Metrics metrics;
  private final String mapping;
  private final AtomicInteger calls = new AtomicInteger();

  public MetricsTrace(Metrics metrics, String mapping) {
    this.metrics = metrics;
    this.mapping = mapping;
  }

  @Override
  public void call(
      String step,
      UpstreamRequest request,
      UpstreamResponse response,
      String error,
      long nanos,
      int page,
      boolean shared) {
    if (shared) {
      return;
    }
    calls.incrementAndGet();
    String host = request.uri().getHost() == null ? "none" : request.uri().getHost();
    try {
      metrics.upstream(
          mapping, host, response == null ? "error" : Integer.toString(response.status()), nanos);
    } catch (RuntimeException e) {
      // Bookkeeping must never fail a getparams.
    }
  }

  /** Upstream calls made (shared ones not counted). */
  public int calls() {
    return calls.get();
  }
}
