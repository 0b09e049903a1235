package io.github.appsetmapper.engine;

import com.jayway.jsonpath.JsonPath;
import com.jayway.jsonpath.PathNotFoundException;
import io.github.appsetmapper.compile.CompiledAuth;
import io.github.appsetmapper.compile.CompiledMapping;
import io.github.appsetmapper.compile.CompiledRequest;
import io.github.appsetmapper.compile.JsonPaths;
import io.github.appsetmapper.compile.Template;
import io.github.appsetmapper.expr.Values;
import io.github.appsetmapper.secret.SecretUnavailableException;
import io.github.appsetmapper.upstream.UpstreamResponse;
import io.github.appsetmapper.upstream.auth.Token;
import io.github.appsetmapper.upstream.auth.TokenReader;
import io.github.appsetmapper.upstream.auth.UpstreamAuth;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Renders the token kinds of auth (oauth2, login, githubApp, registry) for one call: templates
 * evaluated, secrets read, the login request rendered. The token itself is fetched and cached by
 * the upstream's {@code AuthorizingUpstream}.
 */
final class TokenAuths {
  static final URI GITHUB_API = URI.create("https://api.github.com");

  private TokenAuths() {}

  static UpstreamAuth render(
      CompiledMapping mapping, CompiledRequest request, Map<String, Object> scope)
      throws TemplateException, SecretUnavailableException {
    CompiledAuth auth = request.auth();
    if (auth instanceof CompiledAuth.OAuth2 oauth2) {
      Map<String, String> params = new LinkedHashMap<>();
      for (Map.Entry<String, Template> param : oauth2.params().entrySet()) {
        params.put(
            param.getKey(),
            text(request, "auth.oauth2.params." + param.getKey(), param.getValue(), scope));
      }
      return new UpstreamAuth.OAuth2(
          url(request, "auth.oauth2.tokenUrl", oauth2.tokenUrl(), scope),
          text(request, "auth.oauth2.clientId", oauth2.clientId(), scope),
          RequestRenderer.secret(mapping, oauth2.clientSecret()),
          oauth2.scopes(),
          params,
          oauth2.basicClientAuth());
    }
    if (auth instanceof CompiledAuth.Login login) {
      return new UpstreamAuth.Login(
          RequestRenderer.render(mapping, login.request(), scope),
          reader(login),
          login.header(),
          login.scheme());
    }
    if (auth instanceof CompiledAuth.GithubApp app) {
      return new UpstreamAuth.GithubApp(
          app.apiUrl() == null
              ? GITHUB_API
              : url(request, "auth.githubApp.apiUrl", app.apiUrl(), scope),
          text(request, "auth.githubApp.appId", app.appId(), scope),
          text(request, "auth.githubApp.installationId", app.installationId(), scope),
          // A PEM key spans lines; it never goes into a header, so read it as it is.
          mapping.secrets().get(app.privateKeySecret()).value());
    }
    CompiledAuth.Registry registry = (CompiledAuth.Registry) auth;
    String username =
        registry.username() == null
            ? null
            : text(request, "auth.registry.username", registry.username(), scope);
    if (username == null || username.isEmpty()) {
      return new UpstreamAuth.Registry(null, null);
    }
    return new UpstreamAuth.Registry(
        username, RequestRenderer.secret(mapping, registry.passwordSecret()));
  }

  private static String text(
      CompiledRequest request, String field, Template template, Map<String, Object> scope)
      throws TemplateException {
    Object value = RequestRenderer.evaluate(request, field, template, scope);
    return value == null ? "" : Values.text(value);
  }

  private static URI url(
      CompiledRequest request, String field, Template template, Map<String, Object> scope)
      throws TemplateException {
    String text = text(request, field, template, scope);
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
    throw new TemplateException(
        request.step()
            + "."
            + field
            + ": '"
            + template.source().text()
            + "' did not give an absolute http(s) URL",
        false);
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
