package io.github.appsetmapper.config;

import java.util.List;
import java.util.stream.Collectors;

/** A mapping file could not be loaded; carries every problem found in it, not only the first. */
public final class MappingException extends Exception {
  private final List<Problem> problems;

  public MappingException(List<Problem> problems) {
    super(problems.stream().map(Problem::toString).collect(Collectors.joining("\n")));
    this.problems = List.copyOf(problems);
  }

  public List<Problem> problems() {
    return problems;
  }
}
