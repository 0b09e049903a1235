package io.github.appsetmapper.expr;

import java.util.List;
import org.springframework.core.convert.TypeDescriptor;
import org.springframework.expression.AccessException;
import org.springframework.expression.EvaluationContext;
import org.springframework.expression.MethodExecutor;
import org.springframework.expression.MethodResolver;
import org.springframework.expression.spel.support.DataBindingMethodResolver;

/**
 * Resolves only allowlisted instance methods on data values; the load-time check refuses the rest
 * already, this is the second wall at run time. Methods that take a regex or can grow a string run
 * as {@link BoundedMethods}, never as the JDK's (and so are never compiled to bytecode that would
 * call the JDK's directly).
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
    if (BoundedMethods.handles(target, name)) {
      return BoundedMethods.resolve(target, name, argumentTypes);
    }
    return instanceMethods.resolve(context, target, name, argumentTypes);
  }
}
