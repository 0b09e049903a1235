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

  @Override
  public UpstreamRequest first() throws RequestFailure {
    return source.render(1, null);
  }

  @Override
  public UpstreamRequest next(Page page, int number) throws RequestFailure {
    if (elements == null || !elements.listing(page)) {
      return null;
    }
    PageSignals signals;
    try {
      signals = PageSignals.of(page, true, "page");
    } catch (RequestFailure unreadable) {
      // A count that does not parse (X-Total-Count: -1, X-Total sent twice) on a listing that
      // reads one page: strict where a next page is named (the Link header, X-Next-Page), else
      // the body's own signals decide, as they did before this check (a 502 with no way out).
      if (namesNextPage(page)) {
        throw unreadable;
      }
      return bodyChecked(page);
    }
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
      String[] said = bodySays(page);
      if (said == null) {
        return null;
      }
      more = said[0];
      mode = said[1];
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

  /** Null when the body names no next page, else the 502 that says so. */
  private static UpstreamRequest bodyChecked(Page page) throws RequestFailure {
    String[] said = bodySays(page);
    if (said == null) {
      return null;
    }
    throw refusal(page, said[0], said[1]);
  }

  private static RequestFailure refusal(Page page, String more, String mode) {
    page.refusedBy("unpaginated");
    return RequestFailure.of(
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

  /**
   * What the body's top level says of a next page, in the spellings of the APIs that put it there
   * (a URL under {@code next} as Bitbucket Cloud and Django REST do, {@code @odata.nextLink},
   * {@code nextPageToken}, {@code isLastPage: false} as Bitbucket Server does, {@code links.next}
   * as JSON:API does, {@code _links.next} as HAL does), with the mode that reads it; null when none
   * does. Only what cannot mean anything else: a {@code next} that is not a URL is no signal.
   */
  private static String[] bodySays(Page page) throws RequestFailure {
    if (!(page.json() instanceof java.util.Map<?, ?> body)) {
      return null;
    }
    if (url(body.get("next"))) {
      return new String[] {"its body has a next URL at $.next", "next: \"$.next\""};
    }
    if (text(body.get("@odata.nextLink"))) {
      return new String[] {"its body has @odata.nextLink", "next: \"$['@odata.nextLink']\""};
    }
    if (text(body.get("nextPageToken"))) {
      return new String[] {
        "its body has a nextPageToken", "cursor: {param: pageToken, from: \"$.nextPageToken\"}"
      };
    }
    if (Boolean.FALSE.equals(body.get("isLastPage"))) {
      return new String[] {
        "its body says isLastPage: false", "cursor: {param: start, from: \"$.nextPageStart\"}"
      };
    }
    if (body.get("links") instanceof java.util.Map<?, ?> links && url(links.get("next"))) {
      return new String[] {"its body has a next URL at $.links.next", "next: \"$.links.next\""};
    }
    if (body.get("_links") instanceof java.util.Map<?, ?> hal
        && hal.get("next") instanceof java.util.Map<?, ?> next
        && url(next.get("href"))) {
      return new String[] {
        "its body has a next URL at $._links.next.href", "next: \"$._links.next.href\""
      };
    }
    return null;
  }

  private static boolean text(Object value) {
    return value instanceof String text && !text.isBlank();
  }

  /** A URL as APIs give their next page: absolute over HTTP(S), or a path. */
  private static boolean url(Object value) {
    if (!(value instanceof String text)) {
      return false;
    }
    String trimmed = text.trim().toLowerCase(java.util.Locale.ROOT);
    return trimmed.startsWith("https://")
        || trimmed.startsWith("http://")
        || trimmed.startsWith("/") && !trimmed.startsWith("//");
  }

  @Override
  public CompiledPaginate.Limits limits() {
    return ONE;
  }
}
