package io.github.appsetmapper.diff.run;

import io.github.appsetmapper.upstream.call.RequestFailure;
import io.github.appsetmapper.upstream.call.Upstream;
import io.github.appsetmapper.upstream.call.UpstreamRequest;
import io.github.appsetmapper.upstream.call.UpstreamResponse;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Each distinct upstream call made once, its answer (or failure) given to every later identical
 * call: both sides of a diff see the same moment of the upstream, and it is asked once. Calls are
 * identical when method, URL, headers, body, the identity of token auth and the allowed hosts are.
 * Closing it leaves the transport under it open: its owner closes that.
 */
final class OnceUpstream implements Upstream {
  private record Result(UpstreamResponse response, RequestFailure failure) {}

  private final Upstream next;
  private final ConcurrentHashMap<String, CompletableFuture<Result>> calls =
      new ConcurrentHashMap<>();
  private final AtomicInteger made = new AtomicInteger();

  OnceUpstream(Upstream next) {
    this.next = next;
  }

  @Override
  public UpstreamResponse exchange(UpstreamRequest request) throws RequestFailure {
    String key = request.callKey();
    CompletableFuture<Result> mine = new CompletableFuture<>();
    CompletableFuture<Result> first = calls.putIfAbsent(key, mine);
    Result result;
    if (first == null) {
      made.incrementAndGet();
      try {
        result = new Result(next.exchange(request), null);
      } catch (RequestFailure e) {
        result = new Result(null, e);
      } catch (RuntimeException e) {
        mine.completeExceptionally(e);
        throw e;
      }
      mine.complete(result);
    } else {
      try {
        result = first.get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw RequestFailure.of(request, "interrupted while an identical call was made");
      } catch (ExecutionException e) {
        throw RequestFailure.of(request, "the identical call failed: " + e.getCause());
      }
    }
    if (result.failure() != null) {
      throw result.failure();
    }
    return result.response();
  }

  /** Distinct calls made to the transport. */
  int made() {
    return made.get();
  }

  @Override
  public void close() {
    // The transport belongs to the run, which closes it once both sides are done.
  }
}
