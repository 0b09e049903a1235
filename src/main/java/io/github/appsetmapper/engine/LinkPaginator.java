package io.github.appsetmapper.engine;

import io.github.appsetmapper.compile.CompiledPaginate;
import io.github.appsetmapper.upstream.call.HostPolicy;
import io.github.appsetmapper.upstream.call.RequestFailure;
import io.github.appsetmapper.upstream.call.UpstreamRequest;
import java.net.URI;
import java.util.HashSet;
import java.util.Set;

/**
 * {@code linkHeader} and {@code next}: the next page is a URL the answer gives, in its {@code Link}
 * header or at a JsonPath of its body (whose holder must exist; the URL itself may be absent on the
 * last page, as Bitbucket does). A URL to another origin is followed only when {@code allowedHosts}
 * lists its host and the request carries no credentials; a URL already fetched is a loop, an error.
 */
final class LinkPaginator implements Paginator {
  private final PageSource source;
  private final CompiledPaginate.LinkHeader link;
  private final CompiledPaginate.NextUrl next;
  private final ElementCount elements;
  private final Set<URI> fetched = new HashSet<>();
  private UpstreamRequest first;
  private long elementsSoFar;

  LinkPaginator(
      PageSource source,
      CompiledPaginate.LinkHeader link,
      CompiledPaginate.NextUrl next,
      ElementCount elements) {
    this.source = source;
    this.link = link;
    this.next = next;
    this.elements = elements;
  }

  @Override
  public UpstreamRequest first() throws RequestFailure {
    first = source.render(1, null);
    return first;
  }

  @Override
  public CompiledPaginate.Limits limits() {
    return link != null ? link.limits() : next.limits();
  }

  @Override
  public UpstreamRequest next(Page page, int number) throws RequestFailure {
    UpstreamRequest current = page.request();
    fetched.add(current.uri());
    elementsSoFar += elements.elements(page);
    PageSignals signals = PageSignals.of(page, link != null, "page");
    String target =
        link != null
            ? signals.link(link.rel().toLowerCase(java.util.Locale.ROOT))
            : Cursors.value(page, next.next(), next.holder(), "next", false);
    if (target == null || target.isBlank()) {
      // The end, unless the page says more remain: a short 200 is what Argo CD must never get.
      String more =
          signals.more(
              page, number, elementsSoFar, uri -> PageSignals.pageParameter(uri, "page", 1));
      if (more != null) {
        page.refusedBy("listing-cut");
        throw RequestFailure.of(
            current, "the listing ends at page " + number + " (no next link) while " + more);
      }
      return null;
    }
    if (link == null) {
      PageSignals.single(page, "next '" + next.next().getPath() + "'", target, "page");
    }
    URI uri;
    try {
      uri = current.uri().resolve(target.trim());
    } catch (IllegalArgumentException e) {
      throw RequestFailure.of(current, "invalid next-page URL");
    }
    if (fetched.contains(uri)) {
      throw RequestFailure.of(
          current, "the next page is one already fetched (" + uri + "), a loop");
    }
    if (!HostPolicy.sameOrigin(first.uri(), uri)) {
      if (!(first.hosts().restricts() && first.hosts().allows(uri))) {
        throw RequestFailure.of(
            current,
            "next page on another origin '"
                + uri.getScheme()
                + "://"
                + uri.getAuthority()
                + "' refused; list its host in allowedHosts to follow it");
      }
      // Like a redirect, a link to another origin (or from https to http) never gets the
      // request's credentials; a listing that needs them there is refused instead.
      if (!first.sensitiveHeaders().isEmpty() || first.settings().auth() != null) {
        throw RequestFailure.of(
            current,
            "next page on another origin '"
                + uri.getScheme()
                + "://"
                + uri.getAuthority()
                + "' refused: the request carries credentials");
      }
    }
    return current.withUri(uri);
  }
}
