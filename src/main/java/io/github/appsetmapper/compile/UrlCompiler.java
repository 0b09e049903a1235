package io.github.appsetmapper.compile;

import io.github.appsetmapper.config.Problems;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/** Gives each hole of a URL template its role from the literal text before it. */
final class UrlCompiler {
  /** Literal text that has not yet reached the path: {@code https://host} or nothing. */
  private static final Pattern BEFORE_PATH =
      Pattern.compile("([a-zA-Z][a-zA-Z0-9+.-]*:(//)?)?[^/?#]*");

  private UrlCompiler() {}

  static UrlTemplate compile(Template template, Problems problems) {
    List<Template.Part> parts = template.parts();
    List<UrlTemplate.Role> roles = new ArrayList<>();
    List<Boolean> whole = new ArrayList<>();
    StringBuilder literalSoFar = new StringBuilder();
    for (int i = 0; i < parts.size(); i++) {
      Template.Part part = parts.get(i);
      if (part instanceof Template.Literal literal) {
        literalSoFar.append(literal.text());
        roles.add(UrlTemplate.Role.LITERAL);
        whole.add(false);
        continue;
      }
      CompiledExpression hole = ((Template.Hole) part).expression();
      String before = literalSoFar.toString();
      UrlTemplate.Role role;
      if (BEFORE_PATH.matcher(before).matches()) {
        role = UrlTemplate.Role.BASE;
        if (hole.readsInput()) {
          problems.add(
              template.source().pos(),
              "the scheme and host of a URL may come only from vars or upstream data, never from"
                  + " input; put the input in the path or the query");
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
      whole.add(role == UrlTemplate.Role.PATH && before.endsWith("/") && endsSegment(parts, i));
    }
    if (parts.stream().noneMatch(p -> p instanceof Template.Hole)) {
      checkAbsolute(template, problems);
    }
    return new UrlTemplate(template, roles, whole);
  }

  private static boolean endsSegment(List<Template.Part> parts, int i) {
    if (i + 1 >= parts.size()) {
      return true;
    }
    return parts.get(i + 1) instanceof Template.Literal next
        && (next.text().startsWith("/") || next.text().startsWith("?"));
  }

  private static void checkAbsolute(Template template, Problems problems) {
    String text = template.source().text();
    try {
      URI uri = new URI(text);
      String scheme = uri.getScheme();
      if (scheme == null
          || !(scheme.equalsIgnoreCase("http") || scheme.equalsIgnoreCase("https"))
          || uri.getHost() == null) {
        problems.add(template.source().pos(), "'" + text + "' is not an absolute http(s) URL");
      }
    } catch (URISyntaxException e) {
      problems.add(template.source().pos(), "invalid URL '" + text + "': " + e.getReason());
    }
  }
}
