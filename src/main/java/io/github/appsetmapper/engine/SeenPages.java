package io.github.appsetmapper.engine;

import io.github.appsetmapper.json.JsonCodec;
import io.github.appsetmapper.upstream.call.Digests;
import io.github.appsetmapper.upstream.call.RequestFailure;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The pages of one walk with elements, by a SHA-256 of their elements in any order (at most
 * maxPages): a page whose elements are those of one read before is that page again, in every mode,
 * however its number, next link or cursor was spelled ({@code ?x=1} then {@code ?x=1&x=1}, each
 * link new, led back to one page six times: a 200 with one row six times), and in whatever order it
 * lists them (the same page reordered each time did the same). Elements, not the rows a path
 * selects from them: two pages of different pull requests of the same two clusters are two pages.
 */
final class SeenPages {
  /** Each page's rows digested, and the page that first gave them. */
  private final Map<String, Integer> pages = new HashMap<>();

  private final Paginator.ElementCount elements;

  SeenPages(Paginator.ElementCount elements) {
    this.elements = elements;
  }

  /**
   * Refuses {@code page} (number {@code number}) when its elements are those of a page read before:
   * a body may differ in its own next link or page number while its elements are the same page's.
   */
  void check(Page page, int number, String advice) throws RequestFailure {
    List<Object> values = elements.values(page);
    if (values.isEmpty()) {
      return;
    }
    // Each element by its content (keys sorted), the page by the sorted list of those: a multiset.
    List<String> each = new java.util.ArrayList<>(values.size());
    for (Object value : values) {
      each.add(Digests.sha256(JsonCodec.writeSorted(value)));
    }
    java.util.Collections.sort(each);
    Integer same = pages.putIfAbsent(Digests.sha256(String.join(",", each)), number);
    if (same != null) {
      page.refusedBy("identical-page");
      throw RequestFailure.of(
          page.request(),
          "page " + number + " answered the same as page " + same + advice(same, number, advice));
    }
  }

  private static String advice(int same, int number, String advice) {
    return advice != null
        ? advice
        : same == number - 1
            ? " (an API that repeats its last page for any higher number?); end the listing with"
                + " endStatus or stopOnShortPage, or use linkHeader"
            : " (an API that cycles its pages?); end the listing with endStatus or"
                + " stopOnShortPage, or use linkHeader";
  }
}
