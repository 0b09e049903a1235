package io.github.appsetmapper.engine;

import io.github.appsetmapper.compile.CompiledPaginate;
import io.github.appsetmapper.upstream.cache.ListingPass;
import io.github.appsetmapper.upstream.call.HostPolicy;
import io.github.appsetmapper.upstream.call.RequestFailure;
import io.github.appsetmapper.upstream.call.UpstreamRequest;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;

/**
 * Walks the pages of one listing in order: each page's status and {@code failWhen} checked, the
 * paginator asked for the next, {@code maxPages} kept. A first page that is not a complete answer
 * is returned alone, so that the caller can judge it (an enrich's 404); a later one is an error,
 * unless the paginator takes its status as the end ({@code endStatus}).
 */
final class ListingWalk {
  /** Fetches (or replays) one page. */
  @FunctionalInterface
  interface PageCall {
    Page page(UpstreamRequest request, int number) throws RequestFailure, ListingPass.Restart;
  }

  private ListingWalk() {}

  static List<Page> walk(Paginator paginator, ResponseChecks checks, PageCall call)
      throws RequestFailure, ListingPass.Restart {
    UpstreamRequest first = paginator.first();
    UpstreamRequest request = first;
    List<Page> pages = new ArrayList<>();
    while (true) {
      int number = pages.size() + 1;
      Page page = call.page(request, number);
      if (!checks.complete(page.status())) {
        if (pages.isEmpty()) {
          pages.add(page);
          return pages;
        }
        if (paginator.endsAt(page, number)) {
          return pages;
        }
        if (page.response().isSuccess()) {
          page.refusedBy("incomplete-status");
        }
        throw checks.incomplete(page.request(), page.response());
      }
      checks.failWhen(page);
      pages.add(page);
      UpstreamRequest next = paginator.next(page, number);
      if (next == null) {
        return pages;
      }
      CompiledPaginate.Limits limits = paginator.limits();
      if (pages.size() >= limits.maxPages()) {
        if (limits.stopAtMax()) {
          return pages;
        }
        throw RequestFailure.of(
            first,
            "more than maxPages ("
                + limits.maxPages()
                + ") pages; raise maxPages or set onMaxPages: stop");
      }
      credentialsStay(first, page.request(), next);
      request = next;
    }
  }

  /**
   * Refuses a next page ({@code next}, asked for by {@code current}) on another origin (scheme,
   * host or port) than the walk's {@code first} page when the request carries credentials: a
   * credential header ({@code Authorization}, {@code Proxy-Authorization}, {@code Cookie}, ...,
   * literal or not), an {@code auth} block, or a header, query value, URL or body made from a
   * secret, or a TLS client certificate (what the mapping's request carries, {@link
   * UpstreamRequest#credentials}). Credentials belong to an origin, as a redirect's do (dropped
   * there, as curl and browsers drop them); a page the listing needs them for is refused rather
   * than fetched without. A next link, a {@code Link} header, a cursor that is a URL: every mode.
   */
  static void credentialsStay(UpstreamRequest first, UpstreamRequest current, UpstreamRequest next)
      throws RequestFailure {
    URI uri = next.uri();
    if (HostPolicy.sameOrigin(first.uri(), uri)) {
      return;
    }
    String carried = carried(first);
    if (carried == null) {
      carried = carried(next);
    }
    if (carried != null) {
      throw RequestFailure.of(
          current,
          "next page on another origin '"
              + HostPolicy.origin(uri)
              + "' refused: the request carries credentials ("
              + carried
              + ")");
    }
  }

  /** What in {@code request} carries credentials, as the mapping wrote it first, or null. */
  private static String carried(UpstreamRequest request) {
    if (request.credentials() != null) {
      return request.credentials();
    }
    if (request.settings().auth() != null) {
      return "auth";
    }
    if (!request.sensitiveHeaders().isEmpty()) {
      return "headers." + new java.util.TreeSet<>(request.sensitiveHeaders()).first();
    }
    return null;
  }
}
