package io.github.appsetmapper.engine;

import io.github.appsetmapper.upstream.call.WireTrace;
import java.util.Map;

/**
 * What happened while answering one getparams, for explain: every upstream call, the rows after
 * each stage, why rows were dropped, each row's parameters. Called from several threads during
 * enrich; implementations must be thread-safe. Values may hold secrets (URLs): redact before
 * showing them.
 */
public interface Trace {
  Trace NONE = new Trace() {};

  /** One upstream call, made, shared or answered from the cache. */
  default void call(UpstreamCall call) {}

  /** The number of rows after a stage: list, enrich.x, filter, sortBy, distinctBy, limit. */
  default void stage(String stage, int rows) {}

  /**
   * A row that a stage dropped, and why. {@code row} is the row's index in the list; {@code label}
   * what a person knows it by (its name, id, or first parameter; null when none), given only when
   * {@link #explaining()}.
   */
  default void dropped(String stage, int row, String label, String reason) {}

  /** Whether this trace shows what it is told to a person, so words worth computing. */
  default boolean explaining() {
    return false;
  }

  /**
   * The parameters of one answered row: {@code row}, its source row, and {@code element}, which
   * element of that row's exploded list it is ({@code [1]}; empty when not exploded).
   */
  default void parameters(int row, String element, Map<String, Object> parameters) {}

  /**
   * A request refused before it was sent because it would have gone where it must not: {@code
   * path-segment} (a segment that climbs) or {@code header-value} (a line break or control
   * character).
   */
  default void refusedRequest(String reason) {}

  /**
   * An upstream answer refused as incomplete or unreadable, and why ({@code duplicate-key}, {@code
   * missing-container}, {@code incomplete-status}, {@code memory-budget} ...).
   */
  default void refusedAnswer(String reason) {}

  /**
   * The answer was refused by a guard so that Argo CD keeps its Applications: {@code minItems},
   * {@code maxDrop}, or {@code maxDrop_unknown} (no baseline could be read).
   */
  default void refusedByGuard(String guard) {}

  /**
   * Who traces the calls of {@code step} on the wire (distributed tracing); {@link WireTrace#NONE}
   * unless tracing is on. A trace that wraps another passes this on.
   */
  default WireTrace wire(String step) {
    return WireTrace.NONE;
  }
}
