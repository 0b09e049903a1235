package io.github.appsetmapper.config;

import java.util.List;
import java.util.stream.Collectors;

/** A mapping file could not be loaded; carries every problem found in it, not only the first. */
public final class MappingException extends Exception {
  private final List<Problem> problems;
  private final transient List<MappingSpec> partial;

  public MappingException(List<Problem> problems) {
    this(problems, List.of());
  }

  /** With what was read of the file despite its problems ({@link #partial}). */
  public MappingException(List<Problem> problems, List<MappingSpec> partial) {
    super(problems.stream().map(Problem::toString).collect(Collectors.joining("\n")));
    this.problems = List.copyOf(problems);
    this.partial = List.copyOf(partial);
  }

  /**
   * The mappings of a file that did not parse, read as far as they could be (a field in error is
   * left out): compiled only to report their further problems with these, never to be served.
   */
  public List<MappingSpec> partial() {
    return partial;
  }

  public List<Problem> problems() {
    return problems;
  }
}
