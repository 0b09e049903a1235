package io.github.appsetmapper.replay;

import io.github.appsetmapper.upstream.call.RequestFailure;
import io.github.appsetmapper.upstream.call.Upstream;
import io.github.appsetmapper.upstream.call.UpstreamRequest;
import io.github.appsetmapper.upstream.call.UpstreamResponse;
import java.util.ArrayList;
import java.util.List;

/**
 * Passes every call on to the real upstream and keeps each request with its answer, in the order
 * they were made ({@code record}): token, login and registry calls included, as they went out,
 * credentials and all, so they stay in memory only until {@link SecretScrubber} has replaced them.
 * A call that got no answer (a refused connection) is kept as a failure: a test file cannot record
 * it.
 */
public final class CapturingUpstream implements Upstream {
  /** One call: its answer, or why there was none. */
  public record Captured(UpstreamRequest request, UpstreamResponse response, String failure) {}

  private final Upstream next;
  private final List<Captured> captured = new ArrayList<>();

  public CapturingUpstream(Upstream next) {
    this.next = next;
  }

  @Override
  public UpstreamResponse exchange(UpstreamRequest request) throws RequestFailure {
    try {
      UpstreamResponse response = next.exchange(request);
      keep(new Captured(request, response, null));
      return response;
    } catch (RequestFailure e) {
      keep(new Captured(request, null, request.describe() + ": " + e.getMessage()));
      throw e;
    }
  }

  private synchronized void keep(Captured call) {
    captured.add(call);
  }

  /** The calls made so far, in order. */
  public synchronized List<Captured> captured() {
    return List.copyOf(captured);
  }

  @Override
  public void close() {
    next.close();
  }
}
