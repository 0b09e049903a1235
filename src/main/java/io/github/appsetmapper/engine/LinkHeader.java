package io.github.appsetmapper.engine;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * RFC 8288 {@code Link} headers, as GitHub, GitLab, Gitea (no space after the comma) and registries
 * send them: {@code <url>; rel="next", <url>; rel="last"}. Relation values may be quoted and
 * space-separated. Parsing is strict: a header that does not parse is an error, never "no next
 * link", which would end a listing early with a 200. A link with {@code results="false"} names no
 * next page: Sentry writes {@code rel="next"; results="false"} on its last page (and {@code
 * results="true"} when there is one), so its {@code next} relation is dropped.
 */
final class LinkHeader {
  /** One link: its target as written, and its relations in lower case. */
  record Link(String target, Set<String> rels) {}

  /** A Link header value that does not parse; the message says why, never quoting it. */
  static final class Malformed extends Exception {
    Malformed(String message) {
      super(message, null, false, false);
    }
  }

  private LinkHeader() {}

  /** The target of the first link with relation {@code rel}, or null. */
  static String find(List<String> headerValues, String rel) throws Malformed {
    String wanted = rel.toLowerCase(Locale.ROOT);
    for (Link link : parse(headerValues)) {
      if (link.rels().contains(wanted)) {
        return link.target();
      }
    }
    return null;
  }

  /**
   * Every link of every value, in order, parsed as RFC 8288 section 3 says: {@code link-value = "<"
   * URI-Reference ">" *( OWS ";" OWS link-param )}, {@code link-param = token BWS [ "=" BWS ( token
   * / quoted-string ) ]}, values separated by commas (empty elements allowed), a quoted-string with
   * RFC 9110's escapes. Only the first {@code rel} of a link counts (RFC 8288 3.3).
   */
  static List<Link> parse(List<String> headerValues) throws Malformed {
    List<Link> links = new ArrayList<>();
    for (String header : headerValues) {
      new Reader(header).links(links);
    }
    return links;
  }

  /** One pass over one header value. */
  private static final class Reader {
    private final String text;
    private int at;

    Reader(String text) {
      this.text = text;
    }

    void links(List<Link> into) throws Malformed {
      skipSpace();
      while (at < text.length()) {
        if (text.charAt(at) == ',') {
          at++; // an empty element, allowed by the list syntax
          skipSpace();
          continue;
        }
        if (text.charAt(at) != '<') {
          throw new Malformed("a link does not start with '<' at character " + (at + 1));
        }
        int close = text.indexOf('>', at);
        if (close < 0) {
          throw new Malformed("a link's '<' is never closed by '>'");
        }
        String target = text.substring(at + 1, close).trim();
        at = close + 1;
        into.add(new Link(target, params("after a link's '>'")));
      }
    }

    /** The parameters up to the comma that ends the link (or the end); its relations. */
    private Set<String> params(String where) throws Malformed {
      Set<String> rels = null;
      boolean noResults = false;
      String after = where;
      while (true) {
        skipSpace();
        if (at >= text.length()) {
          break;
        }
        char c = text.charAt(at);
        if (c == ',') {
          at++;
          skipSpace();
          break;
        }
        if (c != ';') {
          throw new Malformed("expected ';' or ',' " + after + " at character " + (at + 1));
        }
        at++;
        skipSpace();
        if (at < text.length() && (text.charAt(at) == ';' || text.charAt(at) == ',')) {
          continue; // an empty parameter, as browsers and most parsers allow
        }
        String name = token();
        if (name.isEmpty()) {
          throw new Malformed("a parameter has no name at character " + (at + 1));
        }
        skipSpace();
        String value = null;
        if (at < text.length() && text.charAt(at) == '=') {
          at++;
          skipSpace();
          boolean quoted = at < text.length() && text.charAt(at) == '"';
          value = quoted ? quoted() : token();
          if (value.isEmpty() && !quoted) {
            throw new Malformed("a parameter's value is missing at character " + (at + 1));
          }
        }
        if (rels == null && name.equalsIgnoreCase("rel")) {
          rels = relations(value == null ? "" : value);
        }
        noResults |= name.equalsIgnoreCase("results") && "false".equalsIgnoreCase(value);
        after = "after a parameter";
      }
      if (rels != null && noResults) {
        rels.remove("next"); // Sentry's last page: rel="next"; results="false"
      }
      return rels == null ? Set.of() : rels;
    }

    private String token() {
      int from = at;
      while (at < text.length() && tchar(text.charAt(at))) {
        at++;
      }
      return text.substring(from, at);
    }

    /** A quoted-string at {@code at}: its content, escapes undone. */
    private String quoted() throws Malformed {
      StringBuilder value = new StringBuilder();
      at++;
      while (at < text.length()) {
        char c = text.charAt(at++);
        if (c == '"') {
          return value.toString();
        }
        if (c == '\\') {
          if (at >= text.length()) {
            break;
          }
          c = text.charAt(at++);
        }
        if (c < 0x20 && c != '\t' || c == 0x7f) {
          throw new Malformed("a control character in a quoted parameter");
        }
        value.append(c);
      }
      throw new Malformed("a quoted parameter is never closed");
    }

    private void skipSpace() {
      while (at < text.length() && (text.charAt(at) == ' ' || text.charAt(at) == '\t')) {
        at++;
      }
    }
  }

  /** RFC 9110 tchar. */
  private static boolean tchar(char c) {
    return (c >= 'a' && c <= 'z')
        || (c >= 'A' && c <= 'Z')
        || (c >= '0' && c <= '9')
        || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
  }

  /** A rel value: relation types separated by white space, in lower case. */
  private static Set<String> relations(String value) {
    Set<String> rels = new LinkedHashSet<>();
    for (String r : value.toLowerCase(Locale.ROOT).trim().split("\\s+")) {
      if (!r.isEmpty()) {
        rels.add(r);
      }
    }
    return rels;
  }
}
