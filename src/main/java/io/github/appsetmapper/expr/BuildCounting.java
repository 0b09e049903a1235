package io.github.appsetmapper.expr;

import java.lang.reflect.Field;
import org.springframework.expression.EvaluationException;
import org.springframework.expression.TypedValue;
import org.springframework.expression.spel.ExpressionState;
import org.springframework.expression.spel.SpelEvaluationException;
import org.springframework.expression.spel.SpelMessage;
import org.springframework.expression.spel.SpelParserConfiguration;
import org.springframework.expression.spel.ast.Indexer;
import org.springframework.expression.spel.ast.InlineList;
import org.springframework.expression.spel.ast.InlineMap;
import org.springframework.expression.spel.ast.OpDivide;
import org.springframework.expression.spel.ast.OpMinus;
import org.springframework.expression.spel.ast.OpModulus;
import org.springframework.expression.spel.ast.OpMultiply;
import org.springframework.expression.spel.ast.OpPlus;
import org.springframework.expression.spel.ast.Operator;
import org.springframework.expression.spel.ast.OperatorPower;
import org.springframework.expression.spel.ast.Projection;
import org.springframework.expression.spel.ast.Selection;
import org.springframework.expression.spel.ast.SpelNodeImpl;
import org.springframework.expression.spel.standard.SpelExpression;

/**
 * Instruments a parsed and checked expression so that what it builds is counted against the
 * evaluation's {@link EvaluationBudget} as it is built, not after it exists: each string or number
 * that {@code +} and {@code *} make, each element of a projection (its body's value, counted whole:
 * {@code input.a.![#root.input.b]} counts {@code b} once per element of {@code a}), and each inline
 * list or map that is not a constant. SpEL offers no hook at these places (its operators, its
 * projection loop), so the nodes are replaced in the tree: {@code +} and {@code *} by subclasses
 * that count their result; the others wrapped in a node that counts its child's value. Every
 * arithmetic operator is made exact here too ({@link CheckedOperator}: no wrapped-around integer,
 * no NaN or Infinity), and every comparison ({@link CheckedComparison}: a double beside a long it
 * cannot hold compared exactly), which also means an instrumented expression is never compiled to
 * bytecode. These are the only places an expression can multiply what it reads (methods and
 * functions count in {@link BoundedMethods} and {@link Functions}; every other node passes a value
 * on or picks part of one). Every step that may be costly checks the deadline before it runs
 * (arithmetic and comparisons here, function calls as {@link CostlySteps}), and every step SpEL
 * counts ticks it ({@link OperationTicks}), so that an evaluation ends soon after its deadline
 * whatever it does.
 *
 * <p>The tree's child array is SpEL's protected field, reached by reflection once; if a Spring
 * upgrade renames it, every expression fails to load (never runs unbounded).
 */
public final class BuildCounting {
  private static final Field CHILDREN = field("children");
  private static final Field PARENT = field("parent");

  private BuildCounting() {}

  /** {@code parsed} with its building nodes counted; the same expression text and behaviour. */
  public static SpelExpression instrument(
      SpelExpression parsed, SpelParserConfiguration configuration) {
    SpelNodeImpl root = rewrite((SpelNodeImpl) parsed.getAST());
    return new SpelExpression(parsed.getExpressionString(), root, OperationTicks.of(configuration));
  }

  private static SpelNodeImpl rewrite(SpelNodeImpl node) {
    ExactLiteral exact = ExactLiteral.of(node); // 9223372036854775808.0 is no double's value
    if (exact != null) {
      return exact;
    }
    SpelNodeImpl[] children = children(node);
    for (int i = 0; i < children.length; i++) {
      SpelNodeImpl child = rewrite(children[i]);
      if (node instanceof Projection) {
        child = new Counted(child, "a projection");
      } else if (node instanceof Selection) {
        child = new Marking(child);
      } else if (node instanceof Indexer) {
        // {1: 'a'}[1.0] is 'a', as 1 == 1.0. And m[k] reads the name k, as the load check took
        // it (SpEL read a bare name in [] on a map as the text 'k': with a let k, m[k] quietly
        // gave m's entry 'k'); wrapped, the name is read as everywhere else.
        child = new CanonicalKeys.Index(child);
      }
      if (child != children[i]) {
        children[i] = child;
        set(PARENT, child, node);
      }
    }
    char op = arithmetic(node);
    if (op != 0) {
      return checked(op, node, children);
    }
    CheckedComparison comparison = CheckedComparison.of(node, children);
    if (comparison != null) {
      for (SpelNodeImpl operand : children) {
        set(PARENT, operand, comparison);
      }
      return comparison;
    }
    SpelNodeImpl costly = CostlySteps.checked(node, children);
    if (costly != null) {
      for (SpelNodeImpl operand : children(costly)) {
        set(PARENT, operand, costly);
      }
      return costly;
    }
    if (node instanceof InlineList list && !list.isConstant()) {
      return new Counted(node, "an inline list");
    }
    if (node instanceof InlineMap map) {
      // SpEL folds {-1: 'a'} into a constant, built once: its keys are checked all the same.
      SpelNodeImpl checked = InlineMapKeys.allWritten(map) ? node : new InlineMapKeys.Checked(node);
      // Its number keys in one form, as an index is: {1: 'a'}[1.0] finds 'a'.
      SpelNodeImpl keyed = new CanonicalKeys.InlineMap(checked, map.isConstant());
      return map.isConstant() ? keyed : new Counted(keyed, "an inline map");
    }
    return node;
  }

