package io.github.appsetmapper.diff.run;

import io.github.appsetmapper.diff.InputDiff;
import io.github.appsetmapper.replay.RecordedExchange;
import io.github.appsetmapper.replay.ReplayCase;
import java.util.List;
import java.util.Map;

/**
 * One input both sides run on: a label for people, the ApplicationSet name, the input parameters,
 * the recorded exchanges that answer its calls (null: the run's transport answers them), and the
 * error a test case expects (null: none), which both sides answering is their answer, not an error.
 */
public record DiffInput(
    String label,
    String applicationSetName,
    Map<String, Object> input,
    List<RecordedExchange> exchanges,
    InputDiff.ExpectedError expected) {

  public DiffInput(
      String label,
      String applicationSetName,
      Map<String, Object> input,
      List<RecordedExchange> exchanges) {
    this(label, applicationSetName, input, exchanges, null);
  }

  /** A test case as an input: its error expectation comes with it. */
  public static DiffInput of(ReplayCase c, boolean recorded) {
    return new DiffInput(
        c.name(),
        c.applicationSetName(),
        c.input(),
        recorded ? c.exchanges() : null,
        c.expectStatus() == null
            ? null
            : new InputDiff.ExpectedError(c.expectStatus(), c.expectMessage()));
  }
}
