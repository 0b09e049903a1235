package io.github.appsetmapper.engine;

import com.jayway.jsonpath.JsonPath;
import com.jayway.jsonpath.PathNotFoundException;
import io.github.appsetmapper.compile.CompiledAuth;
import io.github.appsetmapper.compile.CompiledRequest;
import io.github.appsetmapper.compile.JsonPaths;
import io.github.appsetmapper.compile.Template;
import io.github.appsetmapper.expr.Scope;
import io.github.appsetmapper.expr.Values;
import io.github.appsetmapper.upstream.call.Headers;
import io.github.appsetmapper.upstream.call.RequestFailure;
import io.github.appsetmapper.upstream.call.Token;
import io.github.appsetmapper.upstream.call.TokenReader;
import io.github.appsetmapper.upstream.call.UpstreamAuth;
import io.github.appsetmapper.upstream.call.UpstreamResponse;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Renders the auth of one call, each kind in its own method: bearer, basic and header become a
 * header made from a secret now; the token kinds (oauth2, login, githubApp, registry) become an
 * {@link UpstreamAuth} with templates evaluated and secrets read, whose token the upstream's {@code
 * AuthorizingUpstream} fetches, caches and applies.
 */
final class AuthRenderer implements CompiledAuth.Visitor<AuthRenderer.Rendered> {
  static final URI GITHUB_API = URI.create("https://api.github.com");

  /** What auth adds to a call: a header (a credential), or a token plan for the upstream. */
  record Rendered(Headers.Header header, UpstreamAuth plan) {
    static Rendered header(String name, String value) {
      return new Rendered(new Headers.Header(name, value), null);
    }

    static Rendered plan(UpstreamAuth plan) {
      return new Rendered(null, plan);
    }
  }

  private final RequestRenderer renderer;
  private final CompiledRequest request;
  private final Scope scope;

  AuthRenderer(RequestRenderer renderer, CompiledRequest request, Scope scope) {
    this.renderer = renderer;
    this.request = request;
    this.scope = scope;
  }

  @Override
  public Rendered bearer(CompiledAuth.Bearer bearer) throws RequestFailure {
    return Rendered.header("Authorization", "Bearer " + renderer.headerSecret(bearer.secret()));
  }

  @Override
  public Rendered basic(CompiledAuth.Basic basic) throws RequestFailure {
    String username =
        Values.text(renderer.evaluate(request, "auth.basic.username", basic.username(), scope));
    // RFC 7617: the first ':' ends the user-id, so one in it would move part of it into the
    // password the server checks.
    String problem =
        username.indexOf(':') >= 0 ? "cannot hold ':'" : RequestRenderer.headerProblem(username);
    if (problem != null) {
      throw renderer.refused(
          request,
          "auth.basic.username",
          "a username " + problem,
          basic.username().readsInput(),
          "header-value");
    }
    String pair = username + ":" + renderer.secret(basic.passwordSecret());
    return Rendered.header(
        "Authorization",
        "Basic " + Base64.getEncoder().encodeToString(pair.getBytes(StandardCharsets.UTF_8)));
  }

  @Override
  public Rendered header(CompiledAuth.Header header) throws RequestFailure {
    return Rendered.header(header.name(), renderer.headerSecret(header.secret()));
  }

  @Override
  public Rendered oauth2(CompiledAuth.OAuth2 oauth2) throws RequestFailure {
    Map<String, String> params = new LinkedHashMap<>();
    for (Map.Entry<String, Template> param : oauth2.params().entrySet()) {
      params.put(param.getKey(), text("auth.oauth2.params." + param.getKey(), param.getValue()));
    }
    return Rendered.plan(
        new UpstreamAuth.OAuth2(
            url("auth.oauth2.tokenUrl", oauth2.tokenUrl()),
            text("auth.oauth2.clientId", oauth2.clientId()),
            renderer.secret(oauth2.clientSecret()),
            oauth2.scopes(),
            params,
            oauth2.basicClientAuth()));
  }

