package io.github.appsetmapper.expr;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.expression.spel.SpelNode;
import org.springframework.expression.spel.ast.Assign;
import org.springframework.expression.spel.ast.BeanReference;
import org.springframework.expression.spel.ast.CompoundExpression;
import org.springframework.expression.spel.ast.ConstructorReference;
import org.springframework.expression.spel.ast.FunctionReference;
import org.springframework.expression.spel.ast.Indexer;
import org.springframework.expression.spel.ast.InlineMap;
import org.springframework.expression.spel.ast.Literal;
import org.springframework.expression.spel.ast.MethodReference;
import org.springframework.expression.spel.ast.OpDec;
import org.springframework.expression.spel.ast.OpInc;
import org.springframework.expression.spel.ast.OperatorMatches;
import org.springframework.expression.spel.ast.Projection;
import org.springframework.expression.spel.ast.PropertyOrFieldReference;
import org.springframework.expression.spel.ast.QualifiedIdentifier;
import org.springframework.expression.spel.ast.Selection;
import org.springframework.expression.spel.ast.StringLiteral;
import org.springframework.expression.spel.ast.TypeReference;
import org.springframework.expression.spel.ast.VariableReference;

/**
 * Walks a parsed SpEL tree before anything runs: refuses type references, constructors, bean
 * references, assignment, unknown functions and methods outside the allowlist, and records which
 * names the expression reads so that the compiler can check them against the mapping.
 */
public final class SandboxChecker {
  private static final Set<String> MEMBER_ROOTS = Scope.Name.withDeclaredMembers();

  /** The string methods whose first argument is a regex (run on RE2, see {@link Regexes}). */
  private static final Set<String> REGEX_METHODS =
      Set.of("matches", "replaceAll", "replaceFirst", "split");

  private final Set<String> violations = new LinkedHashSet<>();
  private final Set<String> roots = new LinkedHashSet<>();
  private final Map<String, Set<String>> members = new LinkedHashMap<>();
  private final Set<String> elementNames = new LinkedHashSet<>();

  private SandboxChecker() {}

  public static Inspection inspect(SpelNode ast) {
    SandboxChecker checker = new SandboxChecker();
    checker.visit(ast, true, false);
    return new Inspection(
        List.copyOf(checker.violations),
        Set.copyOf(checker.roots),
        Map.copyOf(checker.members),
        Set.copyOf(checker.elementNames));
  }

  /**
   * @param rootRelative the node is evaluated against the scope root, so a property names a root
   *     name
   * @param elementScope inside a projection or selection, where the scope root is the element
   */
  private void visit(SpelNode node, boolean rootRelative, boolean elementScope) {
    if (node instanceof TypeReference || node instanceof QualifiedIdentifier) {
      violations.add("type references (T(...)) are not allowed");
      return;
    }
    if (node instanceof ConstructorReference) {
      violations.add("constructors (new ...) are not allowed");
      return;
    }
    if (node instanceof BeanReference) {
      violations.add("bean references (@...) are not allowed");
      return;
    }
    if (node instanceof Assign) {
      // filter: item.draft = false is a comparison meant, not an assignment.
      violations.add("assignment is not allowed (compare with ==)");
      return;
    }
    if (node instanceof OpInc || node instanceof OpDec) {
      violations.add("assignment is not allowed");
      return;
    }
    if (node instanceof OperatorMatches) {
      // SpEL runs it on java.util.regex, which can take minutes on a short text: call the RE2 one.
      violations.add(
          "the 'matches' operator is not supported; call the method instead, as"
              + " text.matches('regex') (RE2 syntax, linear time)");
      return;
    }
    if (rootRelative && !elementScope && node instanceof Indexer) {
      // ['x'] on the scope reads the name x, as #root['x'] does: check it so.
      String name = memberName(node);
      if (name.equals(Inspection.DYNAMIC)) {
        violations.add("name what you read literally, as #root.input or #root['input']");
      } else {
        roots.add(name);
      }
      children(node, 0, false, elementScope);
      return;
    }
    if (rootRelative
        && !elementScope
        && (node instanceof Projection || node instanceof Selection)) {
      // Over the scope itself it would carry every name past the checks.
      violations.add(
          "a selection or projection over the scope would read every name; name what you read,"
              + " as #root.input");
      return;
    }
    if (node instanceof MethodReference method) {
      if (rootRelative && !elementScope) {
        // get('input') on the scope would read a name past the checks.
        violations.add(
            "method '" + method.getName() + "' cannot be called on the scope; call it on a value");
      } else if (!MethodAllowlist.allNames().contains(method.getName())) {
        violations.add(
            "method '"
                + method.getName()
                + "' is not allowed; allowed: "
                + String.join(", ", MethodAllowlist.allNames()));
      } else if (REGEX_METHODS.contains(method.getName())
          && node.getChildCount() > 0
          && node.getChild(0) instanceof StringLiteral literal) {
        String regex = String.valueOf(((Literal) literal).getLiteralValue().getValue());
        String problem = Regexes.problem(regex);
        if (problem != null) {
          violations.add(
              "invalid pattern '" + regex + "' in " + method.getName() + "(...): " + problem);
        }
      }
      children(node, 0, true, elementScope);
      return;
    }
    if (node instanceof FunctionReference) {
      String name = functionName(node);
      if (!Functions.all().containsKey(name)) {
        violations.add(
            "unknown function #"
                + name
                + "; known: #"
                + String.join(", #", Functions.all().keySet()));
      } else if (name.equals("semverMatches")
          && node.getChildCount() == 2
          && node.getChild(1) instanceof StringLiteral literal) {
        // A literal constraint is checked once, here, rather than failing every row.
        String constraint = String.valueOf(((Literal) literal).getLiteralValue().getValue());
        String problem = SemverRanges.problem(constraint);
        if (problem != null) {
          violations.add(
              "invalid constraint '"
                  + SemverRanges.shortened(constraint)
                  + "' in #semverMatches(...): "
                  + problem);
        }
      }
      children(node, 0, true, elementScope);
      return;
    }
    if (node instanceof VariableReference) {
      String name = variableName(node);
      if (!name.equals("this") && !name.equals("root")) {
        violations.add(
            Functions.all().containsKey(name)
                ? "#" + name + " is a function; call it as #" + name + "(...)"
                : "unknown variable #" + name + "; only #this, #root and functions exist");
      } else if (isScopeRoot(node, elementScope)) {
        // The whole scope as a value would carry every name past the checks.
        violations.add(
            name.equals("this")
                ? "#this alone is the whole scope here (it is the element only inside .?[...] and"
                    + " .![...]); name what you read, as item or #this.item"
                : "#root alone is not allowed; name what you read, as #root.input");
      }
      return;
    }
    if (node instanceof PropertyOrFieldReference property) {
      if (property.getName().equals("class")) {
        violations.add("'class' cannot be read");
      } else if (rootRelative && !elementScope) {
        roots.add(property.getName());
      } else if (rootRelative) {
        // Inside .![...] and .?[...] a name reads the element: the compiler refuses one that is
        // also a name of the scope (input.x, item.x would quietly read the element's field).
        elementNames.add(property.getName());
      }
      return;
    }
    if (node instanceof CompoundExpression) {
      compound(node, rootRelative, elementScope);
      return;
    }
    if (node instanceof Projection || node instanceof Selection) {
      children(node, 0, true, true);
      return;
    }
    if (node instanceof InlineMap) {
      String repeated = InlineMapKeys.repeated(node);
      if (repeated != null) {
        violations.add(InlineMapKeys.twice(repeated, node.toStringAST()));
      }
      SpelNode shapeless = InlineMapKeys.shapeless(node);
      if (shapeless != null) {
        violations.add(InlineMapKeys.shapeless(shapeless, node.toStringAST()));
      }
      for (int i = 0; i < node.getChildCount(); i++) {
        // A key written as a name is that text ({a: 1}); any other key is read like a value.
        if (i % 2 == 1 || !(node.getChild(i) instanceof PropertyOrFieldReference)) {
          visit(node.getChild(i), true, elementScope);
        }
      }
      return;
    }
    if (node instanceof Literal literal
        && literal.getLiteralValue().getValue() instanceof Number number
        && !Double.isFinite(number.doubleValue())) {
      violations.add(
          "the number "
              + literal.getOriginalValue()
              + " is beyond a decimal's range (about 1.8e308)");
      return;
    }
    children(node, 0, true, elementScope);
  }

