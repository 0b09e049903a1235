package io.github.appsetmapper.diff;

import io.github.appsetmapper.text.Plural;
import java.util.List;
import java.util.Map;

/**
 * What one side answered for one input: its parameter maps, or an error status and its one line.
 * Two errors with the same status and message are the same outcome; any other pair of errors, or an
 * error beside rows, is a change.
 */
public record Outcome(List<Map<String, Object>> rows, int status, String error) {
  public static Outcome rows(List<Map<String, Object>> rows) {
    return new Outcome(List.copyOf(rows), 200, null);
  }

  public static Outcome failed(int status, String message) {
    return new Outcome(null, status, message);
  }

  public boolean failed() {
    return rows == null;
  }

  /** {@code 12 rows} or {@code error 502: ...}. */
  public String describe() {
    return failed() ? "error " + status + ": " + error : Plural.of(rows.size(), "row");
  }
}
