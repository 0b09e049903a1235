package io.github.appsetmapper.diff;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Both sides on one input: what each answered and, when both answered rows, how the rows differ.
 * {@code label} names the input for a person (a test case's name, or the input itself).
 */
public record InputDiff(
    String label,
    String applicationSetName,
    Map<String, Object> input,
    Outcome before,
    Outcome after,
    RowDiff rows,
    ExpectedError expected,
    Rename rename) {

  /**
   * The mapping was renamed: an error the old side quotes its name in ({@code mapping 'old': ...})
   * is the same error as the new side's quoting the new name.
   */
  public record Rename(String from, String to) {
    String asNew(String error) {
      return error == null ? null : error.replace("'" + from + "'", "'" + to + "'");
    }
  }

  /** The error a test case expects: its status, and its message when it names one. */
  public record ExpectedError(int status, String message) {
    boolean matches(Outcome outcome) {
      return outcome.failed()
          && outcome.status() == status
          && (message == null || message.equals(outcome.error()));
    }
  }

  public InputDiff(
      String label,
      String applicationSetName,
      Map<String, Object> input,
      Outcome before,
      Outcome after,
      RowDiff rows) {
    this(label, applicationSetName, input, before, after, rows, null, null);
  }

  /** This input, whose test case expects {@code error} (null: none). */
  public InputDiff expecting(ExpectedError error) {
    return new InputDiff(label, applicationSetName, input, before, after, rows, error, rename);
  }

  /** This input, of a mapping renamed {@code from} to {@code to}. */
  public InputDiff renamed(String from, String to) {
    return new InputDiff(
        label, applicationSetName, input, before, after, rows, expected, new Rename(from, to));
  }

  /** Compares two outcomes, matching rows by {@code key} (empty: whole rows). */
  public static InputDiff of(
      String label,
      String applicationSetName,
      Map<String, Object> input,
      List<String> key,
      Outcome before,
      Outcome after) {
    RowDiff rows =
        before.failed() || after.failed() ? null : RowDiff.of(key, before.rows(), after.rows());
    return new InputDiff(label, applicationSetName, input, before, after, rows);
  }

  /**
   * The label as every output shows it: redacted, then cut by the one cut ({@link
   * io.github.appsetmapper.text.Printable#cut}); an input is its own label, and may be megabytes.
   */
  public String label(java.util.function.UnaryOperator<String> redact) {
    return io.github.appsetmapper.text.Printable.cut(
        redact.apply(label), io.github.appsetmapper.text.Printable.LABEL_CHARS);
  }

  /** Whether anything differs: rows, or an error on either side unless both failed alike. */
  public boolean changed() {
    if (rows != null) {
      return !rows.same();
    }
    return !failedAlike();
  }

  /** Both sides answered the same error (under a rename, but for the name each quotes). */
  public boolean failedAlike() {
    String old = rename == null ? before.error() : rename.asNew(before.error());
    return before.failed()
        && after.failed()
        && before.status() == after.status()
        && Objects.equals(old, after.error());
  }

  /**
   * Nothing was compared: both sides failed alike, and not with the error the input's test case
   * expects (an upstream down, a recording that no longer matches, an input neither side takes).
   */
  public boolean error() {
    return failedAlike() && (expected == null || !expected.matches(after));
  }

  /** One side answered an error the other did not, or another error: a change. */
  public boolean errorChange() {
    return rows == null && !failedAlike();
  }

  /**
   * A gate cannot count the rows this input removes: a side answered an error and the two did not
   * answer alike (one side failed, or both failed differently). Both alike is {@link #error()}, or
   * the answer its test case expects.
   */
  public boolean uncounted() {
    return errorChange();
  }

  public int added() {
    return rows == null ? 0 : rows.added().size();
  }

  public int removed() {
    return rows == null ? 0 : rows.removed().size();
  }

  public int changedRows() {
    return rows == null ? 0 : rows.changed().size();
  }
}
