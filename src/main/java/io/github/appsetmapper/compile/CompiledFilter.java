package io.github.appsetmapper.compile;

import java.util.List;

/**
 * The mapping's {@code filter}, with its parts when it is an {@code and} (or an {@code or}) of
 * several. A part's {@code needs} is how many enrich steps must have run before it can be evaluated
 * (0: it reads no enrich result, so it runs right after the list). The leading parts of an {@code
 * and} that need no more than the steps run so far drop rows before the next enrich makes its
 * calls; an {@code or}, or a single expression, runs once all it reads is there. The parts also let
 * explain say which one was false.
 */
public record CompiledFilter(CompiledExpression whole, Joiner joiner, List<Part> parts) {

  /** How the parts make the whole: a single expression, or an {@code and}/{@code or} of parts. */
  public enum Joiner {
    NONE,
    AND,
    OR
  }

  /** One operand of the top-level {@code and}/{@code or} (for NONE, the whole filter). */
  public record Part(CompiledExpression expression, int needs) {}

  public CompiledFilter {
    parts = List.copyOf(parts);
  }

  /**
   * How many of the leading parts can be evaluated once {@code steps} enrich steps have run: for an
   * {@code and} each leading part that needs no more; otherwise all of them or none.
   */
  public int runnableAfter(int steps) {
    if (joiner == Joiner.AND) {
      int n = 0;
      while (n < parts.size() && parts.get(n).needs() <= steps) {
        n++;
      }
      return n;
    }
    return needs() <= steps ? parts.size() : 0;
  }

  /** How many enrich steps the whole filter needs. */
  public int needs() {
    return parts.stream().mapToInt(Part::needs).max().orElse(0);
  }
}
