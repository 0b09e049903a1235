package io.github.appsetmapper.compile;

import io.github.appsetmapper.expr.Scope;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What another tool's template slip ({@link AuthorSlips}) is written as here: an expression that
 * holds where the slip was written, with what it needs declared first, or why there is none. A
 * rewrite is never one this place would refuse: its root is a name of the place's scope (else the
 * scope's reason, or no rewrite), so {@code $response.ok} in a query is not told to be {@code
 * #{response.ok}}, nor Go's {@code {{ if .x }}} {@code #{if.x}}.
 */
record SlipRewrite(String expression, String note, String none) {
  private static final Pattern PATH = Pattern.compile("[A-Za-z_]\\w*(?:\\.[A-Za-z_]\\w*)*");

  /** Helm's {@code default "main" .branch}: a quoted literal, then the path it stands in for. */
  private static final Pattern DEFAULT =
      Pattern.compile("default\\s+\"([^\"'\\\\]*)\"\\s+(\\.?[A-Za-z_][\\w.]*)");

  /** Helm's {@code .ref | default "main"}: the path, piped into a quoted literal's default. */
  private static final Pattern PIPED_DEFAULT =
      Pattern.compile("(\\.?[A-Za-z_][\\w.]*)\\s*\\|\\s*default\\s+\"([^\"'\\\\]*)\"");

  private static final Pattern WORD = Pattern.compile("[A-Za-z_]\\w*");

  /** Go's actions, as opposed to its functions. */
  private static final Set<String> ACTIONS =
      Set.of("if", "else", "end", "range", "with", "define", "template", "block", "break");

  /** Helm's and Argo CD's roots that name no parameter of their own. */
  private static final Set<String> HELM = Set.of("Values", "Release", "Chart", "values");

  static SlipRewrite none(String why) {
    return new SlipRewrite(null, "", why);
  }

  boolean exists() {
    return expression != null;
  }

  /** Go's action's inside ({@code .x}, {@code item.x}, {@code .x | lower}, {@code if .x}...). */
  static SlipRewrite go(String inside, AuthorSlips.Declared declared, Scope scope) {
    String text = inside.strip();
    Matcher helmDefault = DEFAULT.matcher(text);
    Matcher piped = PIPED_DEFAULT.matcher(text);
    if (helmDefault.matches() || piped.matches()) {
      boolean first = helmDefault.matches();
      SlipRewrite path =
          path(first ? helmDefault.group(2) : piped.group(1), declared, scope, false);
      String literal = first ? helmDefault.group(1) : piped.group(2);
      return path.exists()
          ? new SlipRewrite(path.expression + " ?: '" + literal + "'", path.note, null)
          : path;
    }
    int pipe = AuthorSlips.withoutStrings(text).indexOf('|');
    if (pipe >= 0) {
      return none(
          "Go's pipe '"
              + text.substring(pipe).strip()
              + "' has no counterpart; write the SpEL expression in #{...} (a method call on the"
              + " value, e.g. .toLowerCase())");
    }
    if (text.startsWith("$")) {
      return none("Go's variables ($x) have no counterpart; write the SpEL expression in #{...}");
    }
    if (text.startsWith(".") || PATH.matcher(text).matches()) {
      return path(text, declared, scope, false);
    }
    Matcher word = WORD.matcher(text);
    String name = word.lookingAt() ? word.group() : text;
    return none(
        ACTIONS.contains(name)
            ? "Go's '"
                + name
                + "' action has no counterpart; write one SpEL expression in #{...} (a condition"
                + " is cond ? 'a' : 'b')"
            : "Go's function '"
                + name
                + "' has no counterpart; write the SpEL expression in #{...}");
  }

  /** GitHub Actions' {@code ${{ secrets.X }}}: its contexts that have a counterpart here. */
  static SlipRewrite githubActions(String inside, AuthorSlips.Declared declared, Scope scope) {
    String text = inside.strip();
    if (!PATH.matcher(text).matches() || !text.contains(".")) {
      return none("GitHub Actions' expressions have no counterpart; write the SpEL expression");
    }
    int dot = text.indexOf('.');
    String context = text.substring(0, dot);
    String rest = text.substring(dot + 1);
    String root =
        switch (context) {
          case "secrets" -> "secret";
          case "vars" -> "vars";
          case "inputs" -> "input";
          default -> null;
        };
    if (root == null) {
      return none("GitHub Actions' '" + context + "' context does not exist here");
    }
    String member = rest.split("\\.")[0];
    Set<String> own =
        switch (root) {
          case "secret" -> declared.secrets();
          case "vars" -> declared.vars();
          default -> declared.inputs();
        };
    String under = root.equals("secret") ? "secrets" : root;
    return inScope(
        new SlipRewrite(
            root + "." + rest,
            own.contains(member) ? "" : " (declare '" + member + "' under " + under + ":)",
            null),
        scope);
  }

