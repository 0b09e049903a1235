package io.github.appsetmapper.engine;

import io.github.appsetmapper.engine.NextPageSignals.Signal;
import io.github.appsetmapper.engine.NextPageSignals.Test;
import java.util.List;
import java.util.Map;

/**
 * What a page's body says of the page after it, in the spellings of {@link NextPageSignals#TABLE}
 * the {@code page} mode is suggested for (Spring Data's {@code last}, a {@code next_page} number, a
 * pagination object's {@code next_page}, {@code has_next_page} and {@code hasNextPage}), each in
 * every spelling the table reads ({@code true}/{@code false}, the words as strings, {@code
 * 1}/{@code 0}). {@code more}: a page follows; else this is the last page, which a real API answers
 * past with a 404 or its last page again. A body saying both is read as saying more (rows are never
 * dropped on a contradiction: the walk goes on and its guards judge the next page).
 *
 * @param said what the body said, as a promise names it ({@code $.pagination.has_next_page: true})
 */
record PageBodySignal(boolean more, String said) {

  /** The rows the page mode reads. */
  private static final List<Signal> ROWS =
      NextPageSignals.TABLE.stream()
          .filter(s -> !s.connection() && s.mode() != null && s.mode().startsWith("page:"))
          .toList();

  /** What {@code body} says of a next page in the page mode's spellings, or null: nothing. */
  static PageBodySignal of(Object body) {
    if (!(body instanceof Map<?, ?> map)) {
      return null;
    }
    PageBodySignal end = null;
    for (Signal row : ROWS) {
      List<String> keys = row.keys();
      Object holder = NextPageSignals.value(map, keys.subList(0, keys.size() - 1));
      if (!(holder instanceof Map<?, ?> members)
          || !members.containsKey(keys.get(keys.size() - 1))) {
        continue;
      }
      Object value = members.get(keys.get(keys.size() - 1));
      // A value that fires is a flag or a number once stripped: never long upstream text.
      String said =
          row.path() + ": " + (value instanceof String text ? "\"" + text.strip() + "\"" : value);
      if (NextPageSignals.at(value, row.test())) {
        return new PageBodySignal(true, said);
      }
      if (end == null && ends(value, row.test())) {
        end = new PageBodySignal(false, said);
      }
    }
    return end;
  }

  /**
   * Whether {@code value} says plainly that no page follows: the opposite flag in a spelling the
   * table reads ({@code has_next_page: false}, {@code "false"} or {@code 0}; {@code last: true},
   * {@code "true"} or {@code 1}), or no next page number ({@code next_page: null} or empty).
   */
  private static boolean ends(Object value, Test test) {
    return switch (test) {
      case TRUE -> NextPageSignals.at(value, Test.FALSE);
      case FALSE -> NextPageSignals.isTrue(value);
      case FALSE_WORD -> !(value instanceof Number) && NextPageSignals.isTrue(value);
      case NUMBER -> value == null || value instanceof String text && text.isBlank();
      case URL, TEXT -> false;
    };
  }
}
