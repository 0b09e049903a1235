package io.github.appsetmapper.diff;

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

  public int errors() {
    return mappings.stream().mapToInt(MappingDiff::errors).sum();
  }

  public int inputs() {
    return mappings.stream().mapToInt(m -> m.inputs().size()).sum();
  }

  /** {@code 2 mapping(s), 5 input(s): 1 added, 3 removed, 2 changed, 0 error(s)}. */
  public String summary() {
    return mappings.size()
        + " mapping(s), "
        + inputs()
        + " input(s): "
        + added()
        + " added, "
        + removed()
        + " removed, "
        + changedRows()
        + " changed, "
        + errors()
        + " error(s)";
  }
}
