package io.github.appsetmapper.expr;

import java.util.List;
import org.springframework.core.convert.TypeDescriptor;
import org.springframework.expression.AccessException;
import org.springframework.expression.EvaluationContext;
import org.springframework.expression.EvaluationException;
import org.springframework.expression.MethodExecutor;
import org.springframework.expression.MethodResolver;
import org.springframework.expression.TypedValue;
import org.springframework.expression.spel.support.DataBindingMethodResolver;

/**
 * Resolves only allowlisted instance methods on data values; the load-time check refuses the rest
 * already, this is the second wall at run time. Methods that take a regex or can grow a string run
 * as {@link BoundedMethods}, never as the JDK's (and so are never compiled to bytecode that would
 * call the JDK's directly), as do those whose JDK version is quadratic (a string's {@code
 * contains}/{@code indexOf}/{@code lastIndexOf}). Those that compare values (a list's {@code
 * contains}, {@code indexOf}, {@code containsAll}, a map's key and value lookups, a number's {@code
 * equals}) run as {@link ValueMethods}: numbers equal by value, as {@code ==} says. Every other
 * allowlisted method is at most linear in what it reads, and checks the deadline before it runs.
 */
final class AllowlistMethodResolver implements MethodResolver {
  private final MethodResolver instanceMethods =
      DataBindingMethodResolver.forInstanceMethodInvocation();

  @Override
  public MethodExecutor resolve(
      EvaluationContext context, Object target, String name, List<TypeDescriptor> argumentTypes)
      throws AccessException {
    if (target instanceof Class<?> || !MethodAllowlist.allows(target, name)) {
      return null;
    }
    if (target instanceof Number && name.equals("toString") && argumentTypes.isEmpty()) {
      // As a template writes a number: 100 for a decimal 1E+2, 0.1 for the float 0.1f.
      return (EvaluationContext c, Object on, Object... arguments) -> {
        EvaluationBudget.current().checkDeadline();
        return new TypedValue(Values.text(on));
      };
    }
    if (ValueMethods.handles(target, name)) {
      return ValueMethods.resolve(target, name, argumentTypes);
    }
    if (BoundedMethods.handles(target, name)) {
      return BoundedMethods.resolve(target, name, argumentTypes);
    }
    MethodExecutor jdk = instanceMethods.resolve(context, target, name, argumentTypes);
    if (jdk == null) {
      return null;
    }
    // Each call is at most linear in what it reads; a projection or selection repeating one
    // over a large list stops at the deadline, checked before every call.
    if (target instanceof Number && Arithmetic.converts(name)) {
      // 3000000000L.intValue() is not -1294967296, a huge integer's doubleValue() no Infinity.
      return (EvaluationContext c, Object on, Object... arguments) -> {
        EvaluationBudget.current().checkDeadline();
        TypedValue value = jdk.execute(c, on, arguments);
        Arithmetic.converted(name, (Number) on);
        return value;
      };
    }
    return (EvaluationContext c, Object on, Object... arguments) -> {
      EvaluationBudget.current().checkDeadline();
      try {
        return jdk.execute(c, on, arguments);
      } catch (AccessException e) {
        // An argument that would change converting (2.compareTo(2.5)): said as it is, not as
        // SpEL's "Problem invoking method: public int java.lang.Integer.compareTo(...)".
        if (e.getCause() instanceof EvaluationException refused) {
          throw refused;
        }
        throw e;
      }
    };
  }
}
