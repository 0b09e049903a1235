package io.github.appsetmapper.engine;

import io.github.appsetmapper.upstream.call.Headers;
import io.github.appsetmapper.upstream.call.UriReferences;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The one table of what a page's body (or a header no mode reads) says of a next page, in the
 * spellings of the APIs that put it there, each with the {@code paginate} mode that reads it (null:
 * none can). Only what cannot mean anything else: a {@code next} that is not a URL, a {@code
 * has_more: false}, a null or empty token, is the last page, never a 502 (which also hurts: Argo CD
 * keeps stale Applications). Read by {@link SinglePage} on a listing without {@code paginate}, and
 * by every mode where it ends, so that a body saying more is never a 200 with rows lost. The docs'
 * list is checked against {@link #TABLE} by a test.
 */
final class NextPageSignals {
  private NextPageSignals() {}

  /** What a value must be to name a next page. */
  enum Test {
    /** A URI reference: see {@link #url}. */
    URL,
    /** A string that is not blank. */
    TEXT,
    /** {@code true} (or the string {@code "true"}). */
    TRUE,
    /** {@code false} (or the string {@code "false"}, or the number 0). */
    FALSE,
    /**
     * {@code false} or the string {@code "false"}, never a number: a name a number means something
     * else under (Spring Data's {@code last}, where {@code "last": 5} is the last page's number and
     * {@code "last": 0} an index in other APIs).
     */
    FALSE_WORD,
    /** A whole number above 0 (a next page's number), or such a number as a string. */
    NUMBER
  }

  /**
   * One spelling: the keys from the body's top level (or, with {@code connection}, from the object
   * that holds the listing's list: GraphQL's connection), the test, who sends it, and the mode that
   * reads it ({@code %s}: the path of the connection) or null.
   */
  record Signal(List<String> keys, Test test, String vendor, String mode, boolean connection) {
    /** The path as the docs and messages write it ({@code $.metadata.continue}). */
    String path() {
      StringBuilder path = new StringBuilder(connection ? "<connection>" : "$");
      for (String key : keys) {
        path.append(key.matches("[A-Za-z_][A-Za-z0-9_]*") ? "." + key : "['" + key + "']");
      }
      return path.toString();
    }

    /** How a message says it. */
    String said() {
      return switch (test) {
        case URL -> "its body has a next URL at " + path();
        case TEXT -> "its body has a non-empty " + path();
        case TRUE -> "its body says " + path() + ": true";
        case FALSE, FALSE_WORD -> "its body says " + path() + ": false";
        case NUMBER -> "its body names a next page at " + path();
      };
    }
  }

  /** A header that names a next page no mode follows. */
  record HeaderSignal(String name, String vendor) {}

  /** What a page said: the signal, how to say it, and the mode that reads it (null: none). */
  record Said(Signal signal, String more, String mode) {}

  /** Every body spelling, in the order they are tried. */
  static final List<Signal> TABLE = NextPageTable.rows();

  /** The headers no mode reads that name a next page when not empty. */
  static final List<HeaderSignal> HEADERS =
      List.of(new HeaderSignal("x-ms-continuationtoken", "Azure DevOps"));

  /**
   * Refuses the end of a paginated walk at {@code page} (the {@code number}th; {@code how}: why it
   * ended, "(no next link)") when its body names a next page the mode does not read ({@code read}:
   * the path it reads, null: none), as a mode ending while another style's header names a next page
   * is refused. A walk that reached {@code maxPages} with {@code onMaxPages: stop} was asked to
   * stop there: no refusal.
   */
  static void checkEnd(
      Page page,
      int number,
      String how,
      io.github.appsetmapper.compile.CompiledPaginate.Limits limits,
      String read,
      Paginator.ElementCount elements)
      throws io.github.appsetmapper.upstream.call.RequestFailure {
    if (limits.stopAtMax() && number >= limits.maxPages()) {
      return;
    }
    Said said =
        says(
            page.json(),
            page.response().headers(),
            elements.values(page),
            elements.rows(page),
            elements.connections(page),
            read);
    if (said == null) {
      return;
    }
    page.refusedBy("listing-cut");
    throw io.github.appsetmapper.upstream.call.RequestFailure.of(
        page.request(),
        "the listing ends at page "
            + number
            + " "
            + how
            + " while "
            + said.more()
            + (said.mode() == null ? "" : "; 'paginate: {" + said.mode() + "}' reads it")
            + cursorNote(said.mode()));
  }

  /**
   * What a suggested {@code cursor} mode without {@code param} needs besides (GraphQL's): the
   * request must send {@code #{page.cursor}} itself, in the query's {@code after:} variable; a user
   * who copied the mode alone got page 1 again and the loop guard's 502. Empty for any other mode.
   */
  static String cursorNote(String mode) {
    if (mode == null || !mode.startsWith("cursor:") || mode.contains("param:")) {
      return "";
    }
    return "; the request must also send the cursor: the query's after: variable reads"
        + " '#{page.cursor}' (variables: {after: \"#{page.cursor}\"}, and after: $after on the"
        + " connection), or every page asks for the first again";
  }

  /**
   * What {@code body} and {@code headers} say of a next page, or null: the first signal of {@link
   * #TABLE} that fires, skipping those at a path the mode reads itself ({@code read}, as {@link
   * #path} spells JsonPaths; null: none). {@code elements} and {@code rows}: the listing's elements
   * on this page and the rows read from them, which {@link GraphQlConnections} finds connections by
   * when {@code connections} (where those the listing's path walks through are) is null.
   */
  static Said says(
      Object body,
      Headers headers,
      List<Object> elements,
      List<Object> rows,
      List<String> connections,
      String read) {
    if (body instanceof Map<?, ?> map) {
      for (Signal signal : TABLE) {
        if (signal.connection()) {
          continue; // read below, from the listing's own connection
        }
        if (read != null && read.equals(jsonPath(signal.keys()))) {
          continue;
        }
        if (at(value(map, signal.keys()), signal.test())) {
          return new Said(signal, signal.said(), signal.mode());
        }
      }
      Said graph = graphQl(map, elements, rows, connections, read);
      if (graph != null) {
        return graph;
      }
    }
    for (HeaderSignal header : HEADERS) {
      for (String value : headers.all(header.name())) {
        if (!value.isBlank()) {
          return new Said(null, "it sends a non-empty " + header.name() + " header", null);
        }
      }
    }
    return null;
  }

  /** GraphQL: a connection holding the listing's elements says {@code hasNextPage: true}. */
  private static Said graphQl(
      Map<?, ?> body,
      List<Object> elements,
      List<Object> rows,
      List<String> connections,
      String read) {
    GraphQlConnections.Found found =
        connections == null
            ? GraphQlConnections.nextPage(body, elements, rows, read)
            : GraphQlConnections.walkedThrough(body, connections, read);
    if (found == null) {
      return null;
    }
    Signal signal = TABLE.get(TABLE.size() - 1);
    return new Said(
        signal,
        "its body says " + found.path() + ".pageInfo.hasNextPage: true",
        found.keys() == null
            ? null
            : signal.mode().formatted(found.path(), found.path().substring(1)));
  }

  /** The path as Jayway normalises a definite one ({@code $['a']['b']}). */
  static String jsonPath(List<String> keys) {
    StringBuilder path = new StringBuilder("$");
    for (String key : keys) {
      path.append("['").append(key).append("']");
    }
    return path.toString();
  }

  static Object value(Object node, List<String> keys) {
    Object at = node;
    for (String key : keys) {
      if (!(at instanceof Map<?, ?> map)) {
        return null;
      }
      at = map.get(key);
    }
    return at;
  }

  /** Whether {@code value} names a next page by {@code test}. */
  static boolean at(Object value, Test test) {
    return switch (test) {
      case URL -> url(value);
      case TEXT -> value instanceof String text && !text.isBlank();
      case TRUE -> isTrue(value);
      case FALSE ->
          value instanceof Boolean flag ? !flag : "false".equals(word(value)) || bit(value, 0);
      case FALSE_WORD -> value instanceof Boolean flag ? !flag : "false".equals(word(value));
      case NUMBER -> number(value);
    };
  }

  /**
   * {@code true}, the string {@code "true"} (any case, spaces aside), or the number {@code 1} (a
   * flag as PHP and SQL write it): nothing else ({@code "1"}, {@code 2}, {@code "yes"}).
   */
  static boolean isTrue(Object value) {
    return value instanceof Boolean flag ? flag : "true".equals(word(value)) || bit(value, 1);
  }

  /** A JSON number that is exactly {@code bit} (0 or 1): a flag written as a number. */
  private static boolean bit(Object value, int bit) {
    return value instanceof Number number && number.doubleValue() == bit;
  }

  private static String word(Object value) {
    return value instanceof String text ? text.strip().toLowerCase(Locale.ROOT) : null;
  }

  /** A whole number from 1, or a string of ASCII digits that is one ({@code "2"}). */
  private static boolean number(Object value) {
    if (value instanceof Number number) {
      return number.doubleValue() >= 1 && number.doubleValue() == Math.rint(number.doubleValue());
    }
    String text = value instanceof String given ? given.strip() : "";
    return text.matches("[0-9]{1,18}") && Long.parseLong(text) >= 1;
  }

  /**
   * A URI reference as APIs give their next page (RFC 3986): absolute over HTTP(S) with a host, a
   * path ({@code /items?page=2}), a host without the scheme ({@code //host/items}), a query alone
   * ({@code ?page=2}), or a relative path with a {@code /} or a {@code ?} in it ({@code page/2},
   * {@code items?page=2}). Read as the {@code next} mode follows it: the characters a URI cannot
   * hold ({@code |}, a space, a stray {@code %}) {@link UriReferences#encode encoded} first, so
   * {@code /items?filter=a|b&page=2} is a next page. What still does not parse is one when it is
   * plainly a reference ({@link #plainly}): a malformed next page is a 502, never the last page.
   * Not a URL: a bare word ({@code v2.0.0}, {@code 2}, {@code true}, {@code page two}: a version, a
   * number, a cursor), another scheme, a fragment alone (this page).
   */
  static boolean url(Object value) {
    if (!(value instanceof String given) || given.isBlank()) {
      return false;
    }
    String text = given.strip();
    URI uri;
    try {
      uri = new URI(UriReferences.encode(text));
    } catch (URISyntaxException e) {
      return plainly(text);
    }
    String scheme = uri.getScheme() == null ? null : uri.getScheme().toLowerCase(Locale.ROOT);
    if (scheme != null) {
      return (scheme.equals("https") || scheme.equals("http")) && uri.getHost() != null;
    }
    if (uri.getRawAuthority() != null) {
      return uri.getHost() != null;
    }
    String path = uri.getRawPath() == null ? "" : uri.getRawPath();
    String query = uri.getRawQuery();
    return path.startsWith("/")
        || path.isEmpty() && query != null && !query.isEmpty()
        || !path.isEmpty() && (path.contains("/") || query != null);
  }

  /**
   * Whether {@code text}, which does not parse, is still plainly a reference: an HTTP(S) URL by its
   * prefix, a path ({@code /...}), a query ({@code ?...}), or a relative path with a {@code /} or a
   * {@code ?} and no scheme.
   */
  private static boolean plainly(String text) {
    String lower = text.toLowerCase(Locale.ROOT);
    if (lower.startsWith("http://") || lower.startsWith("https://")) {
      return true;
    }
    if (text.startsWith("/") || text.startsWith("?") && text.length() > 1) {
      return true;
    }
    boolean scheme = text.matches("[A-Za-z][A-Za-z0-9+.-]*:.*");
    return !scheme && (text.contains("/") || text.contains("?"));
  }
}
