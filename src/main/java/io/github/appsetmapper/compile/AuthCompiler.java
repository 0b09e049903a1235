package io.github.appsetmapper.compile;

import com.jayway.jsonpath.JsonPath;
import io.github.appsetmapper.config.AuthSpec;
import io.github.appsetmapper.expr.Scope;
import java.util.LinkedHashMap;
import java.util.Map;

/** Each kind of auth compiled: its templates parsed, its secrets checked as declared. */
final class AuthCompiler implements AuthSpec.Visitor<CompiledAuth> {
  private final MappingCompiler compiler;
  private final String step;
  private final Scope scope;

  AuthCompiler(MappingCompiler compiler, String step, Scope scope) {
    this.compiler = compiler;
    this.step = step;
    this.scope = scope;
  }

  @Override
  public CompiledAuth bearer(AuthSpec.Bearer bearer) {
    compiler.secretRef(bearer, bearer.secret());
    return new CompiledAuth.Bearer(bearer.secret());
  }

  @Override
  public CompiledAuth basic(AuthSpec.Basic basic) {
    compiler.secretRef(basic, basic.passwordSecret());
    return new CompiledAuth.Basic(
        compiler.expressions.template(basic.username(), scope), basic.passwordSecret());
  }

  @Override
  public CompiledAuth header(AuthSpec.Header header) {
    compiler.secretRef(header, header.secret());
    return new CompiledAuth.Header(header.name(), header.secret());
  }

  @Override
  public CompiledAuth oauth2(AuthSpec.OAuth2 oauth2) {
    compiler.secretRef(oauth2, oauth2.clientSecret());
    Map<String, Template> params = new LinkedHashMap<>();
    oauth2
        .params()
        .forEach((k, v) -> params.put(k, compiler.expressions.template(v, compiler.sharedScope)));
    return new CompiledAuth.OAuth2(
        compiler.expressions.template(oauth2.tokenUrl(), compiler.sharedScope),
        compiler.expressions.template(oauth2.clientId(), compiler.sharedScope),
        oauth2.clientSecret(),
        oauth2.scopes(),
        params,
        oauth2.clientAuth() == AuthSpec.ClientAuth.BASIC);
  }

  @Override
  public CompiledAuth login(AuthSpec.Login login) {
    JsonPath token = compiler.paths.definitePath(login.token(), "token");
    JsonPath expiresIn = compiler.paths.definitePath(login.expiresInPath(), "expiresIn");
    return new CompiledAuth.Login(
        compiler.request(step + ".auth.login", login.request(), compiler.sharedScope, true),
        token,
        expiresIn,
        login.expiresIn(),
        login.header(),
        login.scheme());
  }

  @Override
  public CompiledAuth githubApp(AuthSpec.GithubApp app) {
    compiler.secretRef(app, app.privateKey());
    return new CompiledAuth.GithubApp(
        compiler.expressions.template(app.appId(), compiler.sharedScope),
        compiler.expressions.template(app.installationId(), compiler.sharedScope),
        app.privateKey(),
        app.apiUrl() == null
            ? null
            : compiler.expressions.template(app.apiUrl(), compiler.sharedScope));
  }

  @Override
  public CompiledAuth registry(AuthSpec.Registry registry) {
    compiler.secretRef(registry, registry.password());
    return new CompiledAuth.Registry(
        registry.username() == null
            ? null
            : compiler.expressions.template(registry.username(), compiler.sharedScope),
        registry.password());
  }
}
