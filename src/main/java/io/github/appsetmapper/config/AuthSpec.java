package io.github.appsetmapper.config;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Upstream authentication ({@code request.auth} / {@code defaults.auth}): one record per kind, each
 * with its keys and its parser beside it. What later phases do with a kind is a {@link Visitor}
 * method, so a new kind does not compile until every phase handles it (docs/architecture.md).
 */
public sealed interface AuthSpec {
  Pos pos();

  <R> R accept(Visitor<R> visitor);

  /**
   * Whether the kind is a header made from a secret on every call (bearer, basic, header), which a
   * login request may use; the others fetch a token and cache it.
   */
  default boolean isStatic() {
    return false;
  }

  /** One method per kind of auth. */
  interface Visitor<R> {
    R bearer(Bearer auth);

    R basic(Basic auth);

    R header(Header auth);

    R oauth2(OAuth2 auth);

    R login(Login auth);

    R githubApp(GithubApp auth);

    R registry(Registry auth);
  }

  /** {@code Authorization: Bearer <secret>}. */
  record Bearer(Pos pos, String secret) implements AuthSpec {
    static final List<String> KEYS = List.of("secret");

    static Bearer parse(YamlMap body) {
      body.allowOnly(KEYS);
      return new Bearer(body.pos(), body.requiredString("secret"));
    }

    @Override
    public boolean isStatic() {
      return true;
    }

    @Override
    public <R> R accept(Visitor<R> visitor) {
      return visitor.bearer(this);
    }
  }

  /** {@code Authorization: Basic base64(username:secret)}. */
  record Basic(Pos pos, Expr username, String passwordSecret) implements AuthSpec {
    static final List<String> KEYS = List.of("username", "password");

    static Basic parse(YamlMap body) {
      body.allowOnly(KEYS);
      Expr username = body.expr("username");
      if (username == null) {
        body.problems().add(body.pos(), "missing required key 'username'");
      }
      return new Basic(body.pos(), username, RequestParser.secretRef(body, "password"));
    }

    @Override
    public boolean isStatic() {
      return true;
    }

    @Override
    public <R> R accept(Visitor<R> visitor) {
      return visitor.basic(this);
    }
  }

  /** A header of the API's own choosing, such as {@code X-Api-Key}, carrying the secret. */
  record Header(Pos pos, String name, String secret) implements AuthSpec {
    static final List<String> KEYS = List.of("name", "secret");

    static Header parse(YamlMap body) {
      body.allowOnly(KEYS);
      String name = body.requiredString("name");
      if (name != null && !RequestParser.isHeaderName(name)) {
        body.error("name", "invalid header name '" + name + "'");
      }
      return new Header(body.pos(), name, body.requiredString("secret"));
    }

    @Override
    public boolean isStatic() {
      return true;
    }

    @Override
    public <R> R accept(Visitor<R> visitor) {
      return visitor.header(this);
    }
  }

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
      implements AuthSpec {
    static final List<String> KEYS =
        List.of("tokenUrl", "clientId", "clientSecret", "scopes", "params", "clientAuth");

    static OAuth2 parse(YamlMap body) {
      body.allowOnly(KEYS);
      Expr tokenUrl = RequestParser.requiredExpr(body, "tokenUrl");
      Expr clientId = RequestParser.requiredExpr(body, "clientId");
      String secret = RequestParser.secretRef(body, "clientSecret");
      return new OAuth2(
          body.pos(),
          tokenUrl,
          clientId,
          secret,
          body.stringList("scopes"),
          body.exprMap("params"),
          body.choice("clientAuth", ClientAuth.class, ClientAuth.BASIC));
    }

    @Override
    public <R> R accept(Visitor<R> visitor) {
      return visitor.oauth2(this);
    }
  }

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
      implements AuthSpec {
    static final List<String> KEYS = List.of("request", "token", "expiresIn", "header", "scheme");

    static Login parse(YamlMap body) {
      body.allowOnly(KEYS);
      YamlMap request = body.map("request");
      if (request == null && !body.has("request")) {
        body.problems().add(body.pos(), "missing required key 'request'");
      }
      RequestSpec spec = request == null ? null : RequestParser.request(request);
      if (spec != null && spec.options().auth() != null && !spec.options().auth().isStatic()) {
        request.error("auth", "a login request may use bearer, basic or header auth only");
      }
      if (spec != null && spec.options().failWhen() != null) {
        request.error("failWhen", "a login request takes no failWhen; a non-2xx answer fails it");
      }
      if (spec != null && spec.acceptStatus() != null) {
        request.error(
            "acceptStatus",
            "a login request takes no acceptStatus; any 2xx answer with the token is");
      }
      Expr token = RequestParser.requiredExpr(body, "token");
      Expr expiresInPath = null;
      Duration expiresIn = null;
      String expires = body.string("expiresIn");
      if (expires != null) {
        if (expires.trim().startsWith("$")) {
          expiresInPath = body.expr("expiresIn");
        } else {
          expiresIn = body.duration("expiresIn", null);
        }
      }
      String header = body.string("header");
      if (header != null && !RequestParser.isHeaderName(header)) {
        body.error("header", "invalid header name '" + header + "'");
      }
      String scheme = body.has("scheme") ? body.string("scheme") : "Bearer";
      return new Login(
          body.pos(),
          spec,
          token,
          expiresInPath,
          expiresIn,
          header == null ? "Authorization" : header,
          scheme == null ? "" : scheme.strip());
    }

    @Override
    public <R> R accept(Visitor<R> visitor) {
      return visitor.login(this);
    }
  }

  /** A GitHub App installation token. */
  record GithubApp(Pos pos, Expr appId, Expr installationId, String privateKey, Expr apiUrl)
      implements AuthSpec {
    static final List<String> KEYS = List.of("appId", "installationId", "privateKey", "apiUrl");

    static GithubApp parse(YamlMap body) {
      body.allowOnly(KEYS);
      Expr appId = RequestParser.requiredExpr(body, "appId");
      Expr installation = RequestParser.requiredExpr(body, "installationId");
      return new GithubApp(
          body.pos(),
          appId,
          installation,
          RequestParser.secretRef(body, "privateKey"),
          body.expr("apiUrl"));
    }

    @Override
    public <R> R accept(Visitor<R> visitor) {
      return visitor.githubApp(this);
    }
  }

  /** The OCI/Docker registry token flow; anonymous when {@code username} is null. */
  record Registry(Pos pos, Expr username, String password) implements AuthSpec {
    static final List<String> KEYS = List.of("username", "password");

    static Registry parse(YamlMap body) {
      body.allowOnly(KEYS);
      if (body.has("username") != body.has("password")) {
        body.problems()
            .add(body.pos(), "username and password go together; give neither for anonymous pulls");
      }
      Expr username = body.expr("username");
      String password = body.has("password") ? RequestParser.secretRef(body, "password") : null;
      return new Registry(body.pos(), username, password);
    }

    @Override
    public <R> R accept(Visitor<R> visitor) {
      return visitor.registry(this);
    }
  }
}
