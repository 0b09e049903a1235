package io.github.appsetmapper.engine;

import io.github.appsetmapper.compile.CompiledMapping;
import io.github.appsetmapper.config.Durations;
import io.github.appsetmapper.upstream.call.RequestFailure;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Identical getparams in flight, computed once: same compiled mapping (a reload makes a new one),
 * same input, same ApplicationSet. Argo CD asks the same question many times at once (a Matrix
 * element per generator, several reconciles); every caller gets the first one's answer or error.
 */
final class SharedAnswers {
  /** Computes one answer. */
  @FunctionalInterface
  interface Computation {
    Answer run() throws RequestFailure;
  }

  /** The compiled mapping compared by identity: two loads of one file are two mappings. */
  private record Key(Identity mapping, Map<String, Object> input, String applicationSet) {}

  private static final class Identity {
    private final Object target;

    Identity(Object target) {
      this.target = target;
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof Identity that && that.target == target;
    }

    @Override
    public int hashCode() {
      return System.identityHashCode(target);
    }
  }

  private final ConcurrentHashMap<Key, CompletableFuture<Answer>> inFlight =
      new ConcurrentHashMap<>();
  private final java.util.concurrent.atomic.AtomicInteger waiting =
      new java.util.concurrent.atomic.AtomicInteger();

  /** Getparams waiting now for the answer of an identical one in flight. */
  int waiting() {
    return waiting.get();
  }

  Answer compute(CompiledMapping mapping, Invocation invocation, Computation computation)
      throws RequestFailure {
    if (!Engine.makesCalls(mapping)) {
      // Nothing to share: computing it again costs less than keying it.
      return computation.run();
    }
    // The input itself is the key (maps compare by content): no rendering, no digest.
    Key key =
        new Key(new Identity(mapping), invocation.parameters(), invocation.applicationSetName());
    CompletableFuture<Answer> mine = new CompletableFuture<>();
    CompletableFuture<Answer> existing = inFlight.putIfAbsent(key, mine);
    if (existing != null) {
      Answer shared;
      waiting.incrementAndGet();
      try {
        shared = await(existing, mapping);
      } finally {
        waiting.decrementAndGet();
      }
      // The leader's body too: written once, within the leader's deadline (which ends first).
      return new Answer(shared.parameters(), shared.stale(), true, shared.body());
    }
    try {
      Answer answer = computation.run();
      // Out of the map before it completes: a getparams arriving from now on computes afresh
      // rather than taking an answer that is already finished (only a cache may do that).
      inFlight.remove(key, mine);
      mine.complete(answer);
      return answer;
    } catch (RequestFailure | RuntimeException | Error e) {
      inFlight.remove(key, mine);
      mine.completeExceptionally(e);
      throw e;
    } finally {
      inFlight.remove(key, mine);
    }
  }

  /**
   * Waits for the first caller, at most this caller's own deadline: the first one is bounded by its
   * deadline too, but a wait must never rest on another computation keeping its word.
   */
  private static Answer await(CompletableFuture<Answer> leader, CompiledMapping mapping)
      throws RequestFailure {
    try {
      return leader.get(Waits.nanos(mapping.deadline()), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      throw new RequestFailure(
              "deadline "
                  + Durations.format(mapping.deadline())
                  + " exceeded waiting for an identical getparams in flight",
              RequestFailure.Kind.DEADLINE)
          .inMapping(mapping.name());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RequestFailure("interrupted while waiting for an identical getparams");
    } catch (ExecutionException e) {
      throw RequestFailure.unwrap(e).copy();
    }
  }
}
