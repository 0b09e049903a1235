package io.github.appsetmapper.config;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/** Reads {@code request}, {@code defaults}, {@code auth} and {@code paginate} blocks. */
final class RequestParser {
  /** What only a request has; the rest of its keys are {@link RequestOptions#KEYS}. */
  static final List<String> REQUEST_ONLY_KEYS =
      List.of("method", "url", "query", "body", "acceptStatus");

  static final List<String> REQUEST_KEYS =
      java.util.stream.Stream.concat(REQUEST_ONLY_KEYS.stream(), RequestOptions.KEYS.stream())
          .toList();
  static final List<String> DEFAULTS_KEYS = RequestOptions.KEYS;
  static final List<String> AUTH_KEYS =
      List.of("bearer", "basic", "header", "oauth2", "login", "githubApp", "registry");
  static final List<String> BEARER_KEYS = List.of("secret");
  static final List<String> BASIC_KEYS = List.of("username", "password");
  static final List<String> HEADER_AUTH_KEYS = List.of("name", "secret");
  static final List<String> SECRET_REF_KEYS = List.of("secret");
  static final List<String> PAGINATE_KEYS =
      List.of("linkHeader", "next", "cursor", "page", "maxPages", "onMaxPages");
  static final List<String> TLS_KEYS =
      List.of("caFile", "certFile", "keyFile", "insecureSkipVerify");
  static final List<String> OAUTH2_KEYS =
      List.of("tokenUrl", "clientId", "clientSecret", "scopes", "params", "clientAuth");
  static final List<String> LOGIN_KEYS =
      List.of("request", "token", "expiresIn", "header", "scheme");
  static final List<String> GITHUB_APP_KEYS =
      List.of("appId", "installationId", "privateKey", "apiUrl");
  static final List<String> REGISTRY_KEYS = List.of("username", "password");
  static final List<String> CURSOR_KEYS = List.of("param", "from", "until");
  static final List<String> PAGE_KEYS =
      List.of("param", "start", "size", "sizeParam", "endStatus", "stopOnShortPage");
  private static final Set<String> METHODS =
      Set.of("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS");
  private static final Set<String> IDEMPOTENT = Set.of("GET", "HEAD", "OPTIONS", "PUT", "DELETE");
  private static final String AUTH_KINDS =
      "bearer, basic, header, oauth2, login, githubApp, registry";
  private static final Pattern HEADER_NAME = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]+");

  private RequestParser() {}

  static RequestSpec request(YamlMap map) {
    map.allowOnly(REQUEST_KEYS);
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
    Object body = null;
    if (map.has("body")) {
      body = YamlData.toTemplateData(map.file(), map.raw("body"), map.join("body"), map.problems());
    }
    RequestOptions options = options(map);
    Integer retries = options.retries();
    if (retries != null && retries > 0 && !IDEMPOTENT.contains(method)) {
      map.error(
          "retries",
          method
              + " requests are never retried (only GET, HEAD, OPTIONS, PUT and DELETE are);"
              + " remove it");
    }
    return new RequestSpec(
        map.pos(),
        method,
        url,
        map.exprMap("query"),
        body,
        statuses(map, "acceptStatus", 200, 299, "2xx statuses to take as complete answers"),
        options);
  }

  /** The {@link RequestOptions} of a request or of {@code defaults}. */
  static RequestOptions options(YamlMap map) {
    return new RequestOptions(
        headers(map),
        auth(map),
        map.duration("timeout", null),
        map.expr("failWhen"),
        retries(map),
        tls(map.map("tls")),
        cache(map.map("cache")));
  }

  /**
   * A list of HTTP statuses within {@code [min, max]}, or null when the key is absent. {@code what}
   * says what the list is for, in the error.
   */
  private static java.util.Set<Integer> statuses(
      YamlMap map, String key, int min, int max, String what) {
    if (!map.has(key)) {
      return null;
    }
    java.util.Set<Integer> out = new java.util.TreeSet<>();
    for (String text : map.stringList(key)) {
      int status;
      try {
        status = Integer.parseInt(text.trim());
      } catch (NumberFormatException e) {
        map.error(key, "lists " + what + "; '" + text + "' is not a status");
        continue;
      }
      if (status < min || status > max) {
        map.error(
            key, "lists " + what + " (" + min + " to " + max + "); " + status + " is not one");
        continue;
      }
      out.add(status);
    }
    return java.util.Collections.unmodifiableSet(out);
  }

  static final List<String> CACHE_KEYS = CacheSpec.KEYS;

  /** {@code cache: {ttl, staleIfError}}: ttl required; staleIfError 0 unless set. */
  private static CacheSpec cache(YamlMap map) {
    if (map == null) {
      return null;
    }
    map.allowOnly(CACHE_KEYS);
    if (!map.has("ttl")) {
      map.problems().add(map.pos(), "missing required key 'ttl' (how long an answer is fresh)");
      return null;
    }
    java.time.Duration ttl = map.duration("ttl", null);
    java.time.Duration stale = map.duration("staleIfError", java.time.Duration.ZERO);
    return ttl == null ? null : new CacheSpec(map.pos(), ttl, stale);
  }

  private static Integer retries(YamlMap map) {
    Integer retries = map.integer("retries", null, 0);
    if (retries != null && retries > RequestOptions.MAX_RETRIES) {
      map.error("retries", "must be at most " + RequestOptions.MAX_RETRIES + ", not " + retries);
      return RequestOptions.MAX_RETRIES;
    }
    return retries;
  }

  private static TlsSpec tls(YamlMap map) {
    if (map == null) {
      return null;
    }
    map.allowOnly(TLS_KEYS);
    String ca = map.string("caFile");
    String cert = map.string("certFile");
    String key = map.string("keyFile");
    boolean insecure = map.bool("insecureSkipVerify", false);
    if ((cert == null) != (key == null)) {
      map.problems().add(map.pos(), "certFile and keyFile go together (a client certificate)");
    }
    if (insecure && ca != null) {
      map.problems()
          .add(map.pos(), "insecureSkipVerify and caFile contradict each other; keep one");
    }
    if (ca == null && cert == null && key == null && !insecure) {
      map.problems()
          .add(
              map.pos(), "sets nothing; give caFile, certFile with keyFile, or insecureSkipVerify");
    }
    return new TlsSpec(map.pos(), ca, cert, key, insecure);
  }

  static RequestOptions defaults(YamlMap map) {
    if (map == null) {
      return RequestOptions.NONE;
    }
    map.allowOnly(DEFAULTS_KEYS);
    return options(map);
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
    if (auth.keys().size() != 1) {
      auth.problems().add(auth.pos(), "must hold exactly one of " + AUTH_KINDS);
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
      case "oauth2" -> {
        return oauth2(body);
      }
      case "login" -> {
        return login(body);
      }
      case "githubApp" -> {
        body.allowOnly(GITHUB_APP_KEYS);
        Expr appId = requiredExpr(body, "appId");
        Expr installation = requiredExpr(body, "installationId");
        return new AuthSpec.GithubApp(
            body.pos(), appId, installation, secretRef(body, "privateKey"), body.expr("apiUrl"));
      }
      case "registry" -> {
        body.allowOnly(REGISTRY_KEYS);
        if (body.has("username") != body.has("password")) {
          body.problems()
              .add(
                  body.pos(),
                  "username and password go together; give neither for anonymous pulls");
        }
        Expr username = body.expr("username");
        String password = body.has("password") ? secretRef(body, "password") : null;
        return new AuthSpec.Registry(body.pos(), username, password);
      }
      default -> {
        return null;
      }
    }
  }

  private static AuthSpec oauth2(YamlMap body) {
    body.allowOnly(OAUTH2_KEYS);
    Expr tokenUrl = requiredExpr(body, "tokenUrl");
    Expr clientId = requiredExpr(body, "clientId");
    String secret = secretRef(body, "clientSecret");
    return new AuthSpec.OAuth2(
        body.pos(),
        tokenUrl,
        clientId,
        secret,
        body.stringList("scopes"),
        body.exprMap("params"),
        body.choice("clientAuth", AuthSpec.ClientAuth.class, AuthSpec.ClientAuth.BASIC));
  }

  private static AuthSpec login(YamlMap body) {
    body.allowOnly(LOGIN_KEYS);
    YamlMap request = body.map("request");
    if (request == null && !body.has("request")) {
      body.problems().add(body.pos(), "missing required key 'request'");
    }
    RequestSpec spec = request == null ? null : request(request);
    if (spec != null && spec.options().auth() != null && !isStatic(spec.options().auth())) {
      request.error("auth", "a login request may use bearer, basic or header auth only");
    }
    if (spec != null && spec.options().failWhen() != null) {
      request.error("failWhen", "a login request takes no failWhen; a non-2xx answer fails it");
    }
    if (spec != null && spec.acceptStatus() != null) {
      request.error(
          "acceptStatus",
          "a login request takes no acceptStatus; any 2xx answer with the token is");
    }
    Expr token = requiredExpr(body, "token");
    Expr expiresInPath = null;
    java.time.Duration expiresIn = null;
    String expires = body.string("expiresIn");
    if (expires != null) {
      if (expires.trim().startsWith("$")) {
        expiresInPath = body.expr("expiresIn");
      } else {
        expiresIn = body.duration("expiresIn", null);
      }
    }
    String header = body.string("header");
    if (header != null && !HEADER_NAME.matcher(header).matches()) {
      body.error("header", "invalid header name '" + header + "'");
    }
    String scheme = body.has("scheme") ? body.string("scheme") : "Bearer";
    return new AuthSpec.Login(
        body.pos(),
        spec,
        token,
        expiresInPath,
        expiresIn,
        header == null ? "Authorization" : header,
        scheme == null ? "" : scheme.strip());
  }

  private static boolean isStatic(AuthSpec auth) {
    return auth instanceof AuthSpec.Bearer
        || auth instanceof AuthSpec.Basic
        || auth instanceof AuthSpec.Header;
  }

  private static Expr requiredExpr(YamlMap map, String key) {
    if (!map.has(key)) {
      map.problems().add(map.pos(), "missing required key '" + key + "'");
      return null;
    }
    return map.expr(key);
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
    List<String> modes =
        List.of("linkHeader", "next", "cursor", "page").stream().filter(map::has).toList();
    if (modes.size() != 1) {
      map.problems()
          .add(
              map.pos(),
              "must hold exactly one of linkHeader, next, cursor, page"
                  + (modes.isEmpty() ? "" : " (it holds " + String.join(", ", modes) + ")"));
      return null;
    }
    switch (modes.get(0)) {
      case "linkHeader" -> {
        String rel = map.string("linkHeader");
        if (rel == null || rel.isBlank()) {
          map.error("linkHeader", "names the link relation to follow, usually 'next'");
        }
        return new PaginateSpec(
            map.pos(), PaginateSpec.Mode.LINK_HEADER, rel, null, null, null, maxPages, stop);
      }
      case "next" -> {
        return new PaginateSpec(
            map.pos(),
            PaginateSpec.Mode.NEXT_URL,
            null,
            map.expr("next"),
            null,
            null,
            maxPages,
            stop);
      }
      case "cursor" -> {
        YamlMap cursor = map.map("cursor");
        if (cursor == null) {
          return null;
        }
        cursor.allowOnly(CURSOR_KEYS);
        PaginateSpec.Cursor spec =
            new PaginateSpec.Cursor(
                cursor.pos(),
                queryName(cursor, "param"),
                requiredExpr(cursor, "from"),
                cursor.expr("until"));
        return new PaginateSpec(
            map.pos(), PaginateSpec.Mode.CURSOR, null, null, spec, null, maxPages, stop);
      }
      default -> {
        YamlMap page = map.map("page");
        if (page == null) {
          return null;
        }
        page.allowOnly(PAGE_KEYS);
        Integer size = page.integer("size", null, 1);
        String sizeParam = queryName(page, "sizeParam");
        if (sizeParam != null && size == null) {
          page.problems().add(page.pos(), "sizeParam needs size (the page size to send)");
        }
        boolean stopOnShortPage = page.bool("stopOnShortPage", false);
        if (stopOnShortPage && size == null) {
          page.problems()
              .add(page.pos(), "stopOnShortPage needs size (a page with fewer rows is the last)");
        }
        java.util.Set<Integer> endStatus =
            statuses(page, "endStatus", 400, 499, "4xx statuses that mean the pages ran out");
        PaginateSpec.Page spec =
            new PaginateSpec.Page(
                page.pos(),
                queryName(page, "param"),
                page.integer("start", 1, 0),
                size,
                sizeParam,
                endStatus == null ? java.util.Set.of() : endStatus,
                stopOnShortPage);
        return new PaginateSpec(
            map.pos(), PaginateSpec.Mode.PAGE, null, null, null, spec, maxPages, stop);
      }
    }
  }

  private static String queryName(YamlMap map, String key) {
    String name = map.string(key);
    if (name != null && name.isBlank()) {
      map.error(key, "names a query parameter; it cannot be empty");
      return null;
    }
    return name;
  }
}
