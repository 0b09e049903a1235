package io.github.appsetmapper.metrics;

import io.github.appsetmapper.engine.Trace;
import io.github.appsetmapper.engine.UpstreamCall;
import io.github.appsetmapper.upstream.cache.SharedCalls;
import io.github.appsetmapper.upstream.call.UpstreamResponse;
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
  public void call(UpstreamCall call) {
    SharedCalls.Source source = call.source();
    try {
      if (source == SharedCalls.Source.COALESCED || source == SharedCalls.Source.SHARED_COALESCED) {
        metrics.coalescedCall(mapping);
      } else if (source != null && source != SharedCalls.Source.NETWORK) {
        metrics.cache(mapping, source.name().toLowerCase(java.util.Locale.ROOT));
      }
    } catch (RuntimeException e) {
      // Bookkeeping must never fail a getparams.
    }
    if (call.shared()) {
      return;
    }
    calls.incrementAndGet();
    String host = call.request().uri().getHost();
    // A stale answer stands in for a call that failed: counted as the failed call it was.
    UpstreamResponse response = source == SharedCalls.Source.STALE ? null : call.response();
    try {
      metrics.upstream(
          mapping,
          host == null ? "none" : host,
          response == null ? "error" : Integer.toString(response.status()),
          call.nanos());
    } catch (RuntimeException e) {
      // Bookkeeping must never fail a getparams.
    }
  }

  @Override
  public void refusedRequest(String reason) {
    try {
      metrics.refusedRequest(mapping, reason);
    } catch (RuntimeException e) {
      // Bookkeeping must never fail a getparams.
    }
  }

  @Override
  public void refusedAnswer(String reason) {
    try {
      metrics.refusedAnswer(mapping, reason);
    } catch (RuntimeException e) {
      // Bookkeeping must never fail a getparams.
    }
  }

  /** Upstream calls made (shared ones and cache hits not counted). */
  public int calls() {
    return calls.get();
  }
}
