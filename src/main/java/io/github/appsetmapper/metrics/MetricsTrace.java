package io.github.appsetmapper.metrics;

import io.github.appsetmapper.engine.Trace;
import io.github.appsetmapper.engine.UpstreamCall;
import io.github.appsetmapper.upstream.cache.SharedCalls;
import io.github.appsetmapper.upstream.call.UpstreamResponse;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/** Records a getparams' upstream calls as metrics and counts them for its log line. */
public final class MetricsTrace implements Trace {
  private final Metrics metrics;
  private final String mapping;
  private final Set<String> hosts;
  private final AtomicInteger calls = new AtomicInteger();

  /**
   * @param hosts the host label values allowed (the hosts the mapping names itself); any other host
   *     is labelled "other"
   */
  public MetricsTrace(Metrics metrics, String mapping, Set<String> hosts) {
    this.metrics = metrics;
    this.mapping = mapping;
    this.hosts = hosts;
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
          hostLabel(host),
          response == null ? "error" : Metrics.statusLabel(response.status()),
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

  @Override
  public void refusedByGuard(String guard) {
    try {
      metrics.guardRefused(mapping, guard);
    } catch (RuntimeException e) {
      // Bookkeeping must never fail a getparams.
    }
  }

  /**
   * A host the mapping names, or "other": next links, redirects and upstream data choose hosts, and
   * each label value is a time series kept for the process's life.
   */
  private String hostLabel(String host) {
    if (host == null) {
      return "none";
    }
    String lower = host.toLowerCase(java.util.Locale.ROOT);
    return hosts.contains(lower) ? lower : "other";
  }

  /** Upstream calls made (shared ones and cache hits not counted). */
  public int calls() {
    return calls.get();
  }
}
