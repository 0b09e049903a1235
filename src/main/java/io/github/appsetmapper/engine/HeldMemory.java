package io.github.appsetmapper.engine;

import io.github.appsetmapper.upstream.cache.MemoryBudget;
import io.github.appsetmapper.upstream.call.RequestFailure;
import io.github.appsetmapper.upstream.call.UpstreamRequest;
import io.github.appsetmapper.upstream.call.UpstreamResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * What one getparams holds of the server's {@link MemoryBudget}: the answers' bodies (a body shared
 * with others counted once), and estimates of what they become (parsed JSON, rows, parameter maps).
 * All is given back at once when the getparams has answered; what arrives later (a cancelled enrich
 * still finishing) holds nothing.
 */
final class HeldMemory {
  private final MemoryBudget budget;
  private final Consumer<String> refused;
  private final List<byte[]> bodies = new ArrayList<>();
  private long reserved;
  private boolean released;

  /** {@code refused} hears "memory-budget" for every refusal (the metric). */
  HeldMemory(MemoryBudget budget, Consumer<String> refused) {
    this.budget = budget;
    this.refused = refused;
  }

  /** Holds an answer's body, or refuses the call with a 503 naming the budget. */
  void body(UpstreamRequest request, UpstreamResponse response) throws RequestFailure {
    if (!budget.hold(response.body())) {
      refused.accept("memory-budget");
      throw RequestFailure.of(
          request,
          "answer of "
              + response.body().length
              + " bytes refused: the memory budget for upstream answers ("
              + budget.total()
              + " bytes) is in use; retry later or raise --memory-budget",
          RequestFailure.Kind.OVERLOAD);
    }
    synchronized (bodies) {
      if (released) {
        budget.release(response.body());
      } else {
        bodies.add(response.body());
      }
    }
  }

  /**
   * Holds {@code bytes} of data built from answers; {@code what} (plural: "... do not fit") names
   * it in the 503, with the {@code call} it came from (or null: the answer being written).
   */
  void reserve(long bytes, UpstreamRequest call, String what) throws RequestFailure {
    synchronized (bodies) {
      if (released) {
        return;
      }
      if (!budget.reserve(bytes)) {
        refused.accept("memory-budget");
        String detail =
            what
                + (bytes > budget.total()
                    ? " exceed the memory budget for upstream answers ("
                        + budget.total()
                        + " bytes); raise --memory-budget"
                    : " do not fit the memory budget for upstream answers ("
                        + budget.total()
                        + " bytes, "
                        + budget.inUse()
                        + " in use); retry later or raise --memory-budget");
        throw call == null
            ? new RequestFailure(detail, RequestFailure.Kind.OVERLOAD)
            : RequestFailure.of(call, detail, RequestFailure.Kind.OVERLOAD);
      }
      reserved += bytes;
    }
  }

  /** Gives everything back. */
  void release() {
    synchronized (bodies) {
      released = true;
      for (byte[] body : bodies) {
        budget.release(body);
      }
      bodies.clear();
      budget.unreserve(reserved);
      reserved = 0;
    }
  }
}
