package io.github.appsetmapper.engine;

import java.util.List;
import java.util.Map;

/**
 * A getparams answer: the parameters, why some upstream answers came from the cache in place of a
 * failing upstream ({@code stale}, empty when none did), whether it was computed for an identical
 * getparams in flight and shared ({@code coalesced}), and its wire JSON in UTF-8 ({@code body},
 * {@link AnswerBody#bytes}) when the engine wrote it within the deadline ({@link Engine#answer};
 * null from {@link Engine#execute}): the bytes sent as they are, never to be changed (a coalesced
 * answer's are shared).
 */
public record Answer(
    List<Map<String, Object>> parameters, List<String> stale, boolean coalesced, byte[] body) {
  public Answer {
    stale = List.copyOf(stale);
  }

  public boolean isStale() {
    return !stale.isEmpty();
  }
}
