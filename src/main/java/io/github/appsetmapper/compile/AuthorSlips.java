package io.github.appsetmapper.compile;

import io.github.appsetmapper.expr.Scope;
import io.github.appsetmapper.expr.SpelMessages;
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

  private static final String TEMPLATES = "appset-mapper templates are #{...}";

  private AuthorSlips() {}

  /**
   * The problem of an expression field (parameters, filter, let, value...) written in another
   * tool's template syntax, outside its string literals; null when there is none.
   */
  static String inExpression(String text) {
    String code = withoutStrings(text);
    Matcher go = GO.matcher(code);
    if (go.find()) {
      return "'"
          + text.substring(go.start(), go.end())
          + "' is Go template syntax, which SpEL reads as a list in a list: "
          + TEMPLATES
          + "; in parameters (and every expression field) write the bare expression: "
          + bare(go.group(1));
    }
    Matcher shell = SHELL.matcher(code);
    if (shell.find()) {
      return "'"
          + text.substring(shell.start(), shell.end())
          + "' is shell syntax: "
          + TEMPLATES
          + "; in parameters (and every expression field) write the bare expression: "
          + bare(shell.group(1));
    }
    return null;
  }

  /**
   * The problem of a template's literal text (url, query, headers, body, auth) that holds another
   * tool's template syntax, which would be sent as written; null when there is none.
   */
  static String inTemplateText(String literal) {
    Matcher go = GO.matcher(literal);
    if (go.find()) {
      return "'"
          + go.group()
          + "' is Go template syntax, which would be sent as written: "
          + TEMPLATES
          + ": write #{"
          + bare(go.group(1))
          + "}";
    }
    Matcher shell = SHELL.matcher(literal);
    if (shell.find()) {
      return "'"
          + shell.group()
          + "' is shell syntax, which would be sent as written: "
          + TEMPLATES
          + ": write #{"
          + bare(shell.group(1))
          + "} (a literal ${ is written #{'${'})";
    }
    return null;
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

  private static String bare(String inside) {
    String path = inside.strip();
    if (path.startsWith(".")) {
      // Argo CD's {{ .branch }} is the generator's parameter: input.branch here.
      int pipe = path.indexOf('|');
      String dotted = (pipe < 0 ? path : path.substring(0, pipe)).strip();
      String root = dotted.substring(1).split("\\.", 2)[0];
      if (Scope.Name.RESERVED.contains(root)) {
        return dotted.substring(1);
      }
      return dotted.equals(".") ? "input" : "input" + dotted;
    }
    return path.replaceAll("\\s+", "");
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
