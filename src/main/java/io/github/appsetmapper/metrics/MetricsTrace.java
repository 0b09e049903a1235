package io.github.appsetmapper.metrics;

import io.github.appsetmapper.engine.Trace;
import io.github.appsetmapper.upstream.UpstreamRequest;
import io.github.appsetmapper.upstream.UpstreamResponse;
import io.github.appsetmapper.upstream.cache.SharedCalls;
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
      boolean shared,
      SharedCalls.Source source,
      String staleBecause) {
    try {
      if (source == SharedCalls.Source.COALESCED) {
        metrics.coalescedCall(mapping);
      } else if (source != SharedCalls.Source.NETWORK) {
        metrics.cache(mapping, source.name().toLowerCase(java.util.Locale.ROOT));
      }
    } catch (RuntimeException e) {
      // Bookkeeping must never fail a getparams.
    }
    // A stale answer stands in for a call that failed: counted as the failed call it was.
    call(
        step,
        request,
        source == SharedCalls.Source.STALE ? null : response,
        error,
        nanos,
        page,
        shared);
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

  /** Upstream calls made (shared ones and cache hits not counted). */
  public int calls() {
    return calls.get();
  }
}
