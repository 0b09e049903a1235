package io.github.appsetmapper.compile;

import io.github.appsetmapper.config.MappingSpec;
import io.github.appsetmapper.expr.Scope;
import io.github.appsetmapper.expr.SpelMessages;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.expression.ParseException;

/**
 * What a mapping author writes wrong on the way in, said with its fix: another tool's template
 * syntax (Go's {@code {{ .x }}}, as Argo CD's own templates are, and the shell's {@code ${x}}),
 * which SpEL would read as an inline list or send as written, and whatever SpEL's parser throws on
 * a malformed expression, in one message whatever its exception.
 */
final class AuthorSlips {
  /**
   * Go's action holding a name or a path ({@code {{ .x }}}, {@code {{ item.x }}}, {@code {{x}}},
   * {@code {{- .x | lower -}}}), not SpEL's nested inline list of literals ({@code {{1,2},{3}}}).
   */
  private static final Pattern GO =
      Pattern.compile("\\{\\{-?\\s*(\\.[^{}]*|[A-Za-z_]\\w*(?:\\s*\\.\\s*[A-Za-z_]\\w*)*)\\s*-?}}");

  /** The shell's {@code ${name}} or {@code ${a.b}}. */
  private static final Pattern SHELL =
      Pattern.compile("\\$\\{\\s*([A-Za-z_]\\w*(?:\\.[A-Za-z_]\\w*)*)\\s*}");

  /**
   * A shell-like {@code $input.x} or {@code $item.x}: a {@code $} before a name of the mapping's
   * scope and a member of it (OData's {@code $filter} and {@code $top} name no scope; MongoDB's
   * {@code $$item.x} variables, two dollars, are not it).
   */
  private static final Pattern DOLLAR =
      Pattern.compile(
          "(?<!\\$)\\$("
              + String.join("|", new TreeSet<>(Scope.Name.RESERVED))
              + ")((?:\\.[A-Za-z_]\\w*)+)");

  private static final String TEMPLATES = "appset-mapper templates are #{...}";

  /**
   * The names a mapping declares, for a hint that names what exists: Go's {@code {{ .Values.x }}}
   * becomes {@code input.x} only where {@code x} is an input.
   */
  record Declared(Set<String> inputs, Set<String> vars) {
    static final Declared NONE = new Declared(Set.of(), Set.of());

    static Declared of(MappingSpec spec) {
      return new Declared(spec.input().keySet(), spec.vars().keySet());
    }
  }

  private final Declared declared;

  AuthorSlips(Declared declared) {
    this.declared = declared;
  }

  /**
   * The problem of an expression field (parameters, filter, let, value...) written in another
   * tool's template syntax, outside its string literals; null when there is none.
   */
  String inExpression(String text) {
    String code = withoutStrings(text);
    Matcher go = GO.matcher(code);
    if (go.find()) {
      return "'"
          + text.substring(go.start(), go.end())
          + "' is Go template syntax, which SpEL reads as a list in a list: "
          + TEMPLATES
          + "; in parameters (and every expression field) write the bare expression: "
          + bare(go.group(1)).expression()
          + bare(go.group(1)).note();
    }
    Matcher shell = SHELL.matcher(code);
    if (shell.find()) {
      return "'"
          + text.substring(shell.start(), shell.end())
          + "' is shell syntax: "
          + TEMPLATES
          + "; in parameters (and every expression field) write the bare expression: "
          + bare(shell.group(1)).expression()
          + bare(shell.group(1)).note();
    }
    return null;
  }

  /**
   * The problem of a template's literal text (url, query, headers, body, auth) that holds another
   * tool's template syntax, which would be sent as written; null when there is none.
   */
  String inTemplateText(String literal) {
    Matcher go = GO.matcher(literal);
    if (go.find()) {
      return "'"
          + go.group()
          + "' is Go template syntax, which would be sent as written: "
          + TEMPLATES
          + ": write #{"
          + bare(go.group(1)).expression()
          + "}"
          + bare(go.group(1)).note();
    }
    Matcher shell = SHELL.matcher(literal);
    if (shell.find()) {
      return "'"
          + shell.group()
          + "' is shell syntax, which would be sent as written: "
          + TEMPLATES
          + ": write #{"
          + bare(shell.group(1)).expression()
          + "}"
          + bare(shell.group(1)).note()
          + " (a literal ${ is written #{'${'})";
    }
    Matcher dollar = DOLLAR.matcher(literal);
    if (dollar.find()) {
      return "'"
          + dollar.group()
          + "' is shell-like syntax, which would be sent as written: "
          + TEMPLATES
          + ": write #{"
          + dollar.group(1)
          + dollar.group(2)
          + "}, or #{'"
          + dollar.group()
          + "'} to send it as written";
    }
    return null;
  }

