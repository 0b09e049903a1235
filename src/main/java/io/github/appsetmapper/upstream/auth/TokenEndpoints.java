package io.github.appsetmapper.upstream.auth;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.appsetmapper.secret.Redactor;
import io.github.appsetmapper.upstream.call.AuthTrace;
import io.github.appsetmapper.upstream.call.Digests;
import io.github.appsetmapper.upstream.call.Headers;
import io.github.appsetmapper.upstream.call.RequestFailure;
import io.github.appsetmapper.upstream.call.Token;
import io.github.appsetmapper.upstream.call.Upstream;
import io.github.appsetmapper.upstream.call.UpstreamAuth;
import io.github.appsetmapper.upstream.call.UpstreamRequest;
import io.github.appsetmapper.upstream.call.UpstreamResponse;
import io.github.appsetmapper.upstream.tls.Pem;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** Fetches tokens: OAuth2 client credentials, a login endpoint, a GitHub App installation. */
final class TokenEndpoints {
  private final Upstream next;
  private final Redactor redactor;
  private final Clock clock;
  private final Map<String, PrivateKey> keys = new ConcurrentHashMap<>();

  TokenEndpoints(Upstream next, Redactor redactor, Clock clock) {
    this.next = next;
    this.redactor = redactor;
    this.clock = clock;
  }

  Token oauth2(UpstreamRequest call, UpstreamAuth.OAuth2 auth) throws RequestFailure {
    List<Headers.Header> headers = new ArrayList<>();
    headers.add(new Headers.Header("Content-Type", "application/x-www-form-urlencoded"));
    headers.add(new Headers.Header("Accept", "application/json"));
    StringBuilder form = new StringBuilder("grant_type=client_credentials");
    if (!auth.scopes().isEmpty()) {
      form.append("&scope=").append(form(String.join(" ", auth.scopes())));
    }
    auth.params().forEach((k, v) -> form.append('&').append(form(k)).append('=').append(form(v)));
    if (auth.basicClientAuth()) {
      String pair = form(auth.clientId()) + ":" + form(auth.clientSecret());
      headers.add(
          new Headers.Header(
              "Authorization",
              "Basic "
                  + Base64.getEncoder().encodeToString(pair.getBytes(StandardCharsets.UTF_8))));
    } else {
      form.append("&client_id=")
          .append(form(auth.clientId()))
          .append("&client_secret=")
          .append(form(auth.clientSecret()));
    }
    UpstreamRequest request =
        AuthorizingUpstream.tokenRequest(
            call,
            "POST",
            auth.tokenUrl(),
            headers,
            form.toString().getBytes(StandardCharsets.UTF_8),
            0);
    String what = "oauth2 token request";
    UpstreamResponse response = send(call, what, request);
    JsonNode body = body(call, what, request, response);
    String token = TokenAnswers.text(body, "access_token");
    if (token == null) {
      throw failure(call, what, request, "the answer has no access_token");
    }
    return Token.of(token, clock.instant(), TokenAnswers.seconds(body, "expires_in"));
  }

  Token login(UpstreamRequest call, UpstreamAuth.Login auth) throws RequestFailure {
    UpstreamRequest request =
        auth.request()
            .withSettings(
                auth.request()
                    .settings()
                    .withDeadline(call.settings().deadline())
                    .withWire(call.settings().wire().forAuth("login")));
    String what = "login request";
    UpstreamResponse response = send(call, what, request);
    try {
      return auth.reader().read(response, clock.instant());
    } catch (IllegalArgumentException e) {
      throw failure(call, what, request, e.getMessage());
    }
  }

  Token githubApp(UpstreamRequest call, UpstreamAuth.GithubApp auth) throws RequestFailure {
    Instant now = clock.instant();
    String jwt;
    try {
      PrivateKey key = keys.computeIfAbsent(Digests.sha256(auth.privateKeyPem()), k -> parse(auth));
      jwt = GithubJwt.sign(auth.appId(), key, now);
    } catch (IllegalStateException | GeneralSecurityException e) {
      throw RequestFailure.of(
              call,
              "githubApp: the private key is not a readable PEM RSA key",
              RequestFailure.Kind.LOCAL)
          .causedBy(e);
    }
    // Used for this one request: scrubbed for the redactor's grace period, then let go.
    redactor.remember(jwt);
    String base = auth.apiUrl().toString().replaceAll("/+$", "");
    URI uri =
        URI.create(
            base
                + "/app/installations/"
                + URLEncoder.encode(auth.installationId(), StandardCharsets.UTF_8)
                + "/access_tokens");
    List<Headers.Header> headers =
        List.of(
            new Headers.Header("Accept", "application/vnd.github+json"),
            new Headers.Header("X-GitHub-Api-Version", "2022-11-28"),
            new Headers.Header("Authorization", "Bearer " + jwt));
    UpstreamRequest request = AuthorizingUpstream.tokenRequest(call, "POST", uri, headers, null, 0);
    String what = "githubApp token request";
    UpstreamResponse response = send(call, what, request);
    JsonNode body = body(call, what, request, response);
    String token = TokenAnswers.text(body, "token");
    if (token == null) {
      throw failure(call, what, request, "the answer has no token");
    }
    Instant expiry = TokenAnswers.instant(body, "expires_at");
    return expiry == null
        ? Token.of(token, now, java.time.Duration.ofMinutes(55))
        : Token.until(token, now, expiry);
  }

  private static PrivateKey parse(UpstreamAuth.GithubApp auth) {
    try {
      return Pem.privateKey(auth.privateKeyPem());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e.getMessage());
    }
  }

  /** Sends a token request; a non-2xx answer is an error naming the call it was for. */
  private UpstreamResponse send(UpstreamRequest call, String what, UpstreamRequest request)
      throws RequestFailure {
    UpstreamResponse response;
    AuthTrace trace = call.settings().authTrace();
    long started = System.nanoTime();
    try {
      response = next.exchange(request);
    } catch (RequestFailure e) {
      trace.call(what, request, null, e.getMessage(), started, System.nanoTime() - started);
      throw e.forCall(call, what);
    }
    trace.call(what, request, response, null, started, System.nanoTime() - started);
    if (!response.isSuccess()) {
      throw failure(
          call,
          what,
          request,
          "answered "
              + response.status()
              + response.bodyNote()
              + TokenAnswers.errorCode(response, redactor));
    }
    return response;
  }

  /**
   * The token answer as JSON; an answer that is not JSON fails the call saying what came back
   * ({@link TokenAnswers#notJson}), JSON the codec refuses fails it naming why.
   */
  static JsonNode body(
      UpstreamRequest call, String what, UpstreamRequest request, UpstreamResponse response)
      throws RequestFailure {
    JsonNode body;
    try {
      body = TokenAnswers.jsonOrNull(response);
    } catch (IllegalArgumentException e) {
      throw failure(call, what, request, e.getMessage());
    }
    if (body == null) {
      throw failure(call, what, request, TokenAnswers.notJson(response));
    }
    return body;
  }

  static RequestFailure failure(
      UpstreamRequest call, String what, UpstreamRequest request, String why) {
    return RequestFailure.of(call, what + " " + request.describe() + ": " + why);
  }

  private static String form(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }
}
