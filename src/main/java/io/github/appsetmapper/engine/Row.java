package io.github.appsetmapper.engine;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

/** One row on its way through the pipeline: the list item and the values enriched so far. */
record Row(int index, Object item, Map<String, Object> values) {

  Row with(String name, Object value) {
    Map<String, Object> more = new HashMap<>(values);
    more.put(name, value);
    return new Row(index, item, Collections.unmodifiableMap(more));
  }
}
