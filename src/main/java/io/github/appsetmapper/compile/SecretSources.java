package io.github.appsetmapper.compile;

import io.github.appsetmapper.config.Expr;
import io.github.appsetmapper.config.MappingSpec;
import io.github.appsetmapper.config.Pos;
import io.github.appsetmapper.config.Problems;
import io.github.appsetmapper.config.SecretSpec;
import io.github.appsetmapper.expr.Scope;
import io.github.appsetmapper.expr.Scope.Name;
import io.github.appsetmapper.secret.EnvOrFileSecret;
import io.github.appsetmapper.secret.EnvSecret;
import io.github.appsetmapper.secret.FileSecret;
import io.github.appsetmapper.secret.FixedSecret;
import io.github.appsetmapper.secret.SecretSource;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A mapping's {@code secrets}: where each value is read (a file whose path may read vars, rendered
 * here, once; an environment variable; or a value given to a test run), every problem reported.
 */
final class SecretSources {
  private SecretSources() {}

  static Map<String, SecretSource> compile(
      MappingSpec spec,
      CompileOptions options,
      Map<String, String> vars,
      Problems problems,
      ExpressionCompiler expressions) {
    Map<String, SecretSource> out = new LinkedHashMap<>();
    for (SecretSpec secret : spec.secrets().values()) {
      String path = secret.file() == null ? null : path(spec, secret, vars, problems, expressions);
      if (secret.env() != null && secret.env().contains("#{")) {
        problems.add(
            secret.pos().at(secret.pos().path() + ".env"),
            "an environment variable's name is not rendered: write the name itself");
      }
      String given = options.secretValues().get(secret.name());
      if (given != null) {
        out.put(secret.name(), new FixedSecret(given, options.redactor()));
        continue;
      }
      FileSecret file = path == null ? null : new FileSecret(Path.of(path), options.redactor());
      EnvSecret env =
          secret.env() == null
              ? null
              : new EnvSecret(secret.env(), options.environment(), options.redactor());
      out.put(
          secret.name(),
          file != null && env != null ? new EnvOrFileSecret(env, file) : file != null ? file : env);
    }
    return out;
  }

  /**
   * The secret's file path, its {@code #{vars.x}} holes rendered once, now (one mapping, several
   * mount paths). Nothing else may be read there: a path is never made from a request.
   */
  private static String path(
      MappingSpec spec,
      SecretSpec secret,
      Map<String, String> vars,
      Problems problems,
      ExpressionCompiler expressions) {
    Pos pos = secret.pos().at(secret.pos().path() + ".file");
    String onlyVars =
        "' cannot be read in a secret file path: it is rendered once, at load, from vars";
    Scope scope =
        Scope.empty()
            .declaring(Name.VARS, new Scope.Declared(spec.vars().keySet(), false))
            .with(Name.VARS, vars);
    for (Name name : Name.values()) {
      if (name != Name.VARS) {
        scope = scope.without(name, "'" + name.word() + onlyVars);
      }
    }
    for (String step : spec.enrich().keySet()) {
      scope = scope.without(step, "'" + step + onlyVars);
    }
    int before = problems.list().size();
    Template template = expressions.template(new Expr(secret.file(), pos), scope);
    if (template == null || problems.list().size() > before) {
      return null;
    }
    if (!secret.file().contains("#{")) {
      return secret.file(); // compiled only for another tool's syntax: {{ .dir }} is #{vars.dir}
    }
    if (!vars.keySet().containsAll(spec.vars().keySet())) {
      return null; // a var without a value is reported already
    }
    try {
      String rendered = template.render(scope);
      if (rendered.isBlank()) {
        problems.add(pos, "renders to an empty path");
        return null;
      }
      return rendered;
    } catch (RuntimeException e) {
      problems.add(pos, "cannot be rendered: " + e.getMessage());
      return null;
    }
  }
}
