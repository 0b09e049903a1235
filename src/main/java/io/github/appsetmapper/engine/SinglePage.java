package io.github.appsetmapper.engine;

import io.github.appsetmapper.compile.CompiledPaginate;
import io.github.appsetmapper.upstream.call.RequestFailure;
import io.github.appsetmapper.upstream.call.UpstreamRequest;

/**
 * No {@code paginate}: the listing is its first page, and must be all of it. A listing (a {@code
 * list}, or an enrich's indefinite {@code select}: {@code elements} is given) whose page says more
 * follow ({@code rel="next"}, {@code X-Next-Page}, {@code X-Total-Pages} above 1, a {@code rel=
 * "last"} beyond it, a total above its elements) is a 502 naming the signal and the fix: read as
 * one page, GitHub's 31st pull request and every one after it would be missing from a 200, and Argo
 * CD would delete their Applications. A mapping that wants the first page alone says so with {@code
 * maxPages: 1, onMaxPages: stop}. An enrich's definite {@code select} reads one value, which pages
 * of something else do not change: no check ({@code elements} is null).
 */
record SinglePage(PageSource source, ElementCount elements) implements Paginator {
  private static final CompiledPaginate.Limits ONE = new CompiledPaginate.Limits(1, false);

  @Override
  public UpstreamRequest first() throws RequestFailure {
    return source.render(1, null);
  }

  @Override
  public UpstreamRequest next(Page page, int number) throws RequestFailure {
    if (elements == null) {
      return null;
    }
    PageSignals signals = PageSignals.of(page, true, "page");
    WalkPromises promises =
        new WalkPromises(uri -> PageSignals.pageParameter(uri, "page", 1), false, true);
    promises.read(page, number, elements.elements(page), signals);
    String more;
    String mode = "linkHeader: next";
    if (signals.link("next") != null) {
      more = "its Link header has a rel=\"next\" link";
    } else if (signals.nextPage() != null && !signals.nextPage().isBlank()) {
      more = "it says X-Next-Page: " + page.excerpt(signals.nextPage().trim());
      mode = "page: {param: page}";
    } else {
      more = promises.unkept(number);
      mode = "page: {param: page}";
    }
    if (more == null) {
      return null;
    }
    page.refusedBy("unpaginated");
    throw RequestFailure.of(
        page.request(),
        "the upstream has more than this page ("
            + more
            + ") and the listing has no 'paginate', so every row after its first page would be"
            + " missing; add 'paginate: {"
            + mode
            + "}' to read them all, or 'paginate: {"
            + mode
            + ", maxPages: 1, onMaxPages: stop}' to read only the first page on purpose");
  }

  @Override
  public CompiledPaginate.Limits limits() {
    return ONE;
  }
}
