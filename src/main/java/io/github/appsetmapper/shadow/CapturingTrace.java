package io.github.appsetmapper.shadow;

import io.github.appsetmapper.engine.Trace;
import io.github.appsetmapper.engine.UpstreamCall;
import io.github.appsetmapper.upstream.call.UpstreamResponse;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The live getparams' trace, which also keeps every upstream answer the live call saw (made, shared
 * or from the cache) for its candidate: at most {@code maxBytes} of bodies, past which the
 * candidate asks for itself. Everything is passed on to the live trace unchanged; keeping never
 * throws.
 */
final class CapturingTrace implements Trace {
  private final Trace live;
  private final long maxBytes;
  private final Map<String, UpstreamResponse> answers = new ConcurrentHashMap<>();
  private final Set<String> hosts = ConcurrentHashMap.newKeySet();
  private final AtomicLong bytes = new AtomicLong();

  CapturingTrace(Trace live, long maxBytes) {
    this.live = live;
    this.maxBytes = maxBytes;
  }

  /** The answers kept, by {@link CallKey}. */
  Map<String, UpstreamResponse> answers() {
    return answers;
  }

  /** Bytes of the answers kept. */
  long bytes() {
    return Math.min(bytes.get(), maxBytes);
  }

  /** The hosts the live call reached (for the rate-limit headroom). */
  Set<String> hosts() {
    return hosts;
  }

  @Override
  public void call(UpstreamCall call) {
    live.call(call);
    try {
      if (call.request() != null && call.request().uri().getHost() != null) {
        hosts.add(call.request().uri().getHost());
      }
      UpstreamResponse response = call.response();
      if (response != null) {
        long size = response.body() == null ? 0 : response.body().length;
        if (bytes.addAndGet(size) <= maxBytes) {
          answers.putIfAbsent(CallKey.of(call.request()), response);
        }
      }
    } catch (RuntimeException e) {
      // Keeping answers for a candidate never touches the live call.
    }
  }

  @Override
  public void stage(String stage, int rows) {
    live.stage(stage, rows);
  }

  @Override
  public void dropped(String stage, int row, String label, String reason) {
    live.dropped(stage, row, label, reason);
  }

  @Override
  public boolean explaining() {
    return live.explaining();
  }

  @Override
  public void parameters(int row, String element, Map<String, Object> parameters) {
    live.parameters(row, element, parameters);
  }

  @Override
  public void refusedRequest(String reason) {
    live.refusedRequest(reason);
  }

  @Override
  public void refusedAnswer(String reason) {
    live.refusedAnswer(reason);
  }

  @Override
  public void refusedByGuard(String guard) {
    live.refusedByGuard(guard);
  }

  @Override
  public io.github.appsetmapper.upstream.call.WireTrace wire(String step) {
    return live.wire(step);
  }
}
