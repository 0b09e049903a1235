package io.github.appsetmapper.engine;

import io.github.appsetmapper.compile.CompiledPaginate;
import io.github.appsetmapper.upstream.call.RequestFailure;
import io.github.appsetmapper.upstream.call.UpstreamRequest;
import java.util.List;

/**
 * No {@code paginate}: the listing is its first page, and must be all of it. A listing (a {@code
 * list}, or an enrich's indefinite {@code select}: {@code elements} is given) whose page says more
 * follow ({@code rel="next"}, {@code X-Next-Page}, {@code X-Total-Pages} above 1, a {@code rel=
 * "last"} beyond it, a total above its elements, a next page named in the body as the common APIs
 * name it) is a 502 naming the signal and the fix: read as one page, GitHub's 31st pull request and
 * every one after it would be missing from a 200, and Argo CD would delete their Applications. A
 * mapping that wants the first page alone says so with {@code maxPages: 1, onMaxPages: stop}. An
 * enrich's definite {@code select} reads one value, which pages of something else do not change: no
 * check ({@code elements} is null).
 */
record SinglePage(PageSource source, ElementCount elements) implements Paginator {
  private static final CompiledPaginate.Limits ONE = new CompiledPaginate.Limits(1, false);

  /**
   * An enrich's {@code value} that read a list out of a page read alone ({@code
   * response.body.items} of an envelope): the same check, over the elements the value read (an
   * outside tester's HIGH: {@code {"items": [...]}} with a {@code rel="next"} answered 200).
   */
  static void checkRead(Page page, List<?> read) throws RequestFailure {
    List<Object> values = new java.util.ArrayList<>(read);
    new SinglePage(
            null,
            new ElementCount() {
              @Override
              public int elements(Page each) {
                return values.size();
              }

              @Override
              public List<Object> values(Page each) {
                return values;
              }
            })
        .next(page, 1);
  }

  @Override
  public UpstreamRequest first() throws RequestFailure {
    return source.render(1, null);
  }

  @Override
  public UpstreamRequest next(Page page, int number) throws RequestFailure {
    if (elements == null || !elements.listing(page)) {
      return null;
    }
    // Strict where a next page is named (the Link header, X-Next-Page): a count that does not
    // parse beside it is a 502 naming it. Else lenient: what does not parse is no signal, and is
    // neither a refusal nor counted as one; the signals that parse, and the body's, decide.
    PageSignals signals =
        namesNextPage(page) ? PageSignals.of(page, true, "page") : PageSignals.lenient(page);
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
      NextPageSignals.Said said =
          NextPageSignals.says(
              page.json(),
              page.response().headers(),
              elements.values(page),
              elements.rows(page),
              elements.connections(page),
              null);
      if (said == null) {
        return null;
      }
      throw refusal(page, said.more(), said.mode());
    }
    throw refusal(page, more, mode);
  }

  private static boolean namesNextPage(Page page) {
    for (String name : List.of("Link", "X-Next-Page")) {
      for (String value : page.response().headers().all(name)) {
        if (name.equals("X-Next-Page")
            ? !value.isBlank()
            : value.toLowerCase(java.util.Locale.ROOT).contains("next")) {
          return true;
        }
      }
    }
    return false;
  }

  private static RequestFailure refusal(Page page, String more, String mode) {
    page.refusedBy("unpaginated");
    String head =
        "the upstream has more than this page ("
            + more
            + ") and the listing has no 'paginate', so every row after its first page would be"
            + " missing; ";
    if (mode == null) {
      // No mode reads this API's next page (an offset to compute, a token in a header).
      return RequestFailure.of(
          page.request(),
          head
              + "no paginate mode reads this API's next page: ask for pages large enough to hold"
              + " the listing, or add 'paginate: {linkHeader: next, maxPages: 1, onMaxPages:"
              + " stop}' to read only the first page on purpose");
    }
    return RequestFailure.of(
        page.request(),
        head
            + "add 'paginate: {"
            + mode
            + "}' to read them all, or 'paginate: {"
            + mode
            + ", maxPages: 1, onMaxPages: stop}' to read only the first page on purpose"
            + NextPageSignals.cursorNote(mode));
  }

  @Override
  public CompiledPaginate.Limits limits() {
    return ONE;
  }
}
