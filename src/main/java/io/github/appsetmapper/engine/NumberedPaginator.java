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
 * {@code X-Total-Count}; else, with {@code stopOnShortPage}, a page with fewer rows than {@code
 * size}; else an empty page. A page the same as the one before (an API that clamps the page number)
 * is an error, not rows twice.
 */
final class NumberedPaginator implements Paginator {
  private final PageSource source;
  private final CompiledPaginate.Numbered page;
  private final RowCount rowCount;
  private long rowsSoFar;
  private byte[] before;

  NumberedPaginator(PageSource source, CompiledPaginate.Numbered page, RowCount rowCount) {
    this.source = source;
    this.page = page;
    this.rowCount = rowCount;
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
    int rows = rowCount.rows(current);
    rowsSoFar += rows;
    byte[] body = current.response().body();
    if (before != null && rows > 0 && Arrays.equals(before, body)) {
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
    PageSignals signals = PageSignals.of(current, true);
    if (!last(signals, number, rows)) {
      return request(number + 1);
    }
    // A signal that more pages remain wins over the rule that chose the end: numbered pages can
    // go on. An empty page that says so contradicts itself.
    String more = signals.more(current, number, rowsSoFar, this::numberOf);
    if (more == null) {
      return null;
    }
    if (rows == 0) {
      current.refusedBy("listing-cut");
      throw RequestFailure.of(
          current.request(),
          "page " + number + " is empty while " + more + "; the listing would be cut short");
    }
    return request(number + 1);
  }

  /** Whether the page, the {@code number}th with {@code rows} rows, is the last. */
  private boolean last(PageSignals signals, int number, int rows) {
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
    if (signals.totalPages() != null) {
      return number >= signals.totalPages();
    }
    if (signals.total() != null) {
      return rowsSoFar >= signals.total();
    }
    if (page.stopOnShortPage() && page.size() != null && rows < page.size()) {
      return true;
    }
    return rows == 0;
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
