package io.github.appsetmapper.replay;

import java.util.List;
import java.util.Map;

/**
 * A case of a mapping test file: an input, the exchanges it expects, and the expected answer:
 * {@code parameters}, or an error {@code status} and its exact {@code message}. {@code baseline}
 * (null: none) is the row count of the previous answer, for {@code maxDrop}.
 */
public record ReplayCase(
    String name,
    String applicationSetName,
    Map<String, Object> input,
    List<RecordedExchange> exchanges,
    List<Map<String, Object>> expectParameters,
    Integer expectStatus,
    String expectMessage,
    Integer baseline) {}
