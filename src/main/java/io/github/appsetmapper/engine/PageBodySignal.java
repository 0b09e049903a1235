package io.github.appsetmapper.engine;

import io.github.appsetmapper.engine.NextPageSignals.Signal;
import io.github.appsetmapper.engine.NextPageSignals.Test;
import java.util.List;
import java.util.Map;

/**
 * What a page's body says of the page after it, for the {@code page} mode, read by every row of
 * {@link NextPageSignals#TABLE} outside GraphQL's connections, in every spelling the table reads:
 * the pagination objects' {@code has_next_page} and {@code next_page}, Spring Data's {@code last},
 * and every other API's row ({@code has_more}, {@code isLastPage}, a next URL, a cursor).
 *
 * <ul>
 *   <li>A flag or a page number decides ({@code last}): more follow, or this is the last page,
 *       which a real API answers past with a 404 or its last page again. A body saying both is read
 *       as saying more (rows are never dropped on a contradiction: the walk goes on and its guards
 *       judge the next page).
 *   <li>A next URL or a cursor the page mode does not follow decides nothing, but where no flag
 *       says this is the last page it is a promise: an end status after it is a 502, never a 200
 *       with fewer rows. Beside a flag saying last, the walk's end check refuses it instead.
 * </ul>
 *
 * @param last whether the body says this is the last page; null when it does not say
 * @param promise how the body said a page follows ({@code $.has_more: true}), or null
 */
record PageBodySignal(Boolean last, String promise) {

  private static final List<Signal> ROWS =
      NextPageSignals.TABLE.stream().filter(s -> !s.connection()).toList();

  /** What {@code body} says of a next page, or null: nothing. */
  static PageBodySignal of(Object body) {
    if (!(body instanceof Map<?, ?> map)) {
      return null;
    }
    String flagMore = null;
    String linkMore = null;
    boolean end = false;
    for (Signal row : ROWS) {
      List<String> keys = row.keys();
      Object holder = NextPageSignals.value(map, keys.subList(0, keys.size() - 1));
      if (!(holder instanceof Map<?, ?> members)
          || !members.containsKey(keys.get(keys.size() - 1))) {
        continue;
      }
      Object value = members.get(keys.get(keys.size() - 1));
      boolean link = row.test() == Test.URL || row.test() == Test.TEXT;
      if (NextPageSignals.at(value, row.test())) {
        if (link && linkMore == null) {
          // A URL or a cursor is upstream text: named by where it is, never quoted.
          linkMore = row.said();
        } else if (!link && flagMore == null) {
          flagMore = said(row, value);
        }
      } else if (ends(value, row.test())) {
        end = true;
      }
    }
    if (flagMore != null) {
      return new PageBodySignal(false, flagMore);
    }
    if (end) {
      return new PageBodySignal(true, null);
    }
    return linkMore == null ? null : new PageBodySignal(null, linkMore);
  }

  /** A flag or a page number as the body wrote it, once stripped: never long upstream text. */
  private static String said(Signal row, Object value) {
    return row.path() + ": " + (value instanceof String text ? "\"" + text.strip() + "\"" : value);
  }

  /**
   * Whether {@code value} says plainly that no page follows: the opposite flag in a spelling the
   * table reads ({@code has_next_page: false}, {@code "false"} or {@code 0}; {@code last: true} or
   * {@code "true"}), or no next page number ({@code next_page: null} or empty).
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
