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
}
