package io.github.appsetmapper.upstream.auth;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.appsetmapper.secret.Redactor;
import io.github.appsetmapper.upstream.call.HostPolicy;
import io.github.appsetmapper.upstream.call.RequestFailure;
import io.github.appsetmapper.upstream.call.Token;
import io.github.appsetmapper.upstream.call.Upstream;
import io.github.appsetmapper.upstream.call.UpstreamAuth;
import io.github.appsetmapper.upstream.call.UpstreamRequest;
import io.github.appsetmapper.upstream.call.UpstreamResponse;
import io.github.appsetmapper.upstream.net.Addresses;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The OCI/Docker registry auth flow (the distribution token spec): the call goes out without
 * credentials; a 401 with {@code WWW-Authenticate: Bearer realm=...,service=...,scope=...} is
 * answered by fetching a token from the realm (anonymously, or with Basic credentials) and trying
 * again with it; a {@code Basic} challenge by sending the credentials. Tokens are cached per realm,
 * service, scope and credentials, and the challenge a repository gave is remembered so that later
 * calls send the cached token at once. Credentials go only to a realm over https (or on loopback),
 * and only inside {@code allowedHosts}, or on the registry's own host when the mapping lists none.
 */
final class RegistryFlow {
  /** Docker's token spec: a token without {@code expires_in} lasts 60 seconds. */
  private static final Duration DEFAULT_LIFETIME = Duration.ofSeconds(60);

  private static final int MAX_HINTS = 10_000;

  /** What a repository's last challenge asked for: a token key, or Basic credentials. */
  private record Hint(String tokenKey, boolean basic) {}

  private final Upstream next;
  private final TokenCache tokens;
  private final Redactor redactor;
  private final Clock clock;
  private final Map<String, Hint> hints = new ConcurrentHashMap<>();

  RegistryFlow(Upstream next, TokenCache tokens, Redactor redactor, Clock clock) {
    this.next = next;
    this.tokens = tokens;
    this.redactor = redactor;
    this.clock = clock;
  }

  UpstreamResponse exchange(UpstreamRequest request, UpstreamAuth.Registry credentials)
      throws RequestFailure {
    String hintKey = hintKey(request.uri(), credentials);
    Hint hint = hints.get(hintKey);
    UpstreamRequest first = request;
    Token sent = null;
    boolean sentBasic = false;
    if (hint != null && hint.basic() && !credentials.anonymous()) {
      first = request.withCredential("Authorization", basic(credentials));
      sentBasic = true;
    } else if (hint != null && hint.tokenKey() != null) {
      sent = tokens.peek(hint.tokenKey());
      if (sent != null) {
        first = request.withCredential("Authorization", "Bearer " + sent.value());
      }
    }
    long started = System.nanoTime();
    UpstreamResponse response = next.exchange(first);
    if (response.status() != 401) {
      return response;
    }
    // The 401 that starts the flow: explain shows it (the call as answered is the retry below).
    request
        .settings()
        .authTrace()
        .call("registry challenge", first, response, null, started, System.nanoTime() - started);
    List<Challenges.Challenge> challenges =
        Challenges.parse(response.headers().all("WWW-Authenticate"));
    Challenges.Challenge bearer = Challenges.find(challenges, "bearer");
    if (bearer != null && bearer.param("realm") != null) {
      URI realm = realm(request, bearer.param("realm"));
      if (!credentials.anonymous()) {
        checkRealm(request, realm);
      }
      String service = bearer.param("service");
      String scope = bearer.param("scope");
      String tokenKey =
          credentials.cacheKey() + "|" + realm + "|" + service + "|" + (scope == null ? "" : scope);
      remember(hintKey, new Hint(tokenKey, false));
      TokenCache.Fetch fetch = () -> token(request, credentials, realm, service, scope);
      Token token =
          sent != null
              ? tokens.refresh(tokenKey, sent, request.settings().deadline(), fetch)
              : tokens.get(tokenKey, request.settings().deadline(), fetch);
      return next.exchange(request.withCredential("Authorization", "Bearer " + token.value()));
    }
    if (Challenges.find(challenges, "basic") != null && !credentials.anonymous() && !sentBasic) {
      if (!secureOrLoopback(request.uri())) {
        throw RequestFailure.of(
            request, "registry auth: refusing to send credentials over plain http");
      }
      remember(hintKey, new Hint(null, true));
      return next.exchange(request.withCredential("Authorization", basic(credentials)));
    }
    return response;
  }

