package io.github.appsetmapper.compile;

import io.github.appsetmapper.config.MappingSpec;
import io.github.appsetmapper.expr.Scope;
import io.github.appsetmapper.expr.SpelMessages;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
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
   * Go's action ({@code {{ .x }}}, {@code {{ item.x }}}, {@code {{x}}}, {@code {{- .x | lower -}}},
   * {@code {{ default "main" .branch }}}, {@code {{ if .x }}}), or GitHub Actions' {@code ${{ x }}}
   * (the {@code $} before it); {@link #goAction} tells it from SpEL's nested inline list of
   * literals ({@code {{1,2},{3}}}).
   */
  private static final Pattern GO =
      Pattern.compile("(\\$?)\\{\\{(?:-(?=\\s))?\\s*([^{}]*?)\\s*(?:(?<=\\s)-)?}}");

  /** A path: {@code x}, {@code a.b}. */
  private static final Pattern PATH = Pattern.compile("[A-Za-z_]\\w*(?:\\s*\\.\\s*[A-Za-z_]\\w*)*");

  /** A name then a space then more: Go's function or action with its arguments. */
  private static final Pattern CALL = Pattern.compile("[A-Za-z_]\\w*\\s+\\S.*");

  /** The shell's {@code ${name}} or {@code ${a.b}}. */
  private static final Pattern SHELL =
      Pattern.compile("\\$\\{\\s*([A-Za-z_]\\w*(?:\\.[A-Za-z_]\\w*)*)\\s*}");

  /**
   * The shell's (and Make's, and Azure Pipelines') {@code $(NAME)}; not after a word, a {@code $}
   * or a backslash (a regex's {@code \\$(}).
   */
  private static final Pattern PAREN =
      Pattern.compile("(?<![\\w$\\\\])\\$\\(\\s*([A-Za-z_]\\w*(?:\\.[A-Za-z_]\\w*)*)\\s*\\)");

  /**
   * The shell's {@code $NAME}: capitals, as an environment variable is named (OData's {@code
   * $filter} and MongoDB's {@code $sum} are lowercase, its {@code $$ROOT} has two dollars, a price
   * {@code $5} and a regex's {@code ^v[0-9]+$} no name). A slip only where the mapping declares the
   * name (an input, a var, a secret): {@code $LATEST} (AWS Lambda's version), a GraphQL query's
   * {@code $ID} and a Cypher {@code $SHA} are real text an API reads.
   */
  private static final Pattern ENV = Pattern.compile("(?<![$\\\\])\\$([A-Z][A-Z0-9_]*)(?![\\w(])");

  /**
   * The shell's {@code $name} in any case, also after a letter ({@code x$branch}: the shell reads
   * it so), for a template's text that is sent in a URL, a query value or a header: a slip there
   * where the mapping declares the name ({@code $branch} beside {@code input: {branch: ...}} was
   * sent as written). Not before {@code =} (a query's {@code $filter=}), and never an OData word
   * ({@link #ODATA}). A body is left out: GraphQL's variables are written {@code $branch} in its
   * query text.
   */
  private static final Pattern NAMED = Pattern.compile("(?<![$\\\\])\\$([A-Za-z_]\\w*)(?![\\w(])");

  /** OData's system query options and path segments: {@code /$count}, {@code ?$top=}. */
  private static final Set<String> ODATA =
      Set.of(
          "filter",
          "select",
          "expand",
          "orderby",
          "top",
          "skip",
          "count",
          "search",
          "format",
          "apply",
          "compute",
          "index",
          "levels",
          "skiptoken",
          "deltatoken",
          "schemaversion",
          "id",
          "batch",
          "metadata",
          "value",
          "ref",
          "all",
          "crossjoin",
          "entity",
          "root",
          "it",
          "this",
          "each");

  /**
   * Where a template's text goes: whether a {@code $name} in any case is a slip there (not in a
   * body), and the names a suggested {@code #{...}} may read there, which can be fewer than the
   * field's ({@code rewrite}: the Host header reads only vars; {@code host}, for a URL, the part
   * before its path, where nothing the caller sends may be read).
   */
  record Place(boolean anyCase, UnaryOperator<Scope> rewrite, UnaryOperator<Scope> host) {
    static final Place TEXT = new Place(true, s -> s, null);
    static final Place BODY = new Place(false, s -> s, null);
  }

  /**
   * A shell-like {@code $input.x} or {@code $item.x}: a {@code $} before a name of the mapping's
   * scope and a member of it (OData's {@code $filter} and {@code $top} name no scope; MongoDB's
   * {@code $$item.x} variables, two dollars, are not it).
   */
  private static final Pattern DOLLAR =
      Pattern.compile(
          "(?<![$\\\\])\\$("
              + String.join("|", new TreeSet<>(Scope.Name.RESERVED))
              + ")((?:\\.[A-Za-z_]\\w*)+)");

  private static final String TEMPLATES = "appset-mapper templates are #{...}";

  /**
   * The names a mapping declares, for a hint that names what exists: Go's {@code {{ .Values.x }}}
   * becomes {@code input.x} only where {@code x} is an input.
   */
  record Declared(Set<String> inputs, Set<String> vars, Set<String> secrets) {
    static Declared of(MappingSpec spec) {
      return new Declared(spec.input().keySet(), spec.vars().keySet(), spec.secrets().keySet());
    }
  }

  /** Which tool's syntax a slip is. */
  private enum Kind {
    GO("Go template syntax"),
    GITHUB("GitHub Actions syntax"),
    SHELL("shell syntax"),
    DOLLAR("shell-like syntax");

    final String words;

    Kind(String words) {
      this.words = words;
    }
  }

  /** A slip as written, its kind, and the name or path inside it. */
  private record Slip(String written, Kind kind, String inside) {}

  private final Declared declared;

  AuthorSlips(Declared declared) {
    this.declared = declared;
  }

  /** Whether the mapping declares {@code name} as an input, a var or a secret. */
  private boolean declares(String name) {
    return declared.inputs().contains(name)
        || declared.vars().contains(name)
        || declared.secrets().contains(name);
  }

  /** The first slip in {@code text} (whose string literals {@code code} has blanked), or null. */
  private static Slip find(String text, String code, Predicate<String> declaredName) {
    return find(text, code, declaredName, false);
  }

  private static Slip find(
      String text, String code, Predicate<String> declaredName, boolean anyCase) {
    Matcher go = GO.matcher(code);
    while (go.find()) {
      if (goAction(text.substring(go.start(2), go.end(2)), go.group(2))) {
        return new Slip(
            text.substring(go.start(), go.end()),
            go.group(1).isEmpty() ? Kind.GO : Kind.GITHUB,
            text.substring(go.start(2), go.end(2)));
      }
    }
    for (Pattern shell : List.of(SHELL, PAREN)) {
      Matcher m = shell.matcher(code);
      if (m.find()) {
        return new Slip(text.substring(m.start(), m.end()), Kind.SHELL, m.group(1));
      }
    }
    Matcher env = (anyCase ? NAMED : ENV).matcher(code);
    while (env.find()) {
      if (declaredName.test(env.group(1)) && (!anyCase || !odata(code, env))) {
        return new Slip(text.substring(env.start(), env.end()), Kind.SHELL, env.group(1));
      }
    }
    Matcher dollar = DOLLAR.matcher(code);
    if (dollar.find()) {
      return new Slip(
          text.substring(dollar.start(), dollar.end()),
          Kind.DOLLAR,
          dollar.group(1) + dollar.group(2));
    }
    return null;
  }

  /**
   * Whether a {@code $name} not in capitals (the shell's {@code $NAME} is a slip as before) is
   * OData's ({@code $filter}, {@code /$count}), a query parameter's name ({@code $x=}), or a
   * GraphQL variable the same text defines ({@code query($branch: String!)}, sent in a GET's
   * query).
   */
  private static boolean odata(String code, Matcher named) {
    String name = named.group(1);
    return !ENV_NAME.matcher(name).matches()
        && (ODATA.contains(name.toLowerCase(Locale.ROOT))
            || (named.end() < code.length() && code.charAt(named.end()) == '=')
            || Pattern.compile("\\$" + name + "\\s*:").matcher(code).find());
  }

  private static final Pattern ENV_NAME = Pattern.compile("[A-Z][A-Z0-9_]*");

  /**
   * Whether {@code {{...}}}'s inside is Go's: a path ({@code .x}, {@code item.x}, {@code x}), a
   * variable ({@code $x}), a pipe, or a function or action with arguments; not SpEL's list of
   * literals ({@code {{1,2}}}, {@code {{item.a, 1}}}: a comma, a number).
   */
  private static boolean goAction(String inside, String code) {
    String text = inside.strip();
    if (text.isEmpty() || code.indexOf(',') >= 0) {
      return false;
    }
    return text.startsWith(".")
        || text.startsWith("$")
        || PATH.matcher(text).matches()
        || CALL.matcher(code.strip()).matches()
        || code.replace("||", "").indexOf('|') >= 0;
  }

  private SlipRewrite rewrite(Slip slip, Scope scope) {
    return switch (slip.kind()) {
      case GO -> SlipRewrite.go(slip.inside(), declared, scope);
      case GITHUB -> SlipRewrite.githubActions(slip.inside(), declared, scope);
      case SHELL -> SlipRewrite.shell(slip.inside(), declared, scope);
      case DOLLAR -> SlipRewrite.path(slip.inside(), declared, scope, false);
    };
  }

  /**
   * The problem of an expression field (parameters, filter, let, value...) written in another
   * tool's template syntax, outside its string literals; null when there is none. {@code scope} is
   * the field's: a rewrite names only what it has.
   */
  String inExpression(String text, Scope scope) {
    Slip slip = find(text, withoutStrings(text), this::declares);
    if (slip == null) {
      return null;
    }
    SlipRewrite fix = rewrite(slip, scope);
    return "'"
        + slip.written()
        + "' is "
        + slip.kind().words
        + (slip.kind() == Kind.GO ? ", which SpEL reads as a list in a list" : "")
        + ": "
        + TEMPLATES
        + "; "
        + (fix.exists()
            ? "in parameters (and every expression field) write the bare expression: "
                + fix.expression()
                + fix.note()
            : "there is no direct rewrite: " + fix.none());
  }

  /**
   * The problem of a template's literal text (url, query, headers, body, auth) that holds another
   * tool's template syntax, which would be sent as written; null when there is none.
   */
  String inTemplateText(String literal, Scope scope, boolean anyCase) {
    if (literal.isEmpty()) {
      return null;
    }
    Slip slip = find(literal, literal, this::declares, anyCase);
    if (slip == null) {
      return null;
    }
    SlipRewrite fix = rewrite(slip, scope);
    String asWritten =
        slip.kind() == Kind.DOLLAR || !slip.written().contains("{")
            ? ", or #{'" + slip.written() + "'} to send it as written"
            : slip.kind() == Kind.SHELL ? " (a literal ${ is written #{'${'})" : "";
    return "'"
        + slip.written()
        + "' is "
        + slip.kind().words
        + ", which would be sent as written: "
        + TEMPLATES
        + ": "
        + (fix.exists()
            ? "write #{" + fix.expression() + "}" + fix.note() + asWritten
            : "there is no direct rewrite: " + fix.none());
  }

  /**
   * The problem of a text taken as written (a query or body key, a header name, a var's or an
   * input's default) that holds another tool's template syntax; null when there is none. Static:
   * its fix names no declaration. {@code fix} says what to write instead in a value.
   */
  static String inPlainText(String text, boolean key, String fix) {
    // No declarations here: a $NAME in a key or a default is text (a GraphQL or Lambda name).
    Slip slip = find(text, text, name -> false);
    if (slip == null) {
      return null;
    }
    return "'"
        + slip.written()
        + "' is "
        + slip.kind().words
        + (key
            ? " in a key, which is taken as written: a key is no template ("
                + TEMPLATES
                + " in values only)"
            : ", and this text is taken as written (it is no template): " + fix);
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
