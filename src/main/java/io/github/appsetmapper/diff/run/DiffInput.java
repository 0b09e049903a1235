package io.github.appsetmapper.diff.run;

import io.github.appsetmapper.replay.RecordedExchange;
import java.util.List;
import java.util.Map;

/**
 * One input both sides run on: a label for people, the ApplicationSet name, the input parameters,
 * and the recorded exchanges that answer its calls (null: the run's transport answers them).
 */
public record DiffInput(
    String label,
    String applicationSetName,
    Map<String, Object> input,
    List<RecordedExchange> exchanges) {}
