package io.github.appsetmapper.engine;

import io.github.appsetmapper.upstream.call.RequestFailure;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

/**
 * One row on its way through the pipeline: the list item and the values enriched (and let) so far.
 * {@code filtered}: the whole filter already passed it before enrich, so it is not evaluated again.
 * {@code element}: which element of its list row an exploded row is ({@code [2]}; empty: none).
 * {@code label}: what the mapping's {@code label} named it (null: none), escaped and shortened.
 * {@code notJson}: the values that are the text of an answer that is not JSON (a whole-body enrich
 * of a request stating no {@code format}), by name, each with the failure that answer is.
 */
record Row(
    int index,
    Object item,
    Map<String, Object> values,
    boolean filtered,
    String element,
    String label,
    Map<String, RequestFailure> notJson) {

  Row(int index, Object item, Map<String, Object> values) {
    this(index, item, values, false, "", null, Map.of());
  }

  Row with(String name, Object value) {
    Map<String, Object> more = new HashMap<>(values);
    more.put(name, value);
    return new Row(
        index, item, Collections.unmodifiableMap(more), filtered, element, label, notJson);
  }

  /**
   * {@link #with}, the value the text of an answer that is not JSON ({@code why}, {@link
   * Page#notJson}): an expression that fails reading it fails as that answer, a 502.
   */
  Row withText(String name, Object value, RequestFailure why) {
    Row row = with(name, value);
    if (why == null) {
      return row;
    }
    Map<String, RequestFailure> more = new HashMap<>(notJson);
    more.put(name, why);
    return new Row(
        index, item, row.values, filtered, element, label, Collections.unmodifiableMap(more));
  }

  Row passedFilter() {
    return new Row(index, item, values, true, element, label, notJson);
  }

  /** Element {@code number} of this row's exploded list, holding it as {@code name}. */
  Row element(int number, String name, Object value) {
    return new Row(index, item, values, filtered, element + "[" + number + "]", label, notJson)
        .with(name, value);
  }

  Row labelled(String text) {
    return new Row(index, item, values, filtered, element, text, notJson);
  }

  /** How messages name the row: {@code 3}, {@code 3[1]}, {@code 3 (meta-web)}. */
  String named() {
    return index + element + (label == null ? "" : " (" + label + ")");
  }
}