  @Override
  public Rendered login(CompiledAuth.Login login) throws RequestFailure {
    return Rendered.plan(
        new UpstreamAuth.Login(
            renderer.render(login.request(), scope),
            reader(login),
            login.header(),
            login.scheme()));
  }

  @Override
  public Rendered githubApp(CompiledAuth.GithubApp app) throws RequestFailure {
    return Rendered.plan(
        new UpstreamAuth.GithubApp(
            app.apiUrl() == null ? GITHUB_API : url("auth.githubApp.apiUrl", app.apiUrl()),
            text("auth.githubApp.appId", app.appId()),
            text("auth.githubApp.installationId", app.installationId()),
            // A PEM key spans lines; it never goes into a header, so read it as it is.
            SecretsView.read(
                renderer.mapping().secrets(), app.privateKeySecret(), renderer.deadline())));
  }

  @Override
  public Rendered registry(CompiledAuth.Registry registry) throws RequestFailure {
    String username =
        registry.username() == null ? null : text("auth.registry.username", registry.username());
    if (username == null || username.isEmpty()) {
      return Rendered.plan(new UpstreamAuth.Registry(null, null));
    }
    return Rendered.plan(
        new UpstreamAuth.Registry(username, renderer.secret(registry.passwordSecret())));
  }

  private String text(String field, Template template) throws RequestFailure {
    Object value = renderer.evaluate(request, field, template, scope);
    return value == null ? "" : Values.text(value);
  }

  private URI url(String field, Template template) throws RequestFailure {
    String text = text(field, template);
    try {
      URI uri = new URI(text);
      if (uri.getHost() != null
          && ("http".equalsIgnoreCase(uri.getScheme())
              || "https".equalsIgnoreCase(uri.getScheme()))) {
        return uri;
      }
    } catch (URISyntaxException e) {
      // refused below
    }
    throw renderer.refused(
        request,
        field,
        "'" + template.source().text() + "' did not give an absolute http(s) URL",
        false,
        null);
  }

  /** Reads the login answer: the token at its JsonPath, the lifetime as configured. */
  private static TokenReader reader(CompiledAuth.Login login) {
    return (UpstreamResponse response, Instant now) -> {
      Object document;
      try {
        document = ResponseBodies.json(response);
      } catch (IOException e) {
        // "is not valid JSON", or why the codec refused it (a key twice, a number too big).
        throw new IllegalArgumentException(e.getMessage());
      }
      Object token = read(login.token(), document);
      if (token == null
          || token instanceof Map
          || token instanceof List
          || Values.text(token).isBlank()) {
        throw new IllegalArgumentException(
            "token '" + login.token().getPath() + "' found no token");
      }
      String value = Values.text(token);
      if (login.expiresInPath() != null) {
        Object expires = read(login.expiresInPath(), document);
        if (expires == null) {
          return Token.of(value, now, null);
        }
        return expiring(value, now, expires, login.expiresInPath());
      }
      return Token.of(value, now, login.expiresIn());
    };
  }

  private static Token expiring(String value, Instant now, Object expires, JsonPath path) {
    if (expires instanceof Number number && number.longValue() > 0) {
      return Token.of(value, now, Duration.ofSeconds(number.longValue()));
    }
    String text = Values.text(expires).trim();
    if (text.matches("\\d{1,12}")) {
      return Token.of(value, now, Duration.ofSeconds(Long.parseLong(text)));
    }
    try {
      return Token.until(value, now, Instant.parse(text));
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException(
          "expiresIn '" + path.getPath() + "' is neither a number of seconds nor an ISO-8601 time");
    }
  }

  private static Object read(JsonPath path, Object document) {
    try {
      return path.read(document, JsonPaths.CONFIGURATION);
    } catch (PathNotFoundException e) {
      return null;
    }
  }
}
