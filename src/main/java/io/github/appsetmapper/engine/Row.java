package io.github.appsetmapper.engine;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

/**
 * One row on its way through the pipeline: the list item and the values enriched so far. {@code
 * filtered}: the whole filter already passed it before enrich, so it is not evaluated again.
 */
record Row(int index, Object item, Map<String, Object> values, boolean filtered) {

  Row(int index, Object item, Map<String, Object> values) {
    this(index, item, values, false);
  }

  Row with(String name, Object value) {
    Map<String, Object> more = new HashMap<>(values);
    more.put(name, value);
    return new Row(index, item, Collections.unmodifiableMap(more), filtered);
  }

  Row passedFilter() {
    return new Row(index, item, values, true);
  }
}
