package io.github.appsetmapper.engine;

import io.github.appsetmapper.text.Plural;
import io.github.appsetmapper.upstream.call.RequestFailure;
import io.github.appsetmapper.upstream.call.UriReferences;
import java.net.URI;
import java.util.function.Function;

/**
 * What the pages of one walk have promised about the listing, remembered until the walk ends: the
 * most elements a total named ({@code X-Total}, {@code X-Total-Count}), the most pages {@code
 * X-Total-Pages} named, the furthest page a {@code rel="last"} link named and, in page mode, that
 * the page after a page saying so ({@code rel="next"}, {@code X-Next-Page}) exists and holds
 * elements. Read from one page alone, a page 2 without headers forgot what page 1 said, and the
 * listing ended with a 200 and rows lost.
 *
 * <p>Where pages are found by their place (numbers, links), a total that changes between pages is a
 * 502 naming both counts: rows moved between pages, one read twice when the listing grew, one lost
 * unseen when it shrank; the next getparams reads the listing again. With a cursor only the latest
 * total must be kept. Each walk (a paginator) has its own.
 */
final class WalkPromises {
  /**
   * One count the pages announced: the largest any page said (the latest to say it), and the
   * latest.
   */
  private static final class Count {
    long most = -1;
    int mostAt;
    String mostHeader;
    long latest;
    int latestAt;
    long least = Long.MAX_VALUE;
    int leastAt;
    String leastHeader;
    String latestHeader;

    void heard(Long value, int page, String header) {
      if (value == null) {
        return;
      }
      if (value >= most) {
        most = value;
        mostAt = page;
        mostHeader = header;
      }
      if (value < least) {
        least = value;
        leastAt = page;
        leastHeader = header;
      }
      latest = value;
      latestAt = page;
      latestHeader = header;
    }

    /** Whether two pages named different counts. */
    boolean changed() {
      return most >= 0 && least != most;
    }
  }

  private final Function<URI, Integer> pageOf;
  private final boolean nextPromises;
  private final boolean shifting;
  private final Count total = new Count();
  private final Count pages = new Count();
  private final Count last = new Count();
  private long elements;
  private int read;
  private int here;
  private boolean lastEmpty;
  private int nextAt;
  private String nextSaid;

  /**
   * @param pageOf the page number a URL asks for (counted from 1), or null when it does not say
   * @param nextPromises whether a next signal is a promise the mode does not follow itself (page
   *     mode), kept only by a page after it holding elements
   * @param shifting whether a page is found by its place in the listing (page numbers, and links,
   *     which mostly carry them): a listing that changes while it is read moves rows between pages
   *     (a row read twice when it grows, one lost when it shrinks), so any change of the total is a
   *     502; with a cursor a page is found by the row it starts after, and only the latest total
   *     must be kept (a row removed while reading is no row lost)
   */
  WalkPromises(Function<URI, Integer> pageOf, boolean nextPromises, boolean shifting) {
    this.pageOf = pageOf;
    this.nextPromises = nextPromises;
    this.shifting = shifting;
  }

  /** Records the {@code number}th page, {@code count} elements, and what its signals promise. */
  void read(Page page, int number, int count, PageSignals signals) throws RequestFailure {
    elements += count;
    read = number;
    lastEmpty = count == 0;
    URI current = page.request().uri();
    Integer at;
    try {
      at = pageOf.apply(current);
    } catch (PageSignals.Unreadable e) {
      at = null; // a URL we followed: its number is ours to count
    }
    here = at != null ? at : number;
    String lastLink = signals.link("last");
    if (lastLink != null) {
      last.heard(lastNumber(page, current, lastLink), number, "Link");
    }
    pages.heard(signals.totalPages(), number, "X-Total-Pages");
    total.heard(signals.total(), number, signals.totalHeader());
    if (shifting) {
      // Any count of the listing that moves while its pages are found by their place: rows moved
      // between pages (a rel="last" or X-Total-Pages that grew let page 2 repeat page 1's last
      // row, a 200 with a duplicate, as a grown X-Total did).
      changed(page, number, total, "element");
      changed(page, number, pages, "page");
      changed(page, number, last, "last page");
    }
    if (nextPromises) {
      if (signals.link("next") != null) {
        nextAt = number;
        nextSaid = "a rel=\"next\" link";
      } else if (signals.nextPage() != null && !signals.nextPage().isBlank()) {
        nextAt = number;
        nextSaid = "X-Next-Page: " + page.excerpt(signals.nextPage().trim());
      }
    }
  }

