package io.github.appsetmapper.compile;

import io.github.appsetmapper.config.Problems;
import io.github.appsetmapper.expr.Scope;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Gives each hole of a URL template its role from the literal text before it, refuses a scheme or
 * host that the caller could choose, and finds the path segments that hold holes.
 */
final class UrlCompiler {
  /** Literal text that has not yet reached the path: {@code https://host} or nothing. */
  private static final Pattern BEFORE_PATH =
      Pattern.compile("([a-zA-Z][a-zA-Z0-9+.-]*:(//)?)?[^/?#]*");

  private UrlCompiler() {}

  /**
   * @param caller the names whose values the caller chooses: {@code input}, {@code
   *     applicationSetName}, and enrich results computed from them
   */
  static UrlTemplate compile(Template template, Problems problems, Set<String> caller) {
    List<Template.Part> parts = template.parts();
    List<UrlTemplate.Role> roles = new ArrayList<>();
    StringBuilder literalSoFar = new StringBuilder();
    for (Template.Part part : parts) {
      if (part instanceof Template.Literal literal) {
        literalSoFar.append(literal.text());
        roles.add(UrlTemplate.Role.LITERAL);
        continue;
      }
      CompiledExpression hole = ((Template.Hole) part).expression();
      String before = literalSoFar.toString();
      UrlTemplate.Role role;
      if (BEFORE_PATH.matcher(before).matches()) {
        role = UrlTemplate.Role.BASE;
        String chosen = firstRead(hole, caller);
        if (chosen != null) {
          problems.add(template.source().pos(), hostFromCaller(chosen));
        }
      } else if (before.contains("#")) {
        problems.add(template.source().pos(), "templates in a URL fragment are not allowed");
        role = UrlTemplate.Role.QUERY;
      } else if (before.contains("?")) {
        role = UrlTemplate.Role.QUERY;
      } else {
        role = UrlTemplate.Role.PATH;
      }
      roles.add(role);
    }
    if (parts.stream().noneMatch(p -> p instanceof Template.Hole)) {
      checkAbsolute(template, problems);
    }
    return new UrlTemplate(template, roles, segments(parts, roles, caller));
  }

  /** Whether a hole after the literal text {@code before} is in the URL's scheme or host. */
  static boolean beforePath(String before) {
    return BEFORE_PATH.matcher(before).matches();
  }

  /** How many characters of {@code next}, after {@code before}, are still its scheme or host. */
  static int beforePath(String before, String next) {
    if (!beforePath(before)) {
      return 0;
    }
    Matcher upToPath = BEFORE_PATH.matcher(before + next);
    return upToPath.lookingAt() ? Math.max(0, upToPath.end() - before.length()) : 0;
  }

  /** A URL's text: its scheme and host read nothing of {@code caller}, as {@link #compile} says. */
  static AuthorSlips.Place place(Set<String> caller) {
    return new AuthorSlips.Place(true, scope -> scope, scope -> hostScope(scope, caller));
  }

  /** {@code scope} where a URL's scheme and host are written: nothing of {@code caller} is. */
  static Scope hostScope(Scope scope, Set<String> caller) {
    for (String name : caller) {
      if (scope.names().contains(name)) {
        scope = scope.without(name, hostFromCaller(name));
      }
    }
    return scope;
  }

  static String hostFromCaller(String name) {
    if (name.equals("input")) {
      return "the scheme and host of a URL may come only from vars or upstream data, never from"
          + " input; put the input in the path or the query";
    }
    if (name.equals("applicationSetName")) {
      return "the scheme and host of a URL may come only from vars or upstream data, never from"
          + " applicationSetName (the caller sends it); put it in the path or the query";
    }
    return "the scheme and host of a URL may come only from vars or upstream data, never from"
        + " what the caller sends: '"
        + name
        + "' is computed from input or applicationSetName; put it in the path or the query";
  }

  /** The first name of {@code names} the hole reads, or null. */
  static String firstRead(CompiledExpression hole, Set<String> names) {
    for (String root : hole.inspection().roots()) {
      if (names.contains(root)) {
        return root;
      }
    }
    return null;
  }

  /** The path segments holding a PATH hole, each once, in order. */
  private static List<UrlTemplate.Segment> segments(
      List<Template.Part> parts, List<UrlTemplate.Role> roles, Set<String> caller) {
    List<UrlTemplate.Segment> out = new ArrayList<>();
    int i = 0;
    while (i < parts.size()) {
      if (roles.get(i) != UrlTemplate.Role.PATH) {
        i++;
        continue;
      }
      // Back to the '/' that opens the segment (holes never write one: they are encoded).
      int firstPart = i;
      int firstOffset = 0;
      for (int p = i - 1; p >= 0; p--) {
        if (parts.get(p) instanceof Template.Literal literal) {
          int slash = literal.text().lastIndexOf('/');
          if (slash >= 0) {
            firstPart = p;
            firstOffset = slash + 1;
            break;
          }
        }
        firstPart = p;
        firstOffset = 0;
      }
      // On to the '/', '?' or '#' that closes it, or the end.
      int lastPart = parts.size() - 1;
      int endOffset = -1;
      for (int p = i + 1; p < parts.size(); p++) {
        if (parts.get(p) instanceof Template.Literal literal) {
          int end = firstOf(literal.text(), "/?#");
          if (end >= 0) {
            lastPart = p;
            endOffset = end;
            break;
          }
        }
      }
      StringBuilder source = new StringBuilder();
      boolean fromCaller = false;
      for (int p = firstPart; p <= lastPart; p++) {
        Template.Part part = parts.get(p);
        if (part instanceof Template.Literal literal) {
          int from = p == firstPart ? firstOffset : 0;
          int to = p == lastPart && endOffset >= 0 ? endOffset : literal.text().length();
          source.append(literal.text(), from, to);
        } else {
          CompiledExpression hole = ((Template.Hole) part).expression();
          source.append("#{").append(hole.expression().getExpressionString()).append('}');
          fromCaller |= firstRead(hole, caller) != null;
        }
      }
      out.add(
          new UrlTemplate.Segment(
              firstPart, firstOffset, lastPart, endOffset, source.toString(), fromCaller));
      i = endOffset >= 0 ? lastPart : parts.size();
    }
    return out;
  }

  private static int firstOf(String text, String chars) {
    for (int k = 0; k < text.length(); k++) {
      if (chars.indexOf(text.charAt(k)) >= 0) {
        return k;
      }
    }
    return -1;
  }

  private static void checkAbsolute(Template template, Problems problems) {
    String text = template.source().text();
    try {
      URI uri = new URI(text);
      String scheme = uri.getScheme();
      if (scheme == null
          || !(scheme.equalsIgnoreCase("http") || scheme.equalsIgnoreCase("https"))
          || uri.getHost() == null) {
        problems.add(
            template.source().pos(),
            "'" + text + "' is not an absolute http(s) URL" + goTemplateHint(text));
      }
    } catch (URISyntaxException e) {
      problems.add(
          template.source().pos(),
          "invalid URL '" + text + "': " + e.getReason() + goTemplateHint(text));
    }
  }

  /**
   * Argo CD's own templates are Go's ({@code {{ .branch }}}): a URL written so is the likeliest
   * reason for an invalid one, and "Illegal character in path" alone does not say it.
   */
  private static String goTemplateHint(String text) {
    return text.contains("{{")
        ? " (a hole here is #{...}, as in #{item.name}; {{ }} is Go's template syntax, which Argo"
            + " CD applies to the Application, not this mapping)"
        : "";
  }
}
