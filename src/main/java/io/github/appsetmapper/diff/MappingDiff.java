package io.github.appsetmapper.diff;

import java.util.List;

/**
 * One mapping across the two versions: whether it is new, gone, renamed or on both sides, its key,
 * and both sides on each input. {@code note} says why nothing was compared (no input for it), or is
 * null.
 */
public record MappingDiff(
    String name,
    String previousName,
    Presence presence,
    List<String> key,
    List<InputDiff> inputs,
    String note) {

  /** Where the mapping is. */
  public enum Presence {
    BOTH,
    ADDED,
    REMOVED,
    RENAMED;

    @Override
    public String toString() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /**
   * Whether this mapping changes anything: it appeared, vanished, was renamed (its old name's URL,
   * which ApplicationSets call, answers 404 after the change), or an input differs.
   */
  public boolean changed() {
    return presence != Presence.BOTH || inputs.stream().anyMatch(InputDiff::changed);
  }

  public int added() {
    return inputs.stream().mapToInt(InputDiff::added).sum();
  }

  public int removed() {
    return inputs.stream().mapToInt(InputDiff::removed).sum();
  }

  public int changedRows() {
    return inputs.stream().mapToInt(InputDiff::changedRows).sum();
  }

  /** Inputs on which one side answered an error the other did not (or another error). */
  public int errorChanges() {
    return (int) inputs.stream().filter(InputDiff::errorChange).count();
  }

  /** Inputs both sides failed alike, not as their test case expects: nothing compared. */
  public int errors() {
    return (int) inputs.stream().filter(InputDiff::error).count();
  }
}
