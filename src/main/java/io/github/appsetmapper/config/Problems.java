package io.github.appsetmapper.config;

import java.util.ArrayList;
import java.util.List;

/** Collects the problems of one load so that a file reports all of its errors at once. */
public final class Problems {
  private final List<Problem> list = new ArrayList<>();

  public void add(Pos pos, String message) {
    list.add(new Problem(pos, message));
  }

  public void add(Problem problem) {
    list.add(problem);
  }

  public boolean isEmpty() {
    return list.isEmpty();
  }

  public List<Problem> list() {
    return List.copyOf(list);
  }

  /** Throws with the problems in the order of the file, whatever order they were found in. */
  public void throwIfAny() throws MappingException {
    throwIfAny(List.of());
  }

  /**
   * As {@link #throwIfAny()}, the exception carrying {@code partial}: what was read of the file
   * despite its problems, for a caller that reports the problems found later too.
   */
  void throwIfAny(List<MappingSpec> partial) throws MappingException {
    if (!list.isEmpty()) {
      List<Problem> sorted = new ArrayList<>(list);
      sorted.sort(
          java.util.Comparator.comparing((Problem p) -> p.pos().file())
              .thenComparingInt(p -> p.pos().line())
              .thenComparingInt(p -> p.pos().column()));
      throw new MappingException(sorted, partial);
    }
  }
}
