package io.github.appsetmapper.engine;

import io.github.appsetmapper.compile.CompiledPaginate;
import io.github.appsetmapper.expr.Scope;
import io.github.appsetmapper.upstream.PercentEncoding;
import io.github.appsetmapper.upstream.call.RequestFailure;
import io.github.appsetmapper.upstream.call.UpstreamRequest;
import java.util.HashMap;
import java.util.Map;

/**
 * {@code cursor}: the request again with the cursor the body gives (sent as {@code param}, and as
 * {@code page.cursor}). It ends when {@code until} is true or the cursor is absent, null or empty;
 * what holds the cursor must exist. A cursor given before in the walk is an error (a loop), never
 * its pages read again; what any page promised ({@link WalkPromises}) must be kept by the end.
 */
final class CursorPaginator implements Paginator {
  private final PageSource source;
  private final CompiledPaginate.Cursor cursor;
  private final Scope scope;
  private final ElementCount elements;
  private final SeenPages seen;

  /** Why a cursor led to a page read before, spelled another way. */
  private static final String LOOP = LinkPaginator.LOOP.replace("next link", "cursor");

  private String last;

  /** Each cursor given so far, and the page that gave it: at most {@code maxPages}. */
  private final Map<String, Integer> given = new HashMap<>();

  private final WalkPromises promises =
      new WalkPromises(uri -> PageSignals.pageParameter(uri, "page", 1), false, false);

  CursorPaginator(
      PageSource source, CompiledPaginate.Cursor cursor, Scope scope, ElementCount elements) {
    this.source = source;
    this.cursor = cursor;
    this.scope = scope;
    this.elements = elements;
    this.seen = new SeenPages(elements);
  }

  @Override
  public UpstreamRequest first() throws RequestFailure {
    return source.render(1, null);
  }

  @Override
  public CompiledPaginate.Limits limits() {
    return cursor.limits();
  }

  @Override
  public UpstreamRequest next(Page page, int number) throws RequestFailure {
    promises.read(page, number, elements.elements(page), PageSignals.of(page, false, "page"));
    boolean until =
        cursor.until() != null
            && Boolean.TRUE.equals(Expressions.onResponse(cursor.until(), page, scope));
    String after =
        until ? null : Cursors.value(page, cursor.from(), cursor.holder(), "cursor.from", true);
    if (after == null) {
      seen.check(page, number, LOOP);
      String more = promises.unkept(number);
      if (more == null && !(limits().stopAtMax() && number >= limits().maxPages())) {
        more = headerNext(page);
      }
      if (more != null) {
        page.refusedBy("listing-cut");
        throw RequestFailure.of(
            page.request(),
            "the listing ends at page "
                + number
                + (until ? " ('until' is true)" : " (no cursor)")
                + " while "
                + more);
      }
      NextPageSignals.checkEnd(
          page,
          number,
          until ? "('until' is true)" : "(no cursor)",
          limits(),
          cursor.from().getPath(),
          elements);
      return null;
    }
    if (after.equals(last)) {
      page.refusedBy("cursor-stuck");
      throw RequestFailure.of(
          page.request(),
          "the cursor did not change ('"
              + cursor.from().getPath()
              + "' gave '"
              + page.excerpt(after)
              + "' twice)");
    }
    Integer before = given.putIfAbsent(after, number);
    if (before != null) {
      page.refusedBy("cursor-stuck");
      throw RequestFailure.of(
          page.request(),
          "cursor.from '"
              + cursor.from().getPath()
              + "' gave '"
              + page.excerpt(after)
              + "' at page "
              + number
              + ", as page "
              + before
              + " did: a loop, its pages would be read again");
    }
    seen.check(page, number, LOOP);
    last = after;
    UpstreamRequest request = source.render(number + 1, after);
    return cursor.param() == null
        ? request
        : request.withUri(PercentEncoding.withQuery(request.uri(), cursor.param(), after));
  }

  /**
   * A next page the headers name, which this mode does not read ({@code rel="next"}, {@code
   * X-Next-Page}): read as the single page reads them (what does not parse says nothing), so that a
   * cursor that ran out beside them is not a 200 a page short.
   */
  private static String headerNext(Page page) {
    PageSignals signals = PageSignals.lenient(page);
    if (signals.link("next") != null) {
      return "its Link header has a rel=\"next\" link";
    }
    if (signals.nextPage() != null && !signals.nextPage().isBlank()) {
      return "it says X-Next-Page: " + page.excerpt(signals.nextPage().trim());
    }
    return null;
  }
}
