package io.github.appsetmapper.upstream.auth;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Parses {@code WWW-Authenticate} (RFC 9110 11.6.1): several challenges per header and several
 * headers, auth-params as tokens or quoted strings (a comma inside quotes, as in Docker Hub's
 * {@code scope="repository:samalba/my-app:pull,push"}, stays in the value; backslash escapes are
 * undone), scheme and parameter names case-insensitive, token68 credentials kept whole.
 */
public final class Challenges {
  /** One challenge: the scheme in lower case and its parameters by lower-case name. */
  public record Challenge(String scheme, Map<String, String> params, String token68) {
    public String param(String name) {
      return params.get(name.toLowerCase(Locale.ROOT));
    }
  }

  private final String text;
  private int pos;

  private Challenges(String text) {
    this.text = text;
  }

  public static List<Challenge> parse(List<String> headerValues) {
    List<Challenge> out = new ArrayList<>();
    for (String value : headerValues) {
      if (value != null) {
        out.addAll(new Challenges(value).all());
      }
    }
    return out;
  }

  /** The first challenge of {@code scheme}, or null. */
  public static Challenge find(List<Challenge> challenges, String scheme) {
    for (Challenge challenge : challenges) {
      if (challenge.scheme().equalsIgnoreCase(scheme)) {
        return challenge;
      }
    }
    return null;
  }

  private List<Challenge> all() {
    List<Challenge> out = new ArrayList<>();
    while (true) {
      skip(" \t,");
      String scheme = token();
      if (scheme.isEmpty()) {
        if (pos < text.length()) {
          pos++; // a stray character: skip it rather than loop
          continue;
        }
        return out;
      }
      Map<String, String> params = new LinkedHashMap<>();
      String token68 = null;
      skip(" \t");
      while (pos < text.length() && text.charAt(pos) != ',') {
        int start = pos;
        String name = token();
        skip(" \t");
        if (name.isEmpty() || pos >= text.length() || text.charAt(pos) != '=') {
          pos = start;
          break;
        }
        int equals = pos;
        pos++;
        skip(" \t");
        if (pos >= text.length() || text.charAt(pos) == '=' || text.charAt(pos) == ',') {
          // token68: "abc==" (the '=' are padding, not a parameter)
          pos = equals;
          while (pos < text.length() && text.charAt(pos) == '=') {
            pos++;
          }
          token68 = text.substring(start, pos).strip();
          break;
        }
        String value = text.charAt(pos) == '"' ? quoted() : token();
        params.putIfAbsent(name.toLowerCase(Locale.ROOT), value);
        skip(" \t");
        if (pos < text.length() && text.charAt(pos) == ',') {
          int comma = pos;
          pos++;
          skip(" \t,");
          if (!nextIsParam()) {
            pos = comma;
            break;
          }
        }
      }
      if (token68 == null && params.isEmpty()) {
        token68 = bareToken68();
      }
      out.add(new Challenge(scheme.toLowerCase(Locale.ROOT), Map.copyOf(params), token68));
    }
  }

  /** After a comma: is what follows {@code name=} (another parameter) or a new challenge? */
  private boolean nextIsParam() {
    int save = pos;
    String name = token();
    skip(" \t");
    boolean param = !name.isEmpty() && pos < text.length() && text.charAt(pos) == '=';
    pos = save;
    return param;
  }

  private String bareToken68() {
    int start = pos;
    while (pos < text.length() && text.charAt(pos) != ',' && text.charAt(pos) != ' ') {
      pos++;
    }
    String value = text.substring(start, pos);
    return value.isEmpty() ? null : value;
  }

  private String token() {
    int start = pos;
    while (pos < text.length() && isTokenChar(text.charAt(pos))) {
      pos++;
    }
    return text.substring(start, pos);
  }

  private String quoted() {
    StringBuilder out = new StringBuilder();
    pos++; // opening quote
    while (pos < text.length()) {
      char c = text.charAt(pos++);
      if (c == '\\' && pos < text.length()) {
        out.append(text.charAt(pos++));
      } else if (c == '"') {
        return out.toString();
      } else {
        out.append(c);
      }
    }
    return out.toString(); // unterminated: take what is there
  }

  private void skip(String chars) {
    while (pos < text.length() && chars.indexOf(text.charAt(pos)) >= 0) {
      pos++;
    }
  }

  private static boolean isTokenChar(char c) {
    return (c >= 'a' && c <= 'z')
        || (c >= 'A' && c <= 'Z')
        || (c >= '0' && c <= '9')
        || "!#$%&'*+-.^_`|~/:".indexOf(c) >= 0;
  }
}
