package io.github.appsetmapper.compile;

import io.github.appsetmapper.config.Expr;
import io.github.appsetmapper.config.Problems;
import io.github.appsetmapper.config.Suggestions;
import io.github.appsetmapper.expr.BuildCounting;
import io.github.appsetmapper.expr.Inspection;
import io.github.appsetmapper.expr.SandboxChecker;
import io.github.appsetmapper.expr.Scope;
import io.github.appsetmapper.expr.Scope.Name;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.springframework.expression.Expression;
import org.springframework.expression.common.CompositeStringExpression;
import org.springframework.expression.common.LiteralExpression;
import org.springframework.expression.common.TemplateParserContext;
import org.springframework.expression.spel.SpelCompilerMode;
import org.springframework.expression.spel.SpelNode;
import org.springframework.expression.spel.SpelParserConfiguration;
import org.springframework.expression.spel.ast.Elvis;
import org.springframework.expression.spel.ast.NullLiteral;
import org.springframework.expression.spel.ast.OpAnd;
import org.springframework.expression.spel.ast.OpOr;
import org.springframework.expression.spel.ast.SpelNodeImpl;
import org.springframework.expression.spel.standard.SpelExpression;
import org.springframework.expression.spel.standard.SpelExpressionParser;

/**
 * Parses SpEL expressions and {@code #{...}} templates once, runs the sandbox check on the parsed
 * tree and checks every name against the place's {@link Scope}. Problems go to {@link Problems}
 * with the expression's position; a null result means the expression did not compile.
 */
final class ExpressionCompiler {
  /**
   * Interpreted only (OFF), on purpose. Compiled SpEL bytecode skips the interpreter's per-node
   * checks (the method allowlist once resolved, the concatenation and repeat bounds, the evaluation
   * budget), so every sandbox and red-team corpus would have to hold twice. The 5x once measured
   * for MIXED came from a context that never compiled (spring-expression 7 compiles only with
   * {@code SimpleEvaluationContext.Builder.withCompilationSupported()}), i.e. from JIT warm-up; the
   * expressions are a few percent of a getparams (docs/performance.md). {@code CompiledModeTest}
   * asserts that nothing is compiled, so turning it on means rerunning those corpora compiled.
   */
  private static final SpelParserConfiguration CONFIGURATION =
      new SpelParserConfiguration(
          SpelCompilerMode.OFF, ExpressionCompiler.class.getClassLoader(), false, false, 0, 10_000);

  private static final SpelExpressionParser PARSER = new SpelExpressionParser(CONFIGURATION);

  /**
   * In {@link #unread}: a block that names values of its own (enrich, let, explode) was not read.
   */
  static final String UNREAD_NAMES = "";

  private static final TemplateParserContext TEMPLATE = new TemplateParserContext("#{", "}");

  private final Problems problems;
  private final AuthorSlips slips;

  /**
   * The names whose block of the file was refused whole as it was read ({@code list: "x"} gives no
   * {@code item}): what reads them is not said unknown, the block's own line says the mistake.
   */
  private final Set<String> unread;

  ExpressionCompiler(Problems problems, AuthorSlips.Declared declared, Set<String> unread) {
    this.problems = problems;
    this.slips = new AuthorSlips(declared);
    this.unread = unread;
  }

  /**
   * The one place an expression is parsed and checked: whatever SpEL's parser or a check throws
   * (not only its {@link org.springframework.expression.ParseException}: {@code { .x }} throws an
   * {@code IllegalArgumentException}) is a load problem at the expression's place.
   */
  CompiledExpression expression(Expr expr, Scope scope) {
    if (expr == null) {
      return null;
    }
    String slip = slips.inExpression(expr.text(), scope);
    if (slip != null) {
      problems.add(expr.pos(), slip);
      return null;
    }
    try {
      SpelExpression parsed = (SpelExpression) PARSER.parseExpression(expr.text());
      if (!elvisHasValue(expr, expr.text(), parsed.getAST())) {
        return null;
      }
      return checked(expr, parsed, scope);
    } catch (RuntimeException e) {
      problems.add(
          expr.pos(),
          "invalid expression '" + expr.text() + "': " + AuthorSlips.parseFailure(expr.text(), e));
      return null;
    }
  }

