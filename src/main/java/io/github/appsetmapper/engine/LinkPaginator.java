package io.github.appsetmapper.engine;

import io.github.appsetmapper.compile.CompiledPaginate;
import io.github.appsetmapper.upstream.call.HostPolicy;
import io.github.appsetmapper.upstream.call.RequestFailure;
import io.github.appsetmapper.upstream.call.UpstreamRequest;
import io.github.appsetmapper.upstream.call.UriReferences;
import java.net.URI;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

/**
 * {@code linkHeader} and {@code next}: the next page is a URL the answer gives, in its {@code Link}
 * header or at a JsonPath of its body (absent or null on the last page, as Bitbucket does, or a
 * member along the path absent or null, as HAL and JSON:API link objects do; the end check then
 * refuses a page that names a next page by another signal). A URL to another origin is followed
 * only when {@code allowedHosts} lists its host and the request carries no credentials (which
 * {@link ListingWalk} checks for every mode); a URL already fetched (its query in any order, its
 * fragment aside) is a loop, an error. What any page promised ({@link WalkPromises}) must be kept
 * when the links run out.
 */
final class LinkPaginator implements Paginator {
  /** Why a next link led to a page read before, spelled another way. */
  static final String LOOP =
      " (a next link spelled another way that leads back to a page already read); the listing"
          + " loops";

  private final PageSource source;
  private final CompiledPaginate.LinkHeader link;
  private final CompiledPaginate.NextUrl next;
  private final ElementCount elements;
  private final SeenPages seen;

  /** The pages fetched, as {@link #same} keys them: at most {@code maxPages}. */
  private final Set<String> fetched = new HashSet<>();

  private final WalkPromises promises =
      new WalkPromises(uri -> PageSignals.pageParameter(uri, "page", 1), false, true);
  private UpstreamRequest first;

  LinkPaginator(
      PageSource source,
      CompiledPaginate.LinkHeader link,
      CompiledPaginate.NextUrl next,
      ElementCount elements) {
    this.source = source;
    this.link = link;
    this.next = next;
    this.elements = elements;
    this.seen = new SeenPages(elements);
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
    fetched.add(same(current.uri()));
    // The Link header in both modes: a rel="last" that moves, or a rel="next" on a page whose body
    // names none, tells what the body alone does not (a grown listing repeated a row in next mode).
    PageSignals signals = PageSignals.of(page, true, "page");
    promises.read(page, number, elements.elements(page), signals);
    String target =
        link != null
            ? signals.link(link.rel().toLowerCase(java.util.Locale.ROOT))
            : Cursors.value(page, next.next(), next.holder(), "next", false, true);
    if (target == null || target.isBlank()) {
      seen.check(page, number, LOOP);
      // The end, unless the page says more remain: a short 200 is what Argo CD must never get.
      String more = promises.unkept(number);
      if (more == null && link == null && signals.link("next") != null) {
        more = "its Link header has a rel=\"next\" link";
      } else if (more == null && signals.nextPage() != null && !signals.nextPage().isBlank()) {
        more = "it says X-Next-Page: " + page.excerpt(signals.nextPage().trim());
      }
      if (more != null) {
        page.refusedBy("listing-cut");
        throw RequestFailure.of(
            current, "the listing ends at page " + number + " (no next link) while " + more);
      }
      NextPageSignals.checkEnd(
          page,
          number,
          "(no next link)",
          limits(),
          next == null ? null : next.next().getPath(),
          elements);
      return null;
    }
    if (link == null) {
      PageSignals.single(page, "next '" + next.next().getPath() + "'", target, "page");
    }
    URI uri;
    try {
      uri = UriReferences.resolve(current.uri(), target);
    } catch (IllegalArgumentException e) {
      throw RequestFailure.of(current, "invalid next-page URL");
    }
    if (fetched.contains(same(uri))) {
      throw RequestFailure.of(
          current,
          "the next page is one already fetched (" + page.excerpt(uri.toString()) + "), a loop");
    }
    seen.check(page, number, LOOP);
    if (!HostPolicy.sameOrigin(first.uri(), uri)) {
      if (!(first.hosts().restricts() && first.hosts().allows(uri))) {
        throw RequestFailure.of(
            current,
            "next page on another origin '"
                + HostPolicy.origin(uri)
                + "' refused; list its host in allowedHosts to follow it");
      }
      // Its credentials are kept to the origin by the walk (ListingWalk), in every mode.
    }
    return current.withUri(uri);
  }

  /**
   * What two URLs of one page share: scheme and host in lower case, the port (the scheme's default
   * left out), the path, and the query's parameters sorted; the fragment, never sent, is left out.
   * {@code ?a=1&b=2} and {@code ?b=2&a=1} are one page, which as two URLs let a loop run to {@code
   * maxPages}.
   */
  static String same(URI uri) {
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    String host = uri.getHost() == null ? "" : uri.getHost().toLowerCase(Locale.ROOT);
    int port = uri.getPort();
    if (port == ("https".equals(scheme) ? 443 : "http".equals(scheme) ? 80 : -2)) {
      port = -1;
    }
    String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
    String query = uri.getRawQuery();
    String[] pairs = query == null || query.isEmpty() ? new String[0] : query.split("&", -1);
    Arrays.sort(pairs);
    String user = uri.getRawUserInfo() == null ? "" : uri.getRawUserInfo() + "@";
    return scheme + "://" + user + host + ":" + port + path + "?" + String.join("&", pairs);
  }
}
