package io.github.appsetmapper.engine;

import java.util.List;
import java.util.Map;

/**
 * A getparams answer: the parameters, why some upstream answers came from the cache in place of a
 * failing upstream ({@code stale}, empty when none did), whether it was computed for an identical
 * getparams in flight and shared ({@code coalesced}), and its wire JSON ({@code body}, {@link
 * AnswerBody}) when the engine wrote it within the deadline ({@link Engine#answer}; null from
 * {@link Engine#execute}).
 */
public record Answer(
    List<Map<String, Object>> parameters, List<String> stale, boolean coalesced, String body) {
  public Answer {
    stale = List.copyOf(stale);
  }

  public boolean isStale() {
    return !stale.isEmpty();
  }
}