  /** The symbol of SpEL's own arithmetic operator {@code node}, or 0. */
  private static char arithmetic(SpelNodeImpl node) {
    Class<?> type = node.getClass();
    return type == OpPlus.class
        ? '+'
        : type == OpMinus.class
            ? '-'
            : type == OpMultiply.class
                ? '*'
                : type == OpDivide.class
                    ? '/'
                    : type == OpModulus.class ? '%' : type == OperatorPower.class ? '^' : 0;
  }

  /**
   * {@code node} made exact ({@link CheckedOperator}) over {@code operands}; {@code +} and {@code
   * *} count what SpEL's operator builds.
   */
  private static SpelNodeImpl checked(char op, SpelNodeImpl node, SpelNodeImpl[] operands) {
    int start = node.getStartPosition();
    int end = node.getEndPosition();
    SpelNodeImpl[] slots = CheckedOperator.slots(operands.length, start, end);
    Operator spel =
        switch (op) {
          case '+' -> new CountedPlus(start, end, slots);
          case '-' -> new OpMinus(start, end, slots);
          case '*' -> new CountedMultiply(start, end, slots);
          case '/' -> new OpDivide(start, end, slots);
          case '%' -> new OpModulus(start, end, slots);
          default -> new OperatorPower(start, end, slots);
        };
    CheckedOperator checked = new CheckedOperator(op, spel, operands);
    for (SpelNodeImpl operand : operands) {
      set(PARENT, operand, checked);
    }
    return checked;
  }

  static TypedValue count(TypedValue value, String what) {
    Object built = value.getValue();
    if (built instanceof String || built instanceof Number) {
      EvaluationBudget.current().charge(built, what);
    }
    return value;
  }

  /** {@code +}, counting what it builds (SpEL's operator inside a {@link CheckedOperator}). */
  static final class CountedPlus extends OpPlus {
    CountedPlus(int start, int end, SpelNodeImpl... operands) {
      super(start, end, operands);
    }

    @Override
    public TypedValue getValueInternal(ExpressionState state) throws EvaluationException {
      return count(super.getValueInternal(state), "the operator '+'");
    }
  }

  /** {@code *}, counting what it builds ({@code 'ab' * 200}, a product of big numbers). */
  static final class CountedMultiply extends OpMultiply {
    CountedMultiply(int start, int end, SpelNodeImpl... operands) {
      super(start, end, operands);
    }

    @Override
    public TypedValue getValueInternal(ExpressionState state) throws EvaluationException {
      return count(super.getValueInternal(state), "the operator '*'");
    }
  }

  /** A node whose value is counted whole each time it is computed; never compiled. */
  static final class Counted extends ValueNode.Around {
    private final String what;

    Counted(SpelNodeImpl inner, String what) {
      super(inner);
      this.what = what;
    }

    @Override
    public TypedValue getValueInternal(ExpressionState state) throws EvaluationException {
      TypedValue value;
      try {
        value = children[0].getValueInternal(state);
      } catch (SpelEvaluationException e) {
        throw marked(e, children[0]);
      }
      EvaluationBudget.current().charge(value.getValue(), what);
      return value;
    }
  }

  /**
   * The body of a selection, unchanged, marking where SpEL's bound of operations ran out: SpEL
   * throws it without a place, and the innermost loop it leaves is the part that spent it.
   */
  static final class Marking extends ValueNode.Around {
    Marking(SpelNodeImpl inner) {
      super(inner);
    }

    @Override
    public TypedValue getValueInternal(ExpressionState state) throws EvaluationException {
      try {
        return children[0].getValueInternal(state);
      } catch (SpelEvaluationException e) {
        throw marked(e, children[0]);
      }
    }
  }

  /** {@code e} placed at {@code body} when it is the bound of operations and has no place yet. */
  private static SpelEvaluationException marked(SpelEvaluationException e, SpelNodeImpl body) {
    if (e.getMessageCode() == SpelMessage.MAX_OPERATIONS_EXCEEDED && e.getPosition() < 0) {
      e.setPosition(body.getStartPosition());
    }
    return e;
  }

  private static SpelNodeImpl[] children(SpelNodeImpl node) {
    try {
      return (SpelNodeImpl[]) CHILDREN.get(node);
    } catch (IllegalAccessException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void set(Field field, SpelNodeImpl node, SpelNodeImpl value) {
    try {
      field.set(node, value);
    } catch (IllegalAccessException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Field field(String name) {
    try {
      Field field = SpelNodeImpl.class.getDeclaredField(name);
      field.setAccessible(true);
      return field;
    } catch (NoSuchFieldException e) {
      throw new IllegalStateException(
          "SpEL's tree has no '" + name + "' field: expressions cannot be instrumented", e);
    }
  }
}
