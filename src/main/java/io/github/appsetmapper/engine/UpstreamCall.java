package io.github.appsetmapper.engine;

import io.github.appsetmapper.upstream.cache.SharedCalls;
import io.github.appsetmapper.upstream.call.UpstreamRequest;
import io.github.appsetmapper.upstream.call.UpstreamResponse;

/**
 * One upstream call as a {@link Trace} sees it. {@code response} is null when it failed with {@code
 * error}. {@code shared} is true when no upstream call was made for it (an identical call of the
 * same getparams, a cache hit). {@code source} says where the answer came from (null when the call
 * was shared within the getparams or failed); {@code staleBecause} why a stale answer stood in.
 * {@code startedAt}: {@link System#nanoTime()} when it started (0: not known, then it is taken as
 * {@code nanos} before it was told), so that explain orders calls exactly.
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
    String staleBecause,
    long startedAt) {

  public UpstreamCall(
      String step,
      UpstreamRequest request,
      UpstreamResponse response,
      String error,
      long nanos,
      int page,
      boolean shared,
      SharedCalls.Source source,
      String staleBecause) {
    this(step, request, response, error, nanos, page, shared, source, staleBecause, 0);
  }

  static UpstreamCall failed(
      String step, UpstreamRequest request, String error, long nanos, int page, long startedAt) {
    return new UpstreamCall(step, request, null, error, nanos, page, false, null, null, startedAt);
  }
}
