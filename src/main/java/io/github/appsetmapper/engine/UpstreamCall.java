package io.github.appsetmapper.engine;

import io.github.appsetmapper.upstream.cache.SharedCalls;
import io.github.appsetmapper.upstream.call.UpstreamRequest;
import io.github.appsetmapper.upstream.call.UpstreamResponse;

/**
 * One upstream call as a {@link Trace} sees it. {@code response} is null when it failed with {@code
 * error}. {@code shared} is true when no upstream call was made for it (an identical call of the
 * same getparams, a cache hit). {@code source} says where the answer came from (null when the call
 * was shared within the getparams or failed); {@code staleBecause} why a stale answer stood in.
 */
public record UpstreamCall(
    String step,
    UpstreamRequest request,
    UpstreamResponse response,
    String error,
    long nanos,
    int page,
    boolean shared,
    SharedCalls.Source source,
    String staleBecause) {

  static UpstreamCall failed(
      String step, UpstreamRequest request, String error, long nanos, int page) {
    return new UpstreamCall(step, request, null, error, nanos, page, false, null, null);
  }
}
