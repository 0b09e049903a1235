package io.github.appsetmapper.engine;

import io.github.appsetmapper.upstream.call.Headers;
import io.github.appsetmapper.upstream.call.RequestFailure;
import io.github.appsetmapper.upstream.call.UriReferences;
import java.net.URI;
import java.util.List;

/**
 * What a page's headers say about the pages after it: its {@code Link} header, {@code X-Next-Page}
 * (present and empty: the last page), {@code X-Total-Pages} and {@code X-Total} (or {@code
 * X-Total-Count}). Read strictly: a signal that is present but does not parse (a Link header that
 * is not RFC 8288, a count that is not a non-negative integer) is a 502 naming the header, never a
 * signal ignored, which could end a listing early with a 200. A blank count is taken as absent
 * (GitLab leaves the totals out above 10,000 rows).
 */
record PageSignals(
    List<LinkHeader.Link> links, String nextPage, Long totalPages, Long total, String totalHeader) {

  /**
   * Reads {@code page}'s signals; {@code withLinks}: whether its mode reads the Link header; {@code
   * pageParam}: the query parameter that numbers a page in the links' URLs.
   */
  static PageSignals of(Page page, boolean withLinks, String pageParam) throws RequestFailure {
    return read(page, withLinks, pageParam, true);
  }

  /**
   * Reads {@code page}'s signals as {@link SinglePage} does where no next page is named (neither a
   * Link header naming "next" nor a non-empty X-Next-Page): what does not parse is absent (a
   * malformed Link header, a count that is not a number, a link giving its page twice), never a
   * refusal, and nothing is counted as one; two counts that disagree are read at the larger. The
   * signals that do parse still decide.
   */
  static PageSignals lenient(Page page) {
    try {
      return read(page, true, "page", false);
    } catch (RequestFailure unreachable) {
      throw new IllegalStateException(unreachable);
    }
  }

  private static PageSignals read(Page page, boolean withLinks, String pageParam, boolean strict)
      throws RequestFailure {
    Headers headers = page.response().headers();
    List<LinkHeader.Link> links = List.of();
    if (withLinks) {
      try {
        links = LinkHeader.parse(headers.all("Link"));
      } catch (LinkHeader.Malformed e) {
        if (strict) {
          throw malformed(page, "Link", String.join(", ", headers.all("Link")), e.getMessage());
        }
      }
    }
    // Two links of one relation to different pages: whichever were followed, pages would be
    // skipped or the listing cut at the first "last" (an outside tester's short 200).
    for (String rel : List.of("next", "last")) {
      List<String> targets =
          links.stream()
              .filter(l -> l.rels().contains(rel))
              .map(LinkHeader.Link::target)
              .distinct()
              .toList();
      if (targets.size() > 1 && !strict) {
        links = List.of();
        break;
      }
      if (targets.size() > 1) {
        throw malformed(
            page,
            "Link",
            String.join(", ", headers.all("Link")),
            "two different rel=\"" + rel + "\" links");
      }
    }
    List<LinkHeader.Link> kept = new java.util.ArrayList<>();
    for (LinkHeader.Link link : links) {
      boolean twice = false;
      for (String rel : link.rels()) {
        if (READ_RELATIONS.contains(rel)) {
          twice |= !strict && twice(page, link.target(), pageParam);
          if (strict) {
            single(page, "rel=\"" + rel + "\"", link.target(), pageParam);
          }
        }
      }
      if (!twice) {
        kept.add(link);
      }
    }
    links = List.copyOf(kept);
    String nextPage = signal(headers, "X-Next-Page");
    if (nextPage != null && !nextPage.isBlank() && strict) {
      count(page, "X-Next-Page", nextPage, true);
    }
    Long totalPages = count(page, "X-Total-Pages", signal(headers, "X-Total-Pages"), strict);
    String totalHeader = "X-Total";
    Long total = count(page, totalHeader, signal(headers, totalHeader), strict);
    Long counted = count(page, "X-Total-Count", signal(headers, "X-Total-Count"), strict);
    if (total == null) {
      totalHeader = "X-Total-Count";
      total = counted;
    } else if (counted != null && !counted.equals(total) && !strict) {
      if (counted > total) {
        totalHeader = "X-Total-Count";
        total = counted;
      }
    } else if (counted != null && !counted.equals(total)) {
      throw malformed(
          page,
          "X-Total",
          total + " (X-Total-Count: " + counted + ")",
          "X-Total and X-Total-Count disagree");
    }
    return new PageSignals(links, nextPage, totalPages, total, totalHeader);
  }

  /** The relations a listing reads (next, and the ones that say where it ends). */
  private static final java.util.Set<String> READ_RELATIONS =
      java.util.Set.of("next", "last", "prev", "first");

  /**
   * Refuses a URL the upstream gave ({@code where}: the link or field it came from) that gives
   * {@code pageParam} twice with different values: which one the upstream obeys, and so where the
   * listing ends, cannot be told (read by its first, a last link cut the listing short with a 200).
   */
  static void single(Page page, String where, String target, String pageParam)
      throws RequestFailure {
    URI uri;
    try {
      uri = UriReferences.resolve(page.request().uri(), target);
    } catch (IllegalArgumentException e) {
      return; // not a URL: followed, it is refused as one; read, it says nothing
    }
    try {
      QueryParameters.single(uri, pageParam);
    } catch (QueryParameters.Twice e) {
      page.refusedBy("malformed-signal");
      throw RequestFailure.of(
          page.request(),
          where
              + " gives "
              + page.excerpt(e.getMessage())
              + "; the listing cannot tell which page it names");
    }
  }

  /**
   * A signal header's value: every line of it, joined as RFC 9110 joins a field sent twice ("2,
   * 6"). Read from its first line alone, a count sent twice would be believed at its smaller value,
   * a short 200; joined, it does not parse and the page is refused.
   */
  private static String signal(Headers headers, String name) {
    List<String> lines = headers.all(name);
    return lines.isEmpty() ? null : String.join(", ", lines);
  }

  /**
   * The page number a URL asks for in its {@code name} query parameter (counting from {@code
   * start}), or null when it has none or it is not a number.
   */
  static Integer pageParameter(URI uri, String name, int start) {
    String value;
    try {
      value = QueryParameters.single(uri, name);
    } catch (QueryParameters.Twice e) {
      return null; // never a link's: those are refused as the page is read (single)
    }
    if (value == null) {
      return null;
    }
    return pageNumber(value, start);
  }

  /**
   * {@code value} as a page number counted from 1; {@link Unreadable} when it is not a number. A
   * number past what an int holds is still a number: it names a page beyond any this listing reads
   * (saturated to {@link Integer#MAX_VALUE}), never "cannot be told", which let {@code rel="last"}
   * at page 2147483648 pass as no signal and the listing answer its first page with a 200.
   */
  static Integer pageNumber(String value, int start) {
    java.math.BigInteger number;
    try {
      number = new java.math.BigInteger(value);
    } catch (NumberFormatException e) {
      throw new Unreadable(value);
    }
    java.math.BigInteger counted =
        number.subtract(java.math.BigInteger.valueOf(start)).add(java.math.BigInteger.ONE);
    if (counted.bitLength() >= 32) {
      return counted.signum() > 0 ? Integer.MAX_VALUE : Integer.MIN_VALUE;
    }
    return counted.intValue();
  }

  /** A page parameter that is there but is not a whole number. */
  static final class Unreadable extends RuntimeException {
    final String value;

    Unreadable(String value) {
      super(null, null, false, false);
      this.value = value;
    }
  }

  /** The target of the first link with relation {@code rel}, or null. */
  String link(String rel) {
    for (LinkHeader.Link link : links) {
      if (link.rels().contains(rel)) {
        return link.target();
      }
    }
    return null;
  }

  /** Whether {@code target} gives {@code pageParam} twice (what {@link #single} refuses). */
  private static boolean twice(Page page, String target, String pageParam) {
    try {
      QueryParameters.single(UriReferences.resolve(page.request().uri(), target), pageParam);
      return false;
    } catch (IllegalArgumentException e) {
      return false;
    } catch (QueryParameters.Twice e) {
      return true;
    }
  }

  /**
   * A count header: null when absent or blank, else a non-negative integer; one that is not is a
   * 502 when {@code strict}, else absent.
   */
  private static Long count(Page page, String header, String value, boolean strict)
      throws RequestFailure {
    if (value == null || value.isBlank()) {
      return null;
    }
    String text = value.trim();
    boolean digits = !text.isEmpty() && text.length() <= 18;
    for (int i = 0; i < text.length() && digits; i++) {
      digits = text.charAt(i) >= '0' && text.charAt(i) <= '9';
    }
    if (!digits && !strict) {
      return null;
    }
    if (!digits) {
      throw malformed(page, header, value, "not a non-negative integer");
    }
    return Long.parseLong(text);
  }

  private static RequestFailure malformed(Page page, String header, String value, String why) {
    page.refusedBy("malformed-signal");
    return RequestFailure.of(
        page.request(),
        "the "
            + header
            + " header does not parse ("
            + why
            + "): '"
            + page.excerpt(value)
            + "'; the listing cannot tell whether more pages remain");
  }
}
