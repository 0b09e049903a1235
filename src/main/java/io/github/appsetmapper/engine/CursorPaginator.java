package io.github.appsetmapper.engine;

import io.github.appsetmapper.compile.CompiledPaginate;
import io.github.appsetmapper.expr.Scope;
import io.github.appsetmapper.upstream.PercentEncoding;
import io.github.appsetmapper.upstream.call.RequestFailure;
import io.github.appsetmapper.upstream.call.UpstreamRequest;

/**
 * {@code cursor}: the request again with the cursor the body gives (sent as {@code param}, and as
 * {@code page.cursor}). It ends when {@code until} is true or the cursor is absent, null or empty;
 * what holds the cursor must exist. A cursor equal to the one before is an error, not a loop.
 */
final class CursorPaginator implements Paginator {
  private final PageSource source;
  private final CompiledPaginate.Cursor cursor;
  private final Scope scope;
  private final ElementCount elements;
  private String last;
  private long elementsSoFar;

  CursorPaginator(
      PageSource source, CompiledPaginate.Cursor cursor, Scope scope, ElementCount elements) {
    this.source = source;
    this.cursor = cursor;
    this.scope = scope;
    this.elements = elements;
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
    elementsSoFar += elements.elements(page);
    boolean until =
        cursor.until() != null
            && Boolean.TRUE.equals(Expressions.onResponse(cursor.until(), page, scope));
    String after =
        until ? null : Cursors.value(page, cursor.from(), cursor.holder(), "cursor.from", true);
    if (after == null) {
      String more =
          PageSignals.of(page, false, "page")
              .more(page, number, elementsSoFar, uri -> PageSignals.pageParameter(uri, "page", 1));
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
      return null;
    }
    if (after.equals(last)) {
      page.refusedBy("cursor-stuck");
      throw RequestFailure.of(
          page.request(),
          "the cursor did not change ('"
              + cursor.from().getPath()
              + "' gave the same value twice)");
    }
    last = after;
    UpstreamRequest request = source.render(number + 1, after);
    return cursor.param() == null
        ? request
        : request.withUri(PercentEncoding.withQuery(request.uri(), cursor.param(), after));
  }
}