  Template template(Expr expr, Scope scope) {
    return template(expr, scope, AuthorSlips.Place.TEXT);
  }

  /** A template whose text goes to {@code place}: what a slip is there, and what it is fixed by. */
  Template template(Expr expr, Scope scope, AuthorSlips.Place place) {
    if (expr == null) {
      return null;
    }
    try {
      return parts(expr, PARSER.parseExpression(expr.text(), TEMPLATE), scope, place);
    } catch (RuntimeException e) {
      problems.add(
          expr.pos(), "invalid template '" + expr.text() + "': " + AuthorSlips.templateFailure(e));
      return null;
    }
  }

  private Template parts(Expr expr, Expression parsed, Scope scope, AuthorSlips.Place place) {
    Expression[] pieces =
        parsed instanceof CompositeStringExpression composite
            ? composite.getExpressions()
            : new Expression[] {parsed};
    List<Template.Part> parts = new ArrayList<>();
    boolean ok = true;
    // What a suggested #{...} may read: a URL's scheme and host read less than its path.
    Scope rewrite = place.rewrite().apply(scope);
    Scope hostRewrite = place.host() == null ? null : place.host().apply(rewrite);
    StringBuilder soFar = new StringBuilder();
    for (Expression piece : pieces) {
      if (piece instanceof LiteralExpression literal) {
        String text = literal.getExpressionString();
        int host = hostRewrite == null ? 0 : UrlCompiler.beforePath(soFar.toString(), text);
        soFar.append(text);
        String slip = slips.inTemplateText(text.substring(0, host), hostRewrite, place.anyCase());
        if (slip == null) {
          slip = slips.inTemplateText(text.substring(host), rewrite, place.anyCase());
        }
        if (slip != null) {
          problems.add(expr.pos(), slip);
          ok = false;
        } else if (!literal.getExpressionString().isEmpty()) {
          parts.add(new Template.Literal(literal.getExpressionString()));
        }
      } else {
        boolean inHost = hostRewrite != null && UrlCompiler.beforePath(soFar.toString());
        String slip =
            slips.inExpression(piece.getExpressionString(), inHost ? hostRewrite : rewrite);
        if (slip != null) {
          problems.add(expr.pos(), slip);
          ok = false;
          continue;
        }
        SpelExpression hole = (SpelExpression) piece;
        CompiledExpression compiled =
            elvisHasValue(expr, hole.getExpressionString(), hole.getAST())
                ? checked(expr, hole, scope)
                : null;
        ok &= compiled != null;
        if (compiled != null) {
          parts.add(new Template.Hole(compiled));
        }
      }
    }
    return ok ? new Template(expr, parts) : null;
  }

  /**
   * SpEL reads {@code a ?:} with nothing after it as {@code a ?: null}, and drops a {@code .y} that
   * has no name before it: {@code item.x ?: .y} would silently be {@code item.x ?: null}. The null
   * SpEL puts in stands on the operator, not on a written {@code null}. {@code text} is what the
   * node's positions count in: the expression, or a template's hole.
   */
  private boolean elvisHasValue(Expr expr, String text, SpelNode node) {
    if (node instanceof Elvis elvis
        && elvis.getChild(1) instanceof NullLiteral implicit
        && !written(text, implicit).equalsIgnoreCase("null")) {
      problems.add(
          expr.pos(),
          "invalid expression '"
              + expr.text()
              + "': '?:' has no value after it (write ?: null for none; a '.' needs a name before"
              + " it)");
      return false;
    }
    for (int i = 0; i < node.getChildCount(); i++) {
      if (!elvisHasValue(expr, text, node.getChild(i))) {
        return false;
      }
    }
    return true;
  }

  private static String written(String text, SpelNode node) {
    int start = Math.max(0, Math.min(node.getStartPosition(), text.length()));
    int end = Math.max(start, Math.min(node.getEndPosition(), text.length()));
    return text.substring(start, end);
  }

