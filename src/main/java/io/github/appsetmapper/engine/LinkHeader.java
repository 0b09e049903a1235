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
 * link", which would end a listing early with a 200.
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

  /** Every link of every value, in order. */
  static List<Link> parse(List<String> headerValues) throws Malformed {
    List<Link> links = new ArrayList<>();
    for (String header : headerValues) {
      int i = skipSpace(header, 0);
      while (i < header.length()) {
        if (header.charAt(i) == ',') {
          i = skipSpace(header, i + 1); // an empty element, allowed by the list syntax
          continue;
        }
        if (header.charAt(i) != '<') {
          throw new Malformed("a link does not start with '<' at character " + (i + 1));
        }
        int close = header.indexOf('>', i);
        if (close < 0) {
          throw new Malformed("a link's '<' is never closed by '>'");
        }
        String target = header.substring(i + 1, close).trim();
        int end = paramsEnd(header, close + 1);
        links.add(new Link(target, rels(header.substring(close + 1, end))));
        i = end < header.length() ? skipSpace(header, end + 1) : end;
      }
    }
    return links;
  }

  private static int skipSpace(String text, int from) {
    int i = from;
    while (i < text.length() && (text.charAt(i) == ' ' || text.charAt(i) == '\t')) {
      i++;
    }
    return i;
  }

  /** The end of a link's parameters: the next comma outside quotes, or the end. */
  private static int paramsEnd(String header, int from) throws Malformed {
    boolean quoted = false;
    for (int i = from; i < header.length(); i++) {
      char c = header.charAt(i);
      if (c == '"') {
        quoted = !quoted;
      } else if (c == ',' && !quoted) {
        return i;
      }
    }
    if (quoted) {
      throw new Malformed("a quoted parameter is never closed");
    }
    return header.length();
  }

  /** The relations of one link's parameters ({@code ; rel="next"; type=...}). */
  private static Set<String> rels(String params) throws Malformed {
    Set<String> rels = new LinkedHashSet<>();
    String rest = params.trim();
    if (!rest.isEmpty() && !rest.startsWith(";")) {
      throw new Malformed("a link's parameters do not start with ';'");
    }
    for (String param : rest.split(";")) {
      String p = param.trim();
      if (p.isEmpty()) {
        continue;
      }
      int eq = p.indexOf('=');
      if (eq < 0 || !p.substring(0, eq).trim().equalsIgnoreCase("rel")) {
        continue;
      }
      String value = p.substring(eq + 1).trim();
      if (value.startsWith("\"") && value.endsWith("\"") && value.length() >= 2) {
        value = value.substring(1, value.length() - 1);
      }
      for (String r : value.toLowerCase(Locale.ROOT).trim().split("\\s+")) {
        if (!r.isEmpty()) {
          rels.add(r);
        }
      }
    }
    return rels;
  }
}
