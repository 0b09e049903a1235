package io.github.appsetmapper.diff;

import io.github.appsetmapper.text.Plural;
import java.util.ArrayList;
import java.util.List;

/**
 * A CI gate on vanishing Applications only: {@code --fail-on removed} (any row removed, or a
 * mapping gone) and {@code --max-removed} (more rows removed on one input than a count or a
 * percentage of that input's old rows, or a mapping gone: all of its rows, but under 100%). Rows
 * added or changed never trip it.
 */
public record Gate(boolean failOnRemoved, Integer maxRemovedPercent, Integer maxRemovedCount) {
  public static final Gate NONE = new Gate(false, null, null);

  public boolean active() {
    return failOnRemoved || maxRemovedPercent != null || maxRemovedCount != null;
  }

  /**
   * How many inputs this gate cannot judge: a side answered an error and the two did not answer
   * alike, so the rows it removes cannot be counted. A gate never passes on them.
   */
  public static int uncounted(DiffReport report) {
    return (int)
        report.mappings().stream()
            .flatMap(m -> m.inputs().stream())
            .filter(InputDiff::uncounted)
            .count();
  }

  /**
   * A mapping gone removes every row it answered (its old version is not run, so they are not
   * counted): it trips {@code --fail-on removed} and every {@code --max-removed} but {@code 100%}.
   */
  private boolean tripsOnRemovedMapping() {
    return failOnRemoved
        || maxRemovedCount != null
        || (maxRemovedPercent != null && maxRemovedPercent < 100);
  }

  /** {@code 10%} or {@code 10}; null when it is neither. */
  public static Gate maxRemoved(String text, boolean failOnRemoved) {
    String t = text.trim();
    try {
      if (t.endsWith("%")) {
        int percent = Integer.parseInt(t.substring(0, t.length() - 1).trim());
        return percent < 0 || percent > 100 ? null : new Gate(failOnRemoved, percent, null);
      }
      int count = Integer.parseInt(t);
      return count < 0 ? null : new Gate(failOnRemoved, null, count);
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /**
   * Why the gate trips on this report, one line each (input labels redacted by {@code redact}, then
   * cut); empty when it passes.
   */
  public List<String> trips(DiffReport report, java.util.function.UnaryOperator<String> redact) {
    List<String> out = new ArrayList<>();
    for (MappingDiff m : report.mappings()) {
      if (m.presence() == MappingDiff.Presence.REMOVED && tripsOnRemovedMapping()) {
        out.add("mapping " + m.name() + " is removed");
      }
      for (InputDiff i : m.inputs()) {
        if (i.rows() == null) {
          continue;
        }
        int removed = i.rows().removed().size();
        int old = i.rows().oldRows();
        if (failOnRemoved && removed > 0) {
          out.add(m.name() + " " + i.label(redact) + ": " + Plural.of(removed, "row") + " removed");
        } else if (maxRemovedCount != null && removed > maxRemovedCount) {
          out.add(
              m.name()
                  + " "
                  + i.label(redact)
                  + ": "
                  + Plural.of(removed, "row")
                  + " removed, over "
                  + maxRemovedCount);
        } else if (maxRemovedPercent != null
            && old > 0
            && (long) removed * 100 > (long) maxRemovedPercent * old) {
          out.add(
              m.name()
                  + " "
                  + i.label(redact)
                  + ": "
                  + removed
                  + " of "
                  + Plural.of(old, "row")
                  + " removed, over "
                  + maxRemovedPercent
                  + "%");
        }
      }
    }
    return out;
  }
}
