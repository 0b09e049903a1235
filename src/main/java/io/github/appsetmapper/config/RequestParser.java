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
      List.of("method", "url", "query", "body", "acceptStatus", "format");

  static final List<String> REQUEST_KEYS =
      java.util.stream.Stream.concat(REQUEST_ONLY_KEYS.stream(), RequestOptions.KEYS.stream())
          .toList();
  static final List<String> DEFAULTS_KEYS = RequestOptions.KEYS;

  /** Every kind of auth by its key under {@code auth}, each parsed by its own record. */
  private static final Map<String, java.util.function.Function<YamlMap, AuthSpec>> AUTH_KINDS =
      authKinds();

  static final List<String> AUTH_KEYS = List.copyOf(AUTH_KINDS.keySet());
  static final List<String> SECRET_REF_KEYS = List.of("secret");
  static final List<String> PAGINATE_KEYS =
      List.of("linkHeader", "next", "cursor", "page", "maxPages", "onMaxPages");
  static final List<String> TLS_KEYS =
      List.of("caFile", "certFile", "keyFile", "insecureSkipVerify");
  static final List<String> CURSOR_KEYS = List.of("param", "from", "until");
  static final List<String> PAGE_KEYS =
      List.of("param", "start", "size", "sizeParam", "endStatus", "stopOnShortPage");
  private static final Set<String> METHODS =
      Set.of("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS");
  private static final Set<String> IDEMPOTENT = Set.of("GET", "HEAD", "OPTIONS", "PUT", "DELETE");
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
        options,
        map.choice("format", BodyFormat.class, null));
  }

  /** The {@link RequestOptions} of a request or of {@code defaults}. */
  static RequestOptions options(YamlMap map) {
    return RequestOptions.parse(map);
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
  static CacheSpec cache(YamlMap map) {
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

  static Integer retries(YamlMap map) {
    Integer retries = map.integer("retries", null, 0);
    if (retries != null && retries > RequestOptions.MAX_RETRIES) {
      map.error("retries", "must be at most " + RequestOptions.MAX_RETRIES + ", not " + retries);
      return RequestOptions.MAX_RETRIES;
    }
    return retries;
  }

  static TlsSpec tls(YamlMap map) {
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

  static Map<String, Expr> headers(YamlMap map) {
    Map<String, Expr> headers = map.exprMap("headers");
    YamlMap view = map.has("headers") ? map.map("headers") : null;
    for (String name : headers.keySet()) {
      if (!HEADER_NAME.matcher(name).matches() && view != null) {
        view.problems().add(view.keyPos(name), "invalid header name '" + name + "'");
      }
    }
    return headers;
  }

  private static Map<String, java.util.function.Function<YamlMap, AuthSpec>> authKinds() {
    Map<String, java.util.function.Function<YamlMap, AuthSpec>> kinds =
        new java.util.LinkedHashMap<>();
    kinds.put("bearer", AuthSpec.Bearer::parse);
    kinds.put("basic", AuthSpec.Basic::parse);
    kinds.put("header", AuthSpec.Header::parse);
    kinds.put("oauth2", AuthSpec.OAuth2::parse);
    kinds.put("login", AuthSpec.Login::parse);
    kinds.put("githubApp", AuthSpec.GithubApp::parse);
    kinds.put("registry", AuthSpec.Registry::parse);
    return java.util.Collections.unmodifiableMap(kinds);
  }

  static AuthSpec auth(YamlMap parent) {
    YamlMap auth = parent.map("auth");
    if (auth == null) {
      return null;
    }
    auth.allowOnly(AUTH_KEYS);
    if (auth.keys().size() != 1) {
      auth.problems().add(auth.pos(), "must hold exactly one of " + String.join(", ", AUTH_KEYS));
      return null;
    }
    String kind = auth.keys().iterator().next();
    YamlMap body = auth.map(kind);
    if (body == null || !AUTH_KINDS.containsKey(kind)) {
      return null;
    }
    return AUTH_KINDS.get(kind).apply(body);
  }

  static boolean isHeaderName(String name) {
    return HEADER_NAME.matcher(name).matches();
  }

  static Expr requiredExpr(YamlMap map, String key) {
    if (!map.has(key)) {
      map.problems().add(map.pos(), "missing required key '" + key + "'");
      return null;
    }
    return map.expr(key);
  }

  /** {@code password: {secret: name}}. */
  static String secretRef(YamlMap parent, String key) {
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
        if (rel != null && !LinkRelations.followable(rel)) {
          map.error("linkHeader", LinkRelations.refusal(rel));
          rel = null;
        }
        return PaginateSpec.builder()
            .pos(map.pos())
            .mode(PaginateSpec.Mode.LINK_HEADER)
            .linkRel(rel)
            .maxPages(maxPages)
            .stopAtMax(stop)
            .build();
      }
      case "next" -> {
        return PaginateSpec.builder()
            .pos(map.pos())
            .mode(PaginateSpec.Mode.NEXT_URL)
            .next(map.expr("next"))
            .maxPages(maxPages)
            .stopAtMax(stop)
            .build();
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
        return PaginateSpec.builder()
            .pos(map.pos())
            .mode(PaginateSpec.Mode.CURSOR)
            .cursor(spec)
            .maxPages(maxPages)
            .stopAtMax(stop)
            .build();
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
        return PaginateSpec.builder()
            .pos(map.pos())
            .mode(PaginateSpec.Mode.PAGE)
            .page(spec)
            .maxPages(maxPages)
            .stopAtMax(stop)
            .build();
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
