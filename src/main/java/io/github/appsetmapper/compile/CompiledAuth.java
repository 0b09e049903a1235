package io.github.appsetmapper.compile;

import com.jayway.jsonpath.JsonPath;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Upstream authentication, its secrets named (resolved per request, never stored here). The token
 * kinds' templates may read only {@code vars} and {@code secret}: their token is shared by every
 * call of the server.
 */
public sealed interface CompiledAuth {
  record Bearer(String secret) implements CompiledAuth {}

  record Basic(Template username, String passwordSecret) implements CompiledAuth {}

  record Header(String name, String secret) implements CompiledAuth {}

  record OAuth2(
      Template tokenUrl,
      Template clientId,
      String clientSecret,
      List<String> scopes,
      Map<String, Template> params,
      boolean basicClientAuth)
      implements CompiledAuth {}

  /** {@code expiresInPath} or {@code expiresIn} (or neither: used until a 401). */
  record Login(
      CompiledRequest request,
      JsonPath token,
      JsonPath expiresInPath,
      Duration expiresIn,
      String header,
      String scheme)
      implements CompiledAuth {}

  record GithubApp(
      Template appId, Template installationId, String privateKeySecret, Template apiUrl)
      implements CompiledAuth {}

  /** {@code username} null: anonymous. */
  record Registry(Template username, String passwordSecret) implements CompiledAuth {}
}
