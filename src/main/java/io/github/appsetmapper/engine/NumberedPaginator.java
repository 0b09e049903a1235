package io.github.appsetmapper.engine;

import io.github.appsetmapper.compile.CompiledPaginate;
import io.github.appsetmapper.upstream.PercentEncoding;
import io.github.appsetmapper.upstream.call.RequestFailure;
import io.github.appsetmapper.upstream.call.UpstreamRequest;
import java.net.URI;
import java.util.Arrays;

/**
 * {@code page}: numbered pages. A short page does not end the listing (GitLab, GitHub and most APIs
 * cap the page size below what is asked), so the end is read, in this order, from: a {@code Link}
 * header ({@code rel="next"}: more; only {@code prev}/{@code first}/{@code last}: the last page);
 * else {@code X-Next-Page} (empty: the last page); else {@code X-Total-Pages}, {@code X-Total} or
 * {@code X-Total-Count}; else, with {@code stopOnShortPage}, a page with fewer elements than {@code
 * size}; else an empty page. Every count is of elements ({@link Page#elements}), never of the rows
 * a path selects from them. A page the same as the one before (an API that clamps the page number)
 * is an error, not rows twice.
 */
final class NumberedPaginator implements Paginator {
  private final PageSource source;
  private final CompiledPaginate.Numbered page;
  private final ElementCount elementCount;
  private long elementsSoFar;
  private byte[] before;

  NumberedPaginator(PageSource source, CompiledPaginate.Numbered page, ElementCount elementCount) {
    this.source = source;
    this.page = page;
    this.elementCount = elementCount;
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
  public boolean endsAt(int status) {
    return page.endStatus().contains(status);
  }

  @Override
  public UpstreamRequest next(Page current, int number) throws RequestFailure {
    int elements = elementCount.elements(current);
    elementsSoFar += elements;
    byte[] body = current.response().body();
    if (before != null && elements > 0 && Arrays.equals(before, body)) {
      current.refusedBy("identical-page");
      throw RequestFailure.of(
          current.request(),
          "page "
              + number
              + " answered the same as page "
              + (number - 1)
              + " (an API that repeats its last page for any higher number?); end the listing"
              + " with endStatus or stopOnShortPage, or use linkHeader");
    }
    before = body;
    PageSignals signals =
        PageSignals.of(current, true, page.param() != null ? page.param() : "page");
    if (!last(signals, number, elements)) {
      return request(number + 1);
    }
    // A signal that more pages remain wins over the rule that chose the end: numbered pages can
    // go on. An empty page that says so contradicts itself.
    String more = signals.more(current, number, elementsSoFar, this::numberOf);
    if (more == null) {
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
   * Whether the page, the {@code number}th with {@code elements} elements, is the last. An empty
   * page ends the listing unless its own next signal (a next link, {@code X-Next-Page}) says where
   * more are: a total it contradicts ("10 elements", 6 read, and none here) is then a 502 at this
   * page, never walked on empty page after empty page to {@code maxPages}.
   */
  private boolean last(PageSignals signals, int number, int elements) {
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
    if (signals.totalPages() != null) {
      return number >= signals.totalPages();
    }
    if (signals.total() != null) {
      return elementsSoFar >= signals.total();
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
