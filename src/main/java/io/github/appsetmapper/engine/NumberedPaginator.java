package io.github.appsetmapper.engine;

import io.github.appsetmapper.compile.CompiledPaginate;
import io.github.appsetmapper.upstream.PercentEncoding;
import io.github.appsetmapper.upstream.call.RequestFailure;
import io.github.appsetmapper.upstream.call.UpstreamRequest;
import java.net.URI;

/**
 * {@code page}: numbered pages. A short page does not end the listing (GitLab, GitHub and most APIs
 * cap the page size below what is asked), so the end is read, in this order, from: a {@code Link}
 * header ({@code rel="next"}: more; only {@code prev}/{@code first}/{@code last}: the last page);
 * else {@code X-Next-Page} (empty: the last page); else an empty page; else the body's flag or page
 * number, in every spelling of the next-page table ({@link PageBodySignal}: {@code has_next_page:
 * false}, {@code has_more: false}, {@code last: true}, {@code next_page: null} the last page; a
 * next URL or cursor it names is a promise); else {@code X-Total-Pages}, {@code X-Total} or {@code
 * X-Total-Count} (the largest any page of the walk gave); else, with {@code stopOnShortPage}, a
 * page with fewer elements than {@code size}; else an empty page. Whatever chose the end, what any
 * page promised ({@link WalkPromises}) wins: the listing goes on, or an empty page (an end status)
 * is a 502. Every count is of elements ({@link Page#elementValues}), never of the rows a path
 * selects from them. A page the same as any before it (an API that clamps the page number, or
 * cycles) is an error, not rows twice.
 */
final class NumberedPaginator implements Paginator {
  private final PageSource source;
  private final CompiledPaginate.Numbered page;
  private final ElementCount elementCount;
  private final WalkPromises promises = new WalkPromises(this::numberOf, true, true);

  private final SeenPages seen;

  NumberedPaginator(PageSource source, CompiledPaginate.Numbered page, ElementCount elementCount) {
    this.source = source;
    this.page = page;
    this.elementCount = elementCount;
    this.seen = new SeenPages(elementCount);
  }

  @Override
  public UpstreamRequest first() throws RequestFailure {
    return request(1);
  }

  @Override
  public CompiledPaginate.Limits limits() {
    return page.limits();
  }

  @Override
  public boolean endsAt(Page current, int number) throws RequestFailure {
    if (!page.endStatus().contains(current.status())) {
      return false;
    }
    String more = promises.unkept(number);
    if (more != null) {
      current.refusedBy("listing-cut");
      throw RequestFailure.of(
          current.request(),
          "page "
              + number
              + " answered "
              + current.status()
              + " while "
              + more
              + "; the listing would be cut short");
    }
    return true;
  }

  @Override
  public UpstreamRequest next(Page current, int number) throws RequestFailure {
    int elements = elementCount.elements(current);
    seen.check(current, number, null);
    PageSignals signals =
        PageSignals.of(current, true, page.param() != null ? page.param() : "page");
    promises.read(current, number, elements, signals);
    PageBodySignal body = PageBodySignal.of(current.json());
    if (body != null && body.promise() != null) {
      promises.announced(number, body.promise());
    }
    if (!last(signals, body, number, elements)) {
      return request(number + 1);
    }
    // A signal that more pages remain wins over the rule that chose the end: numbered pages can
    // go on. An empty page that says so contradicts itself.
    String more = promises.unkept(number);
    if (more == null) {
      NextPageSignals.checkEnd(
          current, number, "(its last by the page rules)", limits(), null, elementCount);
      return null;
    }
    if (elements == 0) {
      current.refusedBy("listing-cut");
      throw RequestFailure.of(
          current.request(),
          "page " + number + " is empty while " + more + "; the listing would be cut short");
    }
    return request(number + 1);
  }

  /**
   * Whether the page, the {@code number}th with {@code elements} elements, is the last ({@code
   * body}: what its body says of a next page, or null). An empty page ends the listing unless its
   * own next signal (a next link, {@code X-Next-Page}) says where more are: a total it contradicts
   * ("10 elements", 6 read, and none here) is then a 502 at this page, never walked on empty page
   * after empty page to {@code maxPages}. The totals are the largest any page gave: a page without
   * them is measured against its walk's.
   */
  private boolean last(PageSignals signals, PageBodySignal body, int number, int elements) {
    if (signals.link("next") != null) {
      return false;
    }
    if (signals.link("prev") != null
        || signals.link("first") != null
        || signals.link("last") != null) {
      return true;
    }
    if (signals.nextPage() != null) {
      return signals.nextPage().isBlank();
    }
    if (elements == 0) {
      return true;
    }
    if (body != null && body.last() != null) {
      return body.last();
    }
    if (promises.totalPages() != null) {
      return number >= promises.totalPages();
    }
    if (promises.total() != null) {
      return promises.elements() >= promises.total();
    }
    return page.stopOnShortPage() && page.size() != null && elements < page.size();
  }

  /** The page number a URL of this listing asks for, or null when it does not say. */
  private Integer numberOf(URI uri) {
    return PageSignals.pageParameter(uri, page.param(), page.start());
  }

  /** The request for page {@code number}, its page parameters set. */
  private UpstreamRequest request(int number) throws RequestFailure {
    UpstreamRequest request = source.render(number, null);
    URI uri = request.uri();
    if (page.param() != null) {
      uri = PercentEncoding.withQuery(uri, page.param(), String.valueOf(page.start() + number - 1));
    }
    if (page.sizeParam() != null) {
      uri = PercentEncoding.withQuery(uri, page.sizeParam(), String.valueOf(page.size()));
    }
    return uri == request.uri() ? request : request.withUri(uri);
  }
}
