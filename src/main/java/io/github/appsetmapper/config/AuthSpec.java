package io.github.appsetmapper.config;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/** Upstream authentication ({@code request.auth} / {@code defaults.auth}). */
public sealed interface AuthSpec {
  Pos pos();

  /** {@code Authorization: Bearer <secret>}. */
  record Bearer(Pos pos, String secret) implements AuthSpec {}

  /** {@code Authorization: Basic base64(username:secret)}. */
  record Basic(Pos pos, Expr username, String passwordSecret) implements AuthSpec {}

  /** A header of the API's own choosing, such as {@code X-Api-Key}, carrying the secret. */
  record Header(Pos pos, String name, String secret) implements AuthSpec {}

  /** How an OAuth2 client authenticates at the token endpoint. */
  enum ClientAuth {
    BASIC("basic"),
    BODY("body");

    private final String word;

    ClientAuth(String word) {
      this.word = word;
    }

    @Override
    public String toString() {
      return word;
    }
  }

  /** OAuth2 client-credentials grant. */
  record OAuth2(
      Pos pos,
      Expr tokenUrl,
      Expr clientId,
      String clientSecret,
      List<String> scopes,
      Map<String, Expr> params,
      ClientAuth clientAuth)
      implements AuthSpec {}

  /**
   * A token from a login request: {@code token} a JsonPath, the lifetime a JsonPath ({@code
   * expiresInPath}) or a duration ({@code expiresIn}), sent in {@code header} after {@code scheme}.
   */
  record Login(
      Pos pos,
      RequestSpec request,
      Expr token,
      Expr expiresInPath,
      Duration expiresIn,
      String header,
      String scheme)
      implements AuthSpec {}

  /** A GitHub App installation token. */
  record GithubApp(Pos pos, Expr appId, Expr installationId, String privateKey, Expr apiUrl)
      implements AuthSpec {}

  /** The OCI/Docker registry token flow; anonymous when {@code username} is null. */
  record Registry(Pos pos, Expr username, String password) implements AuthSpec {}
}