  /**
   * The problem of a text taken as written (a query or body key, a header name, a var's or an
   * input's default) that holds another tool's template syntax; null when there is none. Static:
   * its fix names no declaration.
   */
  static String inPlainText(String text, boolean key) {
    String syntax = null;
    Matcher go = GO.matcher(text);
    Matcher shell = SHELL.matcher(text);
    Matcher dollar = DOLLAR.matcher(text);
    if (go.find()) {
      syntax = "'" + go.group() + "' is Go template syntax";
    } else if (shell.find()) {
      syntax = "'" + shell.group() + "' is shell syntax";
    } else if (dollar.find()) {
      syntax = "'" + dollar.group() + "' is shell-like syntax";
    }
    if (syntax == null) {
      return null;
    }
    return syntax
        + (key
            ? " in a key, which is taken as written: a key is no template ("
                + TEMPLATES
                + " in values only)"
            : ", and this text is taken as written (it is no template): write the value itself");
  }

  /**
   * Why {@code text} does not parse, in one line whatever SpEL's parser threw: its own message for
   * a {@link ParseException}, and for what it throws without one ({@code { .x }} is an {@code
   * IllegalArgumentException: Operand must not be null}) the likely slip. With the fix when the
   * text is a template where an expression belongs.
   */
  static String parseFailure(String text, RuntimeException e) {
    String cause = cause(e);
    String code = withoutStrings(text);
    int hole = code.indexOf("#{");
    if (hole >= 0) {
      int end = code.indexOf('}', hole);
      String inside = (end < 0 ? text.substring(hole + 2) : text.substring(hole + 2, end)).strip();
      cause +=
          " (parameters are expressions, not templates: write "
              + (inside.isEmpty() ? "the bare expression" : inside)
              + ")";
    }
    return cause;
  }

  /** Why a template does not parse, in one line whatever SpEL's parser threw. */
  static String templateFailure(RuntimeException e) {
    return cause(e);
  }

  private static String cause(RuntimeException e) {
    if (e instanceof ParseException parse) {
      return SpelMessages.simple(parse);
    }
    if (e.getMessage() != null && e.getMessage().contains("must not be null")) {
      return "an operand is missing: a '.' with no name before it, or nothing after ',', ':', '?'"
          + " or '('";
    }
    return "it does not parse";
  }

  /** The expression a slip's inside stands for, and what it needs declared first ("": none). */
  record Fix(String expression, String note) {}

  private Fix bare(String inside) {
    String path = inside.strip();
    if (path.startsWith(".")) {
      // Argo CD's {{ .branch }} is the generator's parameter: input.branch here.
      int pipe = path.indexOf('|');
      String dotted = (pipe < 0 ? path : path.substring(0, pipe)).strip();
      if (dotted.equals(".")) {
        return new Fix("input", "");
      }
      List<String> names = List.of(dotted.substring(1).split("\\."));
      if (Scope.Name.RESERVED.contains(names.get(0))) {
        return new Fix(dotted.substring(1), "");
      }
      return declaredOne(names);
    }
    return new Fix(path.replaceAll("\\s+", ""), "");
  }

  /**
   * The hint for Go's {@code .a.b}: the first of its names, from the left, that the mapping
   * declares as an input or a var, with the names after it ({@code .Values.x} is {@code input.x}
   * where {@code x} is an input); else where to declare it (Helm's {@code .Values} dropped).
   */
  private Fix declaredOne(List<String> names) {
    for (int i = 0; i < names.size(); i++) {
      String rest = String.join(".", names.subList(i, names.size()));
      if (declared.inputs().contains(names.get(i))) {
        return new Fix("input." + rest, "");
      }
      if (declared.vars().contains(names.get(i))) {
        return new Fix("vars." + rest, "");
      }
    }
    List<String> own =
        names.size() > 1 && HELM.contains(names.get(0)) ? names.subList(1, names.size()) : names;
    String name = own.get(0);
    return new Fix(
        "input." + String.join(".", own),
        " (declare '"
            + name
            + "' under input:, or under vars: and read vars."
            + String.join(".", own)
            + " for a deploy-time setting"
            + (declared.inputs().isEmpty() && declared.vars().isEmpty()
                ? ""
                : "; declared: " + declaredList())
            + ")");
  }

  /** Helm's and Argo CD's roots that name no parameter of their own. */
  private static final Set<String> HELM = Set.of("Values", "Release", "Chart", "values");

  private String declaredList() {
    List<String> all = new ArrayList<>();
    new TreeSet<>(declared.inputs()).forEach(n -> all.add("input." + n));
    new TreeSet<>(declared.vars()).forEach(n -> all.add("vars." + n));
    return String.join(", ", all);
  }

  /** {@code text} with the inside of its '...' and "..." literals blanked, same length. */
  static String withoutStrings(String text) {
    StringBuilder out = new StringBuilder(text.length());
    char quote = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (quote == 0) {
        if (c == '\'' || c == '"') {
          quote = c;
        }
        out.append(c);
      } else if (c == quote) {
        if (i + 1 < text.length() && text.charAt(i + 1) == quote) {
          out.append("  ");
          i++;
        } else {
          quote = 0;
          out.append(c);
        }
      } else {
        out.append(' ');
      }
    }
    return out.toString();
  }
}
