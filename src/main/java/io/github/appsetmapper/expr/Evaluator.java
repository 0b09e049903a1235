package io.github.appsetmapper.expr;

import java.lang.reflect.Method;
import java.util.Map;
import org.springframework.expression.Expression;
import org.springframework.expression.spel.support.SimpleEvaluationContext;

/**
 * The one sandboxed evaluation context: read-only lenient map access, allowlisted instance methods,
 * the {@code #functions}, assignment disabled, no types, constructors or beans. It holds no
 * per-request state (the root object is passed per call), so all threads share it.
 */
public final class Evaluator {
  private static final SimpleEvaluationContext CONTEXT = build();

  /** What gives a NaN or an infinity that no operator made (a method's result). */
  private static final String RESULT = "the expression";

  private Evaluator() {}

  private static SimpleEvaluationContext build() {
    SimpleEvaluationContext context =
        SimpleEvaluationContext.forPropertyAccessors(
                new LenientMapAccessor(), new MapEntryAccessor())
            .withMethodResolvers(new AllowlistMethodResolver())
            .withTypeConverter(new CountingTypeConverter())
            .withAssignmentDisabled()
            .build();
    for (Map.Entry<String, Method> function : Functions.all().entrySet()) {
      context.setVariable(function.getKey(), function.getValue());
    }
    return context;
  }

  /**
   * Evaluates against {@code root}, the map of names in scope, within this thread's {@link
   * EvaluationBudget}: a fresh allowance for built strings, and the deadline the engine set.
   */
  public static Object evaluate(Expression expression, Map<String, Object> root) {
    EvaluationBudget.current().begin();
    try {
      return Arithmetic.finite(RESULT, expression.getValue(CONTEXT, root));
    } catch (IndexOutOfBoundsException
        | NullPointerException
        | ClassCastException
        | ArithmeticException e) {
      // SpEL rethrows what an allowlisted method throws as it is (list.get(9) on three
      // elements, 'abc'.substring(5), text.contains(null)): an expression failure like any other
      // (the row fails, naming it), not an internal error.
      throw new org.springframework.expression.EvaluationException(javaMessage(e), e);
    }
  }

  private static String javaMessage(RuntimeException e) {
    if (e instanceof NullPointerException) {
      return "a value the expression needs is null";
    }
    if (e instanceof ArithmeticException && e.getMessage() != null) {
      return e.getMessage(); // "/ by zero" says it all
    }
    return e.getMessage() == null
        ? e.getClass().getSimpleName()
        : e.getClass().getSimpleName() + ": " + e.getMessage();
  }

  /** As {@link #evaluate}, converted as SpEL converts an operand of {@code and} or {@code or}. */
  public static <T> T evaluate(Expression expression, Map<String, Object> root, Class<T> type) {
    EvaluationBudget.current().begin();
    return expression.getValue(CONTEXT, root, type);
  }

  /** As {@link #evaluate(Expression, Map)}, reading {@code plain} without SpEL where it can. */
  public static Object evaluate(Expression expression, PlainRead plain, Map<String, Object> root) {
    if (plain != null) {
      EvaluationBudget.current().begin();
      Object value = plain.read(root);
      if (value != PlainRead.UNREAD) {
        return Arithmetic.finite(RESULT, value);
      }
    }
    return evaluate(expression, root);
  }
}
