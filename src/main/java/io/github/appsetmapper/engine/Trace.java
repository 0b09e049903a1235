package io.github.appsetmapper.engine;

import io.github.appsetmapper.upstream.UpstreamRequest;
import io.github.appsetmapper.upstream.UpstreamResponse;
import io.github.appsetmapper.upstream.cache.SharedCalls;
import java.util.Map;

/**
 * What happened while answering one getparams, for explain: every upstream call, the rows after
 * each stage, why rows were dropped, each row's parameters. Called from several threads during
 * enrich; implementations must be thread-safe. Values may hold secrets (URLs): redact before
 * showing them.
 */
public interface Trace {
  Trace NONE = new Trace() {};

  /**
   * One upstream call made (or shared with an identical call of the same getparams, {@code
   * shared}). {@code response} is null when the call failed with {@code error}.
   */
  default void call(
      String step,
      UpstreamRequest request,
      UpstreamResponse response,
      String error,
      long nanos,
      int page,
      boolean shared) {}

  /**
   * As {@link #call(String, UpstreamRequest, UpstreamResponse, String, long, int, boolean)}, with
   * where the answer came from: the upstream, the cache (a hit, a 304 revalidation, a stale answer
   * standing in for a failing upstream, {@code staleBecause} saying why) or an identical call in
   * flight for another getparams ({@code COALESCED}). {@code shared} is true when no upstream call
   * was made for it. By default it reports the plain call.
   */
  default void call(
      String step,
      UpstreamRequest request,
      UpstreamResponse response,
      String error,
      long nanos,
      int page,
      boolean shared,
      SharedCalls.Source source,
      String staleBecause) {
    call(step, request, response, error, nanos, page, shared);
  }

  /** The number of rows after a stage: list, enrich.x, filter, sortBy, distinctBy, limit. */
  default void stage(String stage, int rows) {}

  /** A row that a stage dropped, and why. {@code row} is the row's index in the list. */
  default void dropped(String stage, int row, String reason) {}

  /** The parameters of one answered row. */
  default void parameters(int row, Map<String, Object> parameters) {}
}
