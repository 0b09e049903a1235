package io.github.appsetmapper.config;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/** Reads {@code request}, {@code defaults}, {@code auth} and {@code paginate} blocks. */
final class RequestParser {
  static final List<String> REQUEST_KEYS =
      List.of(
          "method",
          "url",
          "query",
          "headers",
          "body",
          "timeout",
          "auth",
          "failWhen",
          "cache",
          "retries",
          "tls");
  static final List<String> DEFAULTS_KEYS =
      List.of("headers", "auth", "timeout", "failWhen", "cache", "retries", "tls");
  static final List<String> AUTH_KEYS =
      List.of("bearer", "basic", "header", "oauth2", "login", "githubApp", "registry");
  static final List<String> BEARER_KEYS = List.of("secret");
  static final List<String> BASIC_KEYS = List.of("username", "password");
  static final List<String> HEADER_AUTH_KEYS = List.of("name", "secret");
  static final List<String> SECRET_REF_KEYS = List.of("secret");
  static final List<String> PAGINATE_KEYS =
      List.of("linkHeader", "next", "cursor", "page", "maxPages", "onMaxPages");
  private static final Set<String> METHODS =
      Set.of("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS");
  private static final Pattern HEADER_NAME = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]+");

  private RequestParser() {}

  static RequestSpec request(YamlMap map) {
    map.allowOnly(REQUEST_KEYS);
    map.notYet("cache", "retries", "tls");
    String method = map.string("method");
    if (method == null) {
      method = "GET";
    } else {
      method = method.toUpperCase(Locale.ROOT);
      if (!METHODS.contains(method)) {
        map.error("method", "unknown HTTP method '" + method + "'");
      }
    }
    Expr url = map.expr("url");
    if (url == null && !map.has("url")) {
      map.problems().add(map.pos(), "missing required key 'url'");
    }
    Map<String, Expr> headers = headers(map);
    Object body = null;
    if (map.has("body")) {
      body = YamlData.toTemplateData(map.file(), map.raw("body"), map.join("body"), map.problems());
    }
    return new RequestSpec(
        map.pos(),
        method,
        url,
        map.exprMap("query"),
        headers,
        body,
        map.duration("timeout", null),
        auth(map),
        map.expr("failWhen"));
  }

  static RequestDefaults defaults(YamlMap map) {
    if (map == null) {
      return RequestDefaults.none();
    }
    map.allowOnly(DEFAULTS_KEYS);
    map.notYet("cache", "retries", "tls");
    return new RequestDefaults(
        headers(map), auth(map), map.duration("timeout", null), map.expr("failWhen"));
  }

  private static Map<String, Expr> headers(YamlMap map) {
    Map<String, Expr> headers = map.exprMap("headers");
    YamlMap view = map.has("headers") ? map.map("headers") : null;
    for (String name : headers.keySet()) {
      if (!HEADER_NAME.matcher(name).matches() && view != null) {
        view.problems().add(view.keyPos(name), "invalid header name '" + name + "'");
      }
    }
    return headers;
  }

  private static AuthSpec auth(YamlMap parent) {
    YamlMap auth = parent.map("auth");
    if (auth == null) {
      return null;
    }
    auth.allowOnly(AUTH_KEYS);
    auth.notYet("oauth2", "login", "githubApp", "registry");
    if (auth.keys().size() != 1) {
      auth.problems().add(auth.pos(), "must hold exactly one of bearer, basic, header");
      return null;
    }
    String kind = auth.keys().iterator().next();
    YamlMap body = auth.map(kind);
    if (body == null) {
      return null;
    }
    switch (kind) {
      case "bearer" -> {
        body.allowOnly(BEARER_KEYS);
        return new AuthSpec.Bearer(body.pos(), body.requiredString("secret"));
      }
      case "basic" -> {
        body.allowOnly(BASIC_KEYS);
        Expr username = body.expr("username");
        if (username == null) {
          body.problems().add(body.pos(), "missing required key 'username'");
        }
        return new AuthSpec.Basic(body.pos(), username, secretRef(body, "password"));
      }
      case "header" -> {
        body.allowOnly(HEADER_AUTH_KEYS);
        String name = body.requiredString("name");
        if (name != null && !HEADER_NAME.matcher(name).matches()) {
          body.error("name", "invalid header name '" + name + "'");
        }
        return new AuthSpec.Header(body.pos(), name, body.requiredString("secret"));
      }
      default -> {
        return null;
      }
    }
  }

  /** {@code password: {secret: name}}. */
  private static String secretRef(YamlMap parent, String key) {
    if (!parent.has(key)) {
      parent.problems().add(parent.pos(), "missing required key '" + key + "'");
      return null;
    }
    YamlMap ref = parent.map(key);
    if (ref == null) {
      return null;
    }
    ref.allowOnly(SECRET_REF_KEYS);
    return ref.requiredString("secret");
  }

  static PaginateSpec paginate(YamlMap map) {
    if (map == null) {
      return null;
    }
    map.allowOnly(PAGINATE_KEYS);
    map.notYet("cursor", "page");
    int maxPages = map.integer("maxPages", PaginateSpec.DEFAULT_MAX_PAGES, 1);
    String onMaxPages = map.string("onMaxPages");
    boolean stop = false;
    if (onMaxPages != null) {
      if (onMaxPages.equals("stop")) {
        stop = true;
      } else if (!onMaxPages.equals("error")) {
        map.error("onMaxPages", "must be error or stop, not '" + onMaxPages + "'");
      }
    }
    boolean link = map.has("linkHeader");
    boolean next = map.has("next");
    if (link == next) {
      if (!map.has("cursor") && !map.has("page")) {
        map.problems().add(map.pos(), "must hold exactly one of linkHeader, next");
      }
      return null;
    }
    if (link) {
      String rel = map.string("linkHeader");
      if (rel == null || rel.isBlank()) {
        map.error("linkHeader", "names the link relation to follow, usually 'next'");
      }
      return new PaginateSpec(map.pos(), PaginateSpec.Mode.LINK_HEADER, rel, null, maxPages, stop);
    }
    return new PaginateSpec(
        map.pos(), PaginateSpec.Mode.NEXT_URL, null, map.expr("next"), maxPages, stop);
  }
}
