package io.github.appsetmapper.compile;

import com.jayway.jsonpath.JsonPath;
import io.github.appsetmapper.upstream.call.RequestFailure;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Upstream authentication, its secrets named (resolved per request, never stored here). The token
 * kinds' templates may read only {@code vars} and {@code secret}: their token is shared by every
 * call of the server. What a call does with each kind is a {@link Visitor} method (the engine
 * renders them), so a new kind does not compile until it is rendered.
 */
public sealed interface CompiledAuth {
  <R> R accept(Visitor<R> visitor) throws RequestFailure;

  /** One method per kind of auth. */
  interface Visitor<R> {
    R bearer(Bearer auth) throws RequestFailure;

    R basic(Basic auth) throws RequestFailure;

    R header(Header auth) throws RequestFailure;

    R oauth2(OAuth2 auth) throws RequestFailure;

    R login(Login auth) throws RequestFailure;

    R githubApp(GithubApp auth) throws RequestFailure;

    R registry(Registry auth) throws RequestFailure;
  }

  record Bearer(String secret) implements CompiledAuth {
    @Override
    public <R> R accept(Visitor<R> visitor) throws RequestFailure {
      return visitor.bearer(this);
    }
  }

  record Basic(Template username, String passwordSecret) implements CompiledAuth {
    @Override
    public <R> R accept(Visitor<R> visitor) throws RequestFailure {
      return visitor.basic(this);
    }
  }

  record Header(String name, String secret) implements CompiledAuth {
    @Override
    public <R> R accept(Visitor<R> visitor) throws RequestFailure {
      return visitor.header(this);
    }
  }

  record OAuth2(
      Template tokenUrl,
      Template clientId,
      String clientSecret,
      List<String> scopes,
      Map<String, Template> params,
      boolean basicClientAuth)
      implements CompiledAuth {
    @Override
    public <R> R accept(Visitor<R> visitor) throws RequestFailure {
      return visitor.oauth2(this);
    }
  }

  /** {@code expiresInPath} or {@code expiresIn} (or neither: used until a 401). */
  record Login(
      CompiledRequest request,
      JsonPath token,
      JsonPath expiresInPath,
      Duration expiresIn,
      String header,
      String scheme)
      implements CompiledAuth {
    @Override
    public <R> R accept(Visitor<R> visitor) throws RequestFailure {
      return visitor.login(this);
    }
  }

  record GithubApp(
      Template appId, Template installationId, String privateKeySecret, Template apiUrl)
      implements CompiledAuth {
    @Override
    public <R> R accept(Visitor<R> visitor) throws RequestFailure {
      return visitor.githubApp(this);
    }
  }

  /** {@code username} null: anonymous. */
  record Registry(Template username, String passwordSecret) implements CompiledAuth {
    @Override
    public <R> R accept(Visitor<R> visitor) throws RequestFailure {
      return visitor.registry(this);
    }
  }
}
