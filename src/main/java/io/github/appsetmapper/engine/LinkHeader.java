package io.github.appsetmapper.engine;

import java.util.List;
import java.util.Locale;

/**
 * Finds a link by relation in RFC 8288 {@code Link} headers, as GitHub, GitLab, Gitea (no space
 * after the comma) and registries send them. Relation values may be quoted and space-separated.
 */
final class LinkHeader {
  private LinkHeader() {}

  static String find(List<String> headerValues, String rel) {
    String wanted = rel.toLowerCase(Locale.ROOT);
    for (String header : headerValues) {
      int i = 0;
      while (true) {
        int open = header.indexOf('<', i);
        if (open < 0) {
          break;
        }
        int close = header.indexOf('>', open);
        if (close < 0) {
          break;
        }
        String target = header.substring(open + 1, close);
        int end = paramsEnd(header, close + 1);
        if (hasRel(header.substring(close + 1, end), wanted)) {
          return target;
        }
        i = end;
      }
    }
    return null;
  }

  /** The end of a link's parameters: the next comma outside quotes, or the end. */
  private static int paramsEnd(String header, int from) {
    boolean quoted = false;
    for (int i = from; i < header.length(); i++) {
      char c = header.charAt(i);
      if (c == '"') {
        quoted = !quoted;
      } else if (c == ',' && !quoted) {
        return i;
      }
    }
    return header.length();
  }

  private static boolean hasRel(String params, String wanted) {
    for (String param : params.split(";")) {
      String p = param.trim();
      int eq = p.indexOf('=');
      if (eq < 0 || !p.substring(0, eq).trim().equalsIgnoreCase("rel")) {
        continue;
      }
      String value = p.substring(eq + 1).trim();
      if (value.startsWith("\"") && value.endsWith("\"") && value.length() >= 2) {
        value = value.substring(1, value.length() - 1);
      }
      for (String r : value.toLowerCase(Locale.ROOT).split("\\s+")) {
        if (r.equals(wanted)) {
          return true;
        }
      }
    }
    return false;
  }
}