  /**
   * Records that the {@code number}th page's body said a page follows ({@code said}: how, {@code
   * $.pagination.has_next_page: true}), a promise as {@code X-Next-Page} is, unless a header of it
   * already made one.
   */
  void announced(int number, String said) {
    if (nextPromises && nextAt != number) {
      nextAt = number;
      nextSaid = said;
    }
  }

  /** A 502 when two pages named different values of {@code count}. */
  private static void changed(Page page, int number, Count count, String noun)
      throws RequestFailure {
    if (!count.changed()) {
      return;
    }
    boolean leastFirst = count.leastAt < count.mostAt;
    int firstAt = leastFirst ? count.leastAt : count.mostAt;
    String firstHeader = leastFirst ? count.leastHeader : count.mostHeader;
    long firstSaid = leastFirst ? count.least : count.most;
    page.refusedBy("listing-changed");
    throw RequestFailure.of(
        page.request(),
        "page "
            + firstAt
            + "'s "
            + said(firstHeader, firstSaid, noun)
            + " and page "
            + number
            + "'s "
            + said(count.latestHeader, count.latest, noun)
            + ": the listing changed while it was read, and rows move between pages found by"
            + " their place (one read twice, or one never)");
  }

  private static String said(String header, long value, String noun) {
    return "Link".equals(header)
        ? "Link header has rel=\"last\" at page " + value
        : header + " says " + Plural.of(value, noun);
  }

  /**
   * The page number of a {@code rel="last"} link, or null when it cannot be told (GitLab's names
   * the project by id, not by path, and adds parameters: another URL for the same page).
   */
  private Long lastNumber(Page page, URI current, String target) throws RequestFailure {
    Integer number;
    try {
      number = pageOf.apply(UriReferences.resolve(current, target));
    } catch (PageSignals.Unreadable e) {
      // A page number given but not a number (`+5`, `5e0`, `5.0`, `٥`...): which page it names
      // cannot be told, and taken as no signal it let the listing stop at page 1 with a 200.
      page.refusedBy("malformed-signal");
      throw RequestFailure.of(
          page.request(),
          "its Link header's rel=\"last\" gives the page as '"
              + page.excerpt(e.value)
              + "', not a page number; the listing cannot tell where it ends");
    } catch (IllegalArgumentException e) {
      number = null;
    }
    return number == null ? null : number.longValue();
  }

  /** The most elements any page's total named, or null. */
  Long total() {
    return total.most < 0 ? null : total.most;
  }

  /** The most pages any page's X-Total-Pages named, or null. */
  Long totalPages() {
    return pages.most < 0 ? null : pages.most;
  }

  /** The elements read so far. */
  long elements() {
    return elements;
  }

  /**
   * Why the listing is not whole with the pages read so far, the walk having come to its end at
   * page {@code at} (the last page read, or the one after it answering an end status); null when
   * every promise is kept.
   */
  String unkept(int at) {
    if (last.most > here) {
      return last.mostAt == at
          ? "its Link header has a rel=\"last\" page beyond this one"
          : "page "
              + last.mostAt
              + "'s Link header has a rel=\"last\" link to page "
              + last.most
              + ", beyond page "
              + here;
    }
    if (pages.most > read) {
      return said(pages, at, "page") + ", " + Plural.was(read) + " read";
    }
    if (shifting ? total.most > elements : total.latest > elements) {
      return said(total, at, "element") + ", " + Plural.was(elements) + " read";
    }

    if (nextSaid != null && (nextAt == read && at > read || nextAt == read - 1 && lastEmpty)) {
      return "page " + nextAt + " said a page follows (" + nextSaid + ")";
    }
    return null;
  }

  /** "X-Total says 5 elements", by the page that said the most, and what the latest says. */
  private static String said(Count count, int at, String noun) {
    String said =
        (count.mostAt == at ? "" : "page " + count.mostAt + "'s ")
            + count.mostHeader
            + " says "
            + Plural.of(count.most, noun);
    if (count.latest < count.most) {
      said +=
          " (page "
              + count.latestAt
              + "'s says "
              + count.latest
              + ": the listing changed while it was read)";
    }
    return said;
  }
}