  private void compound(SpelNode node, boolean rootRelative, boolean elementScope) {
    int first = 0;
    SpelNode head = node.getChild(0);
    if (isScopeRoot(head, elementScope) && node.getChildCount() > 1) {
      // #root.x (and #this.x outside a projection) reads the name x of the scope: check it so.
      first = 1;
      head = node.getChild(1);
      rootRelative = true;
      elementScope = false;
    }
    String headName;
    if (first == 1 && head instanceof Indexer) {
      headName = memberName(head);
      if (headName.equals(Inspection.DYNAMIC)) {
        violations.add("name what you read literally, as #root.input or #root['input']");
      } else {
        roots.add(headName);
      }
    } else {
      visit(head, rootRelative, elementScope);
      headName =
          head instanceof PropertyOrFieldReference p && rootRelative && !elementScope
              ? p.getName()
              : null;
    }
    for (int i = first + 1; i < node.getChildCount(); i++) {
      SpelNode child = node.getChild(i);
      if (i == first + 1 && headName != null && MEMBER_ROOTS.contains(headName)) {
        members.computeIfAbsent(headName, k -> new LinkedHashSet<>()).add(memberName(child));
      }
      if (child instanceof Projection || child instanceof Selection) {
        children(child, 0, true, true);
      } else {
        visit(child, false, elementScope);
      }
    }
  }

  private static String memberName(SpelNode child) {
    if (child instanceof PropertyOrFieldReference property) {
      return property.getName();
    }
    if (child instanceof Indexer
        && child.getChildCount() == 1
        && child.getChild(0) instanceof StringLiteral literal) {
      return String.valueOf(((Literal) literal).getLiteralValue().getValue());
    }
    return Inspection.DYNAMIC;
  }

  private void children(SpelNode node, int from, boolean rootRelative, boolean elementScope) {
    for (int i = from; i < node.getChildCount(); i++) {
      visit(node.getChild(i), rootRelative, elementScope);
    }
  }

  private static String variableName(SpelNode node) {
    return node.toStringAST().substring(1);
  }

  /**
   * {@code #root} anywhere, or {@code #this} where it still means the root (not in a projection).
   */
  private static boolean isScopeRoot(SpelNode node, boolean elementScope) {
    if (!(node instanceof VariableReference)) {
      return false;
    }
    String name = variableName(node);
    return name.equals("root") || (name.equals("this") && !elementScope);
  }

  private static String functionName(SpelNode node) {
    String ast = node.toStringAST();
    int paren = ast.indexOf('(');
    return ast.substring(1, paren < 0 ? ast.length() : paren);
  }
}
