package io.github.appsetmapper.engine;

import io.github.appsetmapper.compile.CompiledMapping;
import io.github.appsetmapper.text.Plural;
import io.github.appsetmapper.upstream.call.Deadline;
import io.github.appsetmapper.upstream.call.RequestFailure;

/**
 * The last step: an answer that looks wrong is refused so that Argo CD keeps its Applications, with
 * fewer rows than {@code minItems}, or fewer than {@code maxDrop} allows below the last good answer
 * ({@link DropGuard}).
 */
final class AnswerGuards {
  private AnswerGuards() {}

  static void check(
      CompiledMapping mapping,
      DropGuard guard,
      String inputKey,
      String applicationSet,
      int rows,
      Deadline deadline)
      throws RequestFailure {
    if (rows < mapping.minItems()) {
      throw RequestFailure.guard(
          "the answer has "
              + Plural.of(rows, "row")
              + ", fewer than minItems ("
              + mapping.minItems()
              + "); refused so that Argo CD keeps its Applications");
    }
    guard.check(mapping.name(), mapping.maxDrop(), inputKey, applicationSet, rows, deadline);
  }

  /** Tells the trace which guard refused the answer: minItems, maxDrop, or maxDrop_unknown. */
  static void refusedBy(Trace trace, CompiledMapping mapping, int rows, RequestFailure failure) {
    try {
      if (failure.kind() == RequestFailure.Kind.GUARD) {
        trace.refusedByGuard(rows < mapping.minItems() ? "minItems" : "maxDrop");
      } else if (failure.kind() == RequestFailure.Kind.GUARD_UNKNOWN) {
        trace.refusedByGuard("maxDrop_unknown");
      }
    } catch (RuntimeException e) {
      // Bookkeeping never changes an answer.
    }
  }
}
