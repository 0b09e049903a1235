package io.github.appsetmapper.engine;

import io.github.appsetmapper.json.JsonCodec;
import io.github.appsetmapper.upstream.call.Digests;
import io.github.appsetmapper.upstream.call.RequestFailure;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The pages of one walk with rows, by the SHA-256 of their rows (at most maxPages): a page whose
 * rows are those of one read before is that page again, in every mode, however its number, next
 * link or cursor was spelled ({@code ?x=1} then {@code ?x=1&x=1}, each link new, led back to one
 * page six times: a 200 with one row six times).
 */
final class SeenPages {
  /** Each page's rows digested, and the page that first gave them. */
  private final Map<String, Integer> pages = new HashMap<>();

  private final Paginator.ElementCount elements;

  SeenPages(Paginator.ElementCount elements) {
    this.elements = elements;
  }

  /**
   * Refuses {@code page} (number {@code number}) when its rows are those of a page read before: a
   * body may differ in its own next link or page number while its rows are the same page's.
   */
  void check(Page page, int number, String advice) throws RequestFailure {
    List<Object> rows = elements.rows(page);
    if (rows.isEmpty()) {
      return;
    }
    Integer same = pages.putIfAbsent(Digests.sha256(JsonCodec.write(rows)), number);
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