  /**
   * A path as another tool names it: Go's {@code .x} (the generator's parameter: {@code input.x}),
   * the shell's {@code NAME} (a deploy-time setting: {@code vars.NAME}), or one that already starts
   * at a name of this scope ({@code item.x}).
   */
  static SlipRewrite path(
      String written, AuthorSlips.Declared declared, Scope scope, boolean setting) {
    String path = written.strip();
    boolean dotted = path.startsWith(".");
    if (dotted) {
      path = path.substring(1);
    }
    if (path.isEmpty()) {
      return inScope(new SlipRewrite("input", "", null), scope);
    }
    List<String> names = List.of(path.split("\\."));
    String root = names.get(0);
    if (Scope.Name.RESERVED.contains(root)
        || (known(root, scope) && (!dotted || !declares(declared, root)))) {
      // Go's .slug where slug is a let or an enrich result of this mapping is that name.
      return inScope(new SlipRewrite(path, "", null), scope);
    }
    return inScope(declaredOne(names, declared, setting && names.size() == 1, scope), scope);
  }

  private static boolean declares(AuthorSlips.Declared declared, String name) {
    return declared.inputs().contains(name) || declared.vars().contains(name);
  }

  /** The shell's {@code $NAME}, {@code $(NAME)} or {@code ${NAME}}: a deploy-time setting. */
  static SlipRewrite shell(String name, AuthorSlips.Declared declared, Scope scope) {
    return path(name, declared, scope, true);
  }

  private static boolean known(String root, Scope scope) {
    return scope.names().contains(root) || scope.unavailable().containsKey(root);
  }

  /**
   * The first of {@code names}, from the left, that the mapping declares as an input or a var, with
   * the names after it ({@code .Values.x} is {@code input.x} where {@code x} is an input); else
   * where to declare it (Helm's {@code .Values} dropped): a var for the shell's setting.
   */
  private static SlipRewrite declaredOne(
      List<String> names, AuthorSlips.Declared declared, boolean setting, Scope scope) {
    for (int i = 0; i < names.size(); i++) {
      String rest = String.join(".", names.subList(i, names.size()));
      if (declared.inputs().contains(names.get(i))) {
        return new SlipRewrite("input." + rest, "", null);
      }
      if (declared.vars().contains(names.get(i))) {
        return new SlipRewrite("vars." + rest, "", null);
      }
      if (declared.secrets().contains(names.get(i))
          && scope.names().contains(Scope.Name.SECRET.word())) {
        return new SlipRewrite("secret." + rest, "", null);
      }
    }
    // Where to declare it, among the blocks this place may read (a token's settings and a URL's
    // host read vars, not input): a declaration the place would refuse is no fix.
    boolean input = scope.names().contains(Scope.Name.INPUT.word());
    boolean vars = scope.names().contains(Scope.Name.VARS.word());
    List<String> own =
        names.size() > 1 && HELM.contains(names.get(0)) ? names.subList(1, names.size()) : names;
    String name = own.get(0);
    String dotted = String.join(".", own);
    String where = declaredList(declared, input, vars, scope);
    if (vars && (setting || !input)) {
      return new SlipRewrite(
          "vars." + dotted,
          " (declare '"
              + name
              + "' under vars: and give it with --var "
              + name
              + "=..."
              + (input ? ", or under input: and read input." + dotted : "")
              + where
              + ")",
          null);
    }
    return new SlipRewrite(
        "input." + dotted,
        " (declare '"
            + name
            + "' under input:"
            + (vars
                ? ", or under vars: and read vars." + dotted + " for a deploy-time setting"
                : "")
            + where
            + ")",
        null);
  }

  private static String declaredList(
      AuthorSlips.Declared declared, boolean input, boolean vars, Scope scope) {
    List<String> all = new ArrayList<>();
    if (input) {
      new TreeSet<>(declared.inputs()).forEach(n -> all.add("input." + n));
    }
    if (vars) {
      new TreeSet<>(declared.vars()).forEach(n -> all.add("vars." + n));
    }
    if (scope.names().contains(Scope.Name.SECRET.word())) {
      new TreeSet<>(declared.secrets()).forEach(n -> all.add("secret." + n));
    }
    return all.isEmpty() ? "" : "; declared: " + String.join(", ", all);
  }

  /** The rewrite where its root is a name of {@code scope}; else why there is none here. */
  private static SlipRewrite inScope(SlipRewrite rewrite, Scope scope) {
    Matcher root = WORD.matcher(rewrite.expression);
    String name = root.lookingAt() ? root.group() : rewrite.expression;
    if (scope.names().contains(name)) {
      return rewrite;
    }
    String reason = scope.unavailable().get(name);
    return none(reason != null ? reason : "'" + name + "' is no name here");
  }
}
