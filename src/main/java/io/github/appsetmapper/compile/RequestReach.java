package io.github.appsetmapper.compile;

import io.github.appsetmapper.config.Problems;
import io.github.appsetmapper.config.TlsSpec;
import io.github.appsetmapper.expr.Scope;
import io.github.appsetmapper.secret.CredentialHeaders;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Load-time checks on where a request may send what it carries: the Host header comes from the same
 * sources as the URL's host, and credentials go to a host that upstream data names only when the
 * mapping lists the hosts it trusts.
 */
final class RequestReach {
  private RequestReach() {}

  /** The Host header picks the server as the URL's host does: the same sources only. */
  private static final String HOST_ONLY_VARS =
      "the Host header picks the server as the URL's host does: it may come only from"
          + " literal text and vars";

  /** A header's text: the Host header's suggested #{...} reads only vars. */
  static AuthorSlips.Place place(String header) {
    return header.equalsIgnoreCase("host") ? HOST_HEADER : AuthorSlips.Place.TEXT;
  }

  private static final AuthorSlips.Place HOST_HEADER =
      new AuthorSlips.Place(
          true,
          scope -> {
            Scope vars = scope;
            for (String name : scope.names()) {
              if (!name.equals(Scope.Name.VARS.word())) {
                vars = vars.without(name, HOST_ONLY_VARS);
              }
            }
            return vars;
          },
          null);

  static void checkHostHeader(Map<String, Template> headers, Problems problems) {
    headers.forEach(
        (name, template) -> {
          if (name.equalsIgnoreCase("host")
              && template != null
              && template.parts().stream()
                  .anyMatch(p -> p instanceof Template.Hole h && !readsOnlyVars(h.expression()))) {
            problems.add(template.source().pos(), HOST_ONLY_VARS);
          }
        });
  }

  private static boolean readsOnlyVars(CompiledExpression expression) {
    return expression.inspection().roots().stream().allMatch(r -> r.equals(Scope.Name.VARS.word()));
  }

  /**
   * For a mapping without {@code allowedHosts}: a URL whose scheme or host comes from upstream data
   * ({@code item}, {@code response}, an enrich result, a cursor) goes wherever that data says, so
   * it may not carry credentials. Redirects and next-page links already keep to the origin or
   * allowedHosts; this is the same rule for a URL the mapping builds from upstream data.
   *
   * @param credentials what carries them ({@link #credentials}), or null
   */
  static void checkCredentialedHost(
      UrlTemplate url, String credentials, Set<String> enrichNames, Problems problems) {
    if (credentials == null) {
      return;
    }
    Set<String> upstream =
        new LinkedHashSet<>(
            List.of(Scope.Name.ITEM.word(), Scope.Name.RESPONSE.word(), Scope.Name.PAGE.word()));
    upstream.addAll(enrichNames);
    List<Template.Part> parts = url.template().parts();
    for (int i = 0; i < parts.size(); i++) {
      if (url.roles().get(i) == UrlTemplate.Role.BASE
          && parts.get(i) instanceof Template.Hole hole) {
        String from = UrlCompiler.firstRead(hole.expression(), upstream);
        if (from != null) {
          problems.add(
              url.template().source().pos(),
              "the scheme and host come from upstream data ('"
                  + from
                  + "') and the request sends credentials ("
                  + credentials
                  + "): declare allowedHosts, the hosts they may be sent to");
          return;
        }
      }
    }
  }

  /** What in a request carries credentials ("auth", "headers.X-Key" ...), or null: nothing. */
  static String credentials(
      CompiledAuth auth,
      UrlTemplate url,
      Map<String, Template> query,
      Map<String, Template> headers,
      Object body,
      TlsSpec tls) {
    if (auth != null) {
      return "auth";
    }
    for (Map.Entry<String, Template> header : headers.entrySet()) {
      if (CredentialHeaders.is(header.getKey())
          || (header.getValue() != null && header.getValue().readsSecret())) {
        return "headers." + header.getKey();
      }
    }
    for (Map.Entry<String, Template> param : query.entrySet()) {
      if (param.getValue() != null && param.getValue().readsSecret()) {
        return "query." + param.getKey();
      }
    }
    if (url.template().readsSecret()) {
      return "url";
    }
    if (readsSecret(body)) {
      return "body";
    }
    if (tls != null && tls.certFile() != null) {
      return "tls.certFile";
    }
    return null;
  }

  private static boolean readsSecret(Object node) {
    if (node instanceof Template template) {
      return template.readsSecret();
    }
    if (node instanceof Map<?, ?> map) {
      return map.values().stream().anyMatch(RequestReach::readsSecret);
    }
    if (node instanceof List<?> list) {
      return list.stream().anyMatch(RequestReach::readsSecret);
    }
    return false;
  }
}