  /**
   * The operands of {@code whole}'s top-level {@code and} (or {@code or}), left to right, each its
   * own expression over a fresh parse (no tree shared with {@code whole}), named by its text in the
   * source. Empty when the top is neither.
   */
  List<CompiledExpression> operands(CompiledExpression whole, CompiledFilter.Joiner joiner) {
    SpelExpression copy = (SpelExpression) PARSER.parseExpression(whole.source().text());
    List<SpelNode> operands = new ArrayList<>();
    Class<? extends SpelNode> type =
        switch (joiner) {
          case AND -> OpAnd.class;
          case OR -> OpOr.class;
          case NONE -> null;
        };
    if (type != null) {
      flatten(copy.getAST(), type, operands);
    }
    if (operands.size() < 2) {
      return List.of();
    }
    List<CompiledExpression> out = new ArrayList<>();
    for (SpelNode operand : operands) {
      String text = SourceSpans.text(whole.source().text(), operand);
      Expr expr = new Expr(text, whole.source().pos());
      SpelExpression part = new SpelExpression(text, (SpelNodeImpl) operand, CONFIGURATION);
      // Instrumented as the whole is: the same exact arithmetic and the same counted budget.
      out.add(
          new CompiledExpression(
              BuildCounting.instrument(part, CONFIGURATION),
              expr,
              SandboxChecker.inspect(operand)));
    }
    return out;
  }

  private static void flatten(SpelNode node, Class<? extends SpelNode> joiner, List<SpelNode> out) {
    if (joiner.isInstance(node)) {
      for (int i = 0; i < node.getChildCount(); i++) {
        flatten(node.getChild(i), joiner, out);
      }
    } else {
      out.add(node);
    }
  }

  private CompiledExpression checked(Expr expr, SpelExpression parsed, Scope scope) {
    Inspection inspection = SandboxChecker.inspect(parsed.getAST());
    int before = problems.list().size();
    for (String violation : inspection.violations()) {
      problems.add(expr.pos(), violation + " (in '" + expr.text() + "')");
    }
    checkNames(expr, inspection, scope);
    // Checked as written; run instrumented, so that what it builds is counted as it is built.
    return problems.list().size() == before
        ? new CompiledExpression(BuildCounting.instrument(parsed, CONFIGURATION), expr, inspection)
        : null;
  }

  private void checkNames(Expr expr, Inspection inspection, Scope scope) {
    for (String name : inspection.elementNames()) {
      if (Name.RESERVED.contains(name)
          || scope.names().contains(name)
          || scope.unavailable().containsKey(name)) {
        // item.labels.?[item.x == 1] reads the label's field 'item', not the row's item: say so
        // at load instead of a null (or, on a map's entries, a 500) at run time.
        problems.add(
            expr.pos(),
            "inside a projection or selection '"
                + name
                + "' reads the element; write #root."
                + name
                + " for the scope's "
                + name
                + ", or #this."
                + name
                + " for the element's field (in '"
                + expr.text()
                + "')");
      }
    }
    for (String root : inspection.roots()) {
      if (scope.names().contains(root) || unread.contains(root)) {
        continue;
      }
      String reason = scope.unavailable().get(root);
      if (reason == null && unread.contains(UNREAD_NAMES)) {
        continue;
      }
      if (reason != null) {
        problems.add(expr.pos(), reason);
      } else {
        problems.add(
            expr.pos(),
            "unknown name '" + root + "'" + Suggestions.hint(root, new TreeSet<>(scope.names())));
      }
    }
    for (Name name : Name.values()) {
      if (name.declaredMembers() && !unread.contains(name.word())) {
        Scope.Declared declared = scope.declared(name);
        members(expr, inspection, name.word(), declared.members(), declared.open());
      }
    }
  }

  private void members(
      Expr expr, Inspection inspection, String root, Set<String> declared, boolean open) {
    for (String member : inspection.members().getOrDefault(root, Set.of())) {
      if (member.equals(Inspection.DYNAMIC)) {
        if (!root.equals("input")) {
          problems.add(expr.pos(), "name the " + root + " literally, as " + root + ".name");
        }
        continue;
      }
      if (!declared.contains(member) && !open && !unread.contains(root + "." + member)) {
        String where = root.equals("input") ? "input" : root.equals("vars") ? "vars" : "secrets";
        problems.add(
            expr.pos(),
            root
                + " '"
                + member
                + "' is not declared under "
                + where
                + (declared.isEmpty() ? "" : Suggestions.hint(member, new TreeSet<>(declared))));
      }
    }
  }
}
