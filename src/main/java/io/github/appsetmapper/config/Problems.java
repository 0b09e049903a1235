package io.github.appsetmapper.config;

import java.util.ArrayList;
import java.util.List;

/** Collects the problems of one load so that a file reports all of its errors at once. */
public final class Problems {
  private final List<Problem> list = new ArrayList<>();

  public void add(Pos pos, String message) {
    list.add(new Problem(pos, message));
  }

  public boolean isEmpty() {
    return list.isEmpty();
  }

  public List<Problem> list() {
    return List.copyOf(list);
  }

  public void throwIfAny() throws MappingException {
    if (!list.isEmpty()) {
      throw new MappingException(list);
    }
  }
}
