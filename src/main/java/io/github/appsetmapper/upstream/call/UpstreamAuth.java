package io.github.appsetmapper.upstream.call;

import java.net.URI;
import java.util.List;
import java.util.Map;

/**
 * Token-based upstream auth, rendered for one call: the values are resolved (secrets read), the
 * token is not. {@code AuthorizingUpstream} (upstream.auth) fetches, caches and applies the token.
 * {@code cacheKey} names the token a call needs without holding any secret in clear: calls with the
 * same key share one token, and a rotated secret gives a new key, so a new token.
 */
public sealed interface UpstreamAuth {
  /** The token cache key; secrets only as digests. */
  String cacheKey();

  <R> R accept(Visitor<R> visitor) throws RequestFailure;

  /**
   * One method per kind: a new kind does not compile until {@code AuthorizingUpstream}
   * (upstream.auth) has it.
   */
  interface Visitor<R> {
    R oauth2(OAuth2 auth) throws RequestFailure;

    R login(Login auth) throws RequestFailure;

    R githubApp(GithubApp auth) throws RequestFailure;

    R registry(Registry auth) throws RequestFailure;
  }

  /** The header a fetched token is sent in: {@code Authorization: Bearer <token>} unless said. */
  default Headers.Header credential(Token token) {
    return new Headers.Header("Authorization", "Bearer " + token.value());
  }

  /** The name of the header the credential goes in (explain shows it as {@code ***}). */
  default String credentialHeader() {
    return "Authorization";
  }

  /** What makes two calls' auth the same, for coalescing identical calls. */
  default String identity() {
    return cacheKey();
  }

  /** OAuth2 client-credentials grant (RFC 6749 4.4). */
  record OAuth2(
      URI tokenUrl,
      String clientId,
      String clientSecret,
      List<String> scopes,
      Map<String, String> params,
      boolean basicClientAuth)
      implements UpstreamAuth {
    @Override
    public String cacheKey() {
      return "oauth2|"
          + tokenUrl
          + "|"
          + clientId
          + "|"
          + Digests.sha256(clientSecret)
          + "|"
          + String.join(" ", scopes)
          + "|"
          + new java.util.TreeMap<>(params)
          + "|"
          + basicClientAuth;
    }

    @Override
    public <R> R accept(Visitor<R> visitor) throws RequestFailure {
      return visitor.oauth2(this);
    }

    /** The cache key: digests, never the secret, should this ever be printed. */
    @Override
    public String toString() {
      return cacheKey();
    }
  }

  /**
   * A token from a login endpoint: {@code request} is the rendered login call, {@code reader}
   * extracts the token and its expiry, which goes into {@code header} after {@code scheme}.
   */
  record Login(UpstreamRequest request, TokenReader reader, String header, String scheme)
      implements UpstreamAuth {
    @Override
    public String cacheKey() {
      return "login|" + Digests.sha256(request.identity()) + "|" + header + "|" + scheme;
    }

    @Override
    public Headers.Header credential(Token token) {
      return new Headers.Header(
          header, scheme.isEmpty() ? token.value() : scheme + " " + token.value());
    }

    @Override
    public String credentialHeader() {
      return header;
    }

    @Override
    public <R> R accept(Visitor<R> visitor) throws RequestFailure {
      return visitor.login(this);
    }

    /** The cache key: digests, never the secret, should this ever be printed. */
    @Override
    public String toString() {
      return cacheKey();
    }
  }

  /** A GitHub App installation token, exchanged for an RS256 JWT signed with the app's key. */
  record GithubApp(URI apiUrl, String appId, String installationId, String privateKeyPem)
      implements UpstreamAuth {
    @Override
    public String cacheKey() {
      return "githubApp|"
          + apiUrl
          + "|"
          + appId
          + "|"
          + installationId
          + "|"
          + Digests.sha256(privateKeyPem);
    }

    @Override
    public <R> R accept(Visitor<R> visitor) throws RequestFailure {
      return visitor.githubApp(this);
    }

    /** The cache key: digests, never the secret, should this ever be printed. */
    @Override
    public String toString() {
      return cacheKey();
    }
  }

  /**
   * The OCI/Docker registry token flow, answering the registry's {@code WWW-Authenticate}
   * challenge; anonymous when {@code username} is null.
   */
  record Registry(String username, String password) implements UpstreamAuth {
    public boolean anonymous() {
      return username == null;
    }

    @Override
    public String cacheKey() {
      return anonymous() ? "registry|anonymous" : "registry|" + username + "|" + digest();
    }

    @Override
    public <R> R accept(Visitor<R> visitor) throws RequestFailure {
      return visitor.registry(this);
    }

    /** The cache key: digests, never the secret, should this ever be printed. */
    @Override
    public String toString() {
      return cacheKey();
    }

    String digest() {
      return Digests.sha256(username + ":" + password);
    }
  }
}
