package io.github.appsetmapper.upstream.auth;

import io.github.appsetmapper.secret.Redactor;
import io.github.appsetmapper.upstream.call.CallSettings;
import io.github.appsetmapper.upstream.call.Deadline;
import io.github.appsetmapper.upstream.call.Headers;
import io.github.appsetmapper.upstream.call.RequestFailure;
import io.github.appsetmapper.upstream.call.Token;
import io.github.appsetmapper.upstream.call.Upstream;
import io.github.appsetmapper.upstream.call.UpstreamAuth;
import io.github.appsetmapper.upstream.call.UpstreamRequest;
import io.github.appsetmapper.upstream.call.UpstreamResponse;
import java.time.Clock;
import java.util.List;
import java.util.Set;

/**
 * Applies token-based auth to calls that carry it ({@link CallSettings#auth()}): takes the token
 * from the shared {@link TokenCache} (fetching it through the upstream below, so the token call
 * gets the same host checks, TLS and deadline), sends it, and on a 401 replaces it once and tries
 * again. Registry auth answers the registry's challenge instead ({@link RegistryFlow}). Every
 * fetched token is held by the redactor while the cache holds it.
 */
public final class AuthorizingUpstream implements Upstream {
  private final Upstream next;
  private final TokenCache tokens;
  private final TokenEndpoints endpoints;
  private final RegistryFlow registry;

  public AuthorizingUpstream(Upstream next, Redactor redactor, Clock clock) {
    this.next = next;
    this.tokens = new TokenCache(clock, redactor);
    this.endpoints = new TokenEndpoints(next, redactor, clock);
    this.registry = new RegistryFlow(next, tokens, redactor, clock);
  }

  /** The shared token cache (tests look at its size). */
  public TokenCache tokens() {
    return tokens;
  }

  @Override
  public UpstreamResponse exchange(UpstreamRequest request) throws RequestFailure {
    UpstreamAuth auth = request.settings().auth();
    if (auth == null) {
      return next.exchange(request);
    }
    UpstreamRequest plain = request.withSettings(request.settings().withAuth(null));
    Deadline deadline = request.settings().deadline();
    return auth.accept(
        new UpstreamAuth.Visitor<UpstreamResponse>() {
          @Override
          public UpstreamResponse oauth2(UpstreamAuth.OAuth2 oauth2) throws RequestFailure {
            return withToken(plain, oauth2, deadline, () -> endpoints.oauth2(plain, oauth2));
          }

          @Override
          public UpstreamResponse login(UpstreamAuth.Login login) throws RequestFailure {
            return withToken(plain, login, deadline, () -> endpoints.login(plain, login));
          }

          @Override
          public UpstreamResponse githubApp(UpstreamAuth.GithubApp app) throws RequestFailure {
            return withToken(plain, app, deadline, () -> endpoints.githubApp(plain, app));
          }

          @Override
          public UpstreamResponse registry(UpstreamAuth.Registry credentials)
              throws RequestFailure {
            return registry.exchange(plain, credentials);
          }
        });
  }

  /**
   * The call with the cached token (fetched by {@code fetch} when needed); a 401 replaces it once.
   */
  private UpstreamResponse withToken(
      UpstreamRequest plain, UpstreamAuth auth, Deadline deadline, TokenCache.Fetch fetch)
      throws RequestFailure {
    String key = auth.cacheKey();
    Token token = tokens.get(key, deadline, fetch);
    UpstreamRequest sent = apply(plain, auth, token);
    long started = System.nanoTime();
    UpstreamResponse response = next.exchange(sent);
    if (response.status() != 401) {
      return response;
    }
    // The call as answered is the retry below: explain shows this refusal too.
    plain
        .settings()
        .authTrace()
        .call("refused the token", sent, response, null, started, System.nanoTime() - started);
    Token fresh = tokens.refresh(key, token, deadline, fetch);
    return next.exchange(apply(plain, auth, fresh));
  }

  private static UpstreamRequest apply(UpstreamRequest request, UpstreamAuth auth, Token token) {
    Headers.Header credential = auth.credential(token);
    return request.withCredential(credential.name(), credential.value());
  }

  /** A token request: no auth of its own, never retried (a POST), the call's TLS and deadline. */
  static UpstreamRequest tokenRequest(
      UpstreamRequest forCall,
      String method,
      java.net.URI uri,
      List<Headers.Header> headers,
      byte[] body,
      int retries) {
    return UpstreamRequest.builder()
        .method(method)
        .uri(uri)
        .headers(Headers.of(headers))
        .body(body)
        .timeout(forCall.timeout())
        .sensitiveHeaders(Set.of("authorization"))
        .hosts(forCall.hosts())
        .settings(
            forCall.settings().forTokenCall().toBuilder()
                .retries(retries)
                .wire(forCall.settings().wire().forAuth("token"))
                .build())
        .build();
  }

  @Override
  public void close() {
    next.close();
  }
}
