package io.github.appsetmapper.diff;

import io.github.appsetmapper.text.Plural;
import java.util.List;

/** Every mapping of the two versions, compared; the counts a summary line and a CI gate read. */
public record DiffReport(String before, String after, List<MappingDiff> mappings) {

  public boolean changed() {
    return mappings.stream().anyMatch(MappingDiff::changed);
  }

  public int added() {
    return mappings.stream().mapToInt(MappingDiff::added).sum();
  }

  public int removed() {
    return mappings.stream().mapToInt(MappingDiff::removed).sum();
  }

  public int changedRows() {
    return mappings.stream().mapToInt(MappingDiff::changedRows).sum();
  }

  public int errorChanges() {
    return mappings.stream().mapToInt(MappingDiff::errorChanges).sum();
  }

  public int errors() {
    return mappings.stream().mapToInt(MappingDiff::errors).sum();
  }

  public int inputs() {
    return mappings.stream().mapToInt(m -> m.inputs().size()).sum();
  }

  /** {@code 2 mappings, 5 inputs: 1 added, 3 removed, 2 changed, 1 error change, 0 errors}. */
  public String summary() {
    return Plural.of(mappings.size(), "mapping")
        + ", "
        + Plural.of(inputs(), "input")
        + ": "
        + added()
        + " added, "
        + removed()
        + " removed, "
        + changedRows()
        + " changed, "
        + Plural.of(errorChanges(), "error change")
        + ", "
        + Plural.of(errors(), "error");
  }
}