  private Token token(
      UpstreamRequest call,
      UpstreamAuth.Registry credentials,
      URI realm,
      String service,
      String scope)
      throws RequestFailure {
    StringBuilder url = new StringBuilder(realm.toString());
    char separator = realm.getRawQuery() == null ? '?' : '&';
    if (service != null) {
      url.append(separator).append("service=").append(query(service));
      separator = '&';
    }
    if (scope != null) {
      for (String each : scope.trim().split("\\s+")) {
        url.append(separator).append("scope=").append(query(each));
        separator = '&';
      }
    }
    List<io.github.appsetmapper.upstream.call.Headers.Header> headers = new ArrayList<>();
    headers.add(
        new io.github.appsetmapper.upstream.call.Headers.Header("Accept", "application/json"));
    if (!credentials.anonymous()) {
      headers.add(
          new io.github.appsetmapper.upstream.call.Headers.Header(
              "Authorization", basic(credentials)));
    }
    UpstreamRequest request =
        AuthorizingUpstream.tokenRequest(
            call, "GET", URI.create(url.toString()), headers, null, call.settings().retries());
    String what = "registry token request";
    UpstreamResponse response;
    long started = System.nanoTime();
    try {
      response = next.exchange(request);
    } catch (RequestFailure e) {
      call.settings()
          .authTrace()
          .call(what, request, null, e.getMessage(), started, System.nanoTime() - started);
      throw e.forCall(call, what);
    }
    call.settings()
        .authTrace()
        .call(what, request, response, null, started, System.nanoTime() - started);
    if (!response.isSuccess()) {
      throw TokenEndpoints.failure(
          call,
          what,
          request,
          "answered "
              + response.status()
              + response.bodyNote()
              + TokenAnswers.errorCode(response, redactor));
    }
    JsonNode body = TokenEndpoints.body(call, what, request, response);
    String token = TokenAnswers.text(body, "token");
    if (token == null) {
      token = TokenAnswers.text(body, "access_token");
    }
    if (token == null) {
      throw TokenEndpoints.failure(call, what, request, "the answer has no token");
    }
    Duration lifetime = TokenAnswers.seconds(body, "expires_in");
    // Our own clock, not issued_at: a registry's clock may be off, ours decides when we refresh.
    return Token.of(token, clock.instant(), lifetime == null ? DEFAULT_LIFETIME : lifetime);
  }

  private static URI realm(UpstreamRequest call, String text) throws RequestFailure {
    try {
      URI realm = new URI(text.trim());
      String scheme = realm.getScheme() == null ? "" : realm.getScheme().toLowerCase(Locale.ROOT);
      if ((scheme.equals("http") || scheme.equals("https")) && realm.getHost() != null) {
        return realm;
      }
    } catch (URISyntaxException e) {
      // refused below
    }
    throw RequestFailure.of(call, "registry auth: the challenge's realm is not an http(s) URL");
  }

  /** Where credentials may go: https (or loopback), inside allowedHosts or on the same host. */
  private static void checkRealm(UpstreamRequest call, URI realm) throws RequestFailure {
    String where = "registry auth: ";
    if (!secureOrLoopback(realm)) {
      throw RequestFailure.of(
          call, where + "refusing to send credentials to realm " + realm + " over plain http");
    }
    HostPolicy hosts = call.hosts();
    if (hosts.restricts()) {
      if (!hosts.allows(realm)) {
        throw RequestFailure.of(
            call,
            where
                + "the realm host '"
                + realm.getHost()
                + "' is not in allowedHosts; credentials go only to a realm listed there");
      }
    } else if (!realm.getHost().equalsIgnoreCase(call.uri().getHost())) {
      throw RequestFailure.of(
          call,
          where
              + "the realm host '"
              + realm.getHost()
              + "' is not the registry's host; list it in allowedHosts to send credentials there");
    }
  }

  private static boolean secureOrLoopback(URI uri) {
    return uri.getScheme().equalsIgnoreCase("https") || Addresses.isLoopbackName(uri.getHost());
  }

  private void remember(String key, Hint hint) {
    if (hints.size() > MAX_HINTS) {
      hints.clear();
    }
    hints.put(key, hint);
  }

  /** Which challenge a call will meet: the origin and the repository ({@code /v2/<name>/...}). */
  private static String hintKey(URI uri, UpstreamAuth.Registry credentials) {
    String path = uri.getRawPath() == null ? "" : uri.getRawPath();
    String repository = path;
    for (String marker : List.of("/manifests/", "/blobs/", "/tags/", "/referrers/")) {
      int at = path.indexOf(marker);
      if (at >= 0) {
        repository = path.substring(0, at);
        break;
      }
    }
    return credentials.cacheKey()
        + "|"
        + uri.getScheme().toLowerCase(Locale.ROOT)
        + "://"
        + uri.getRawAuthority()
        + repository;
  }

  private static String basic(UpstreamAuth.Registry credentials) {
    String pair = credentials.username() + ":" + credentials.password();
    return "Basic " + Base64.getEncoder().encodeToString(pair.getBytes(StandardCharsets.UTF_8));
  }

  private static String query(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
  }
}
