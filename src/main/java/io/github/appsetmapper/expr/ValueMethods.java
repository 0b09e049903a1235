package io.github.appsetmapper.expr;

import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.core.convert.TypeDescriptor;
import org.springframework.expression.EvaluationContext;
import org.springframework.expression.MethodExecutor;
import org.springframework.expression.TypedValue;

/**
 * The allowlisted methods that compare values, in place of the JDK's: they compare as {@link
 * Equality} does, so {@code {1.0}.contains(1)} is true as {@code 1.0 == 1} is (Java's {@code
 * equals} said no). A list's {@code contains}, {@code indexOf} and {@code containsAll}; a map's
 * {@code get}, {@code getOrDefault}, {@code containsKey} (a number key in its canonical form, as
 * inline maps hold their keys) and {@code containsValue}; a number's {@code equals}. Each is linear
 * in what it reads and ticks the deadline per element; {@code containsAll} hashes (the JDK's checks
 * each element against the whole list: 125,000 against 125,000 took a minute).
 */
final class ValueMethods {
  private static final Set<String> COLLECTION = Set.of("contains", "indexOf", "containsAll");
  private static final Set<String> MAP =
      Set.of("get", "getOrDefault", "containsKey", "containsValue");

  private ValueMethods() {}

  /** Whether the method is ours for this receiver: then the JDK's is never resolved. */
  static boolean handles(Object target, String name) {
    if (target instanceof Collection) {
      return COLLECTION.contains(name);
    }
    if (target instanceof Map) {
      return MAP.contains(name);
    }
    return target instanceof Number && name.equals("equals");
  }

  /** The executor, or null when the arguments do not fit (SpEL then says no such method). */
  static MethodExecutor resolve(Object target, String name, List<TypeDescriptor> arguments) {
    int count = arguments.size();
    if (target instanceof Number) {
      return count == 1 ? executor(Number.class, (n, args) -> Equality.same(n, args[0])) : null;
    }
    if (target instanceof Collection) {
      if (count != 1 || name.equals("indexOf") && !(target instanceof List)) {
        return null; // a map's keySet() or values() has no indexOf, as before
      }
      return switch (name) {
        case "contains" -> executor(Collection.class, (list, args) -> contains(list, args[0]));
        case "indexOf" -> executor(Collection.class, (list, args) -> indexOf(list, args[0]));
        default -> executor(Collection.class, (list, args) -> containsAll(list, args[0]));
      };
    }
    return switch (name) {
      case "get" -> count == 1 ? executor(Map.class, (map, args) -> get(map, args[0])) : null;
      case "getOrDefault" ->
          count == 2
              ? executor(Map.class, (map, args) -> getOrDefault(map, args[0], args[1]))
              : null;
      case "containsKey" ->
          count == 1
              ? executor(Map.class, (map, args) -> map.containsKey(Equality.canonical(args[0])))
              : null;
      default ->
          count == 1
              ? executor(Map.class, (map, args) -> indexOf(map.values(), args[0]) >= 0)
              : null;
    };
  }

  @FunctionalInterface
  private interface Body<T> {
    Object apply(T target, Object[] arguments);
  }

  private static <T> MethodExecutor executor(Class<T> type, Body<T> body) {
    return (EvaluationContext context, Object target, Object... arguments) -> {
      EvaluationBudget.current().checkDeadline();
      if (!type.isInstance(target)) {
        throw new ExpressionLimitException(
            "no such method on " + BoundedMethods.Rendering.kind(target));
      }
      return new TypedValue(body.apply(type.cast(target), arguments));
    };
  }

  private static Object get(Map<?, ?> map, Object key) {
    return map.get(Equality.canonical(key));
  }

  private static Object getOrDefault(Map<?, ?> map, Object key, Object fallback) {
    Object canonical = Equality.canonical(key);
    Object value = map.get(canonical);
    return value != null || map.containsKey(canonical) ? value : fallback;
  }

  /**
   * Whether {@code list} holds an element {@link Equality#same} as {@code wanted}. A set is a map's
   * {@code keySet()}: text keys, or an inline map's number keys in their canonical form, so the
   * canonical form of {@code wanted} is looked up at once (linear in a large map's keys, once per
   * row of a projection, it would be quadratic).
   */
  private static boolean contains(Collection<?> list, Object wanted) {
    if (list instanceof Set<?> keys) {
      return keys.contains(Equality.canonical(wanted));
    }
    return indexOf(list, wanted) >= 0;
  }

  /** The index of the first element {@link Equality#same} as {@code wanted}, or -1. */
  private static int indexOf(Collection<?> list, Object wanted) {
    EvaluationBudget budget = EvaluationBudget.current();
    int i = 0;
    for (Object element : list) {
      budget.tick();
      if (Equality.same(element, wanted)) {
        return i;
      }
      i++;
    }
    return -1;
  }

  /** {@code Collection.containsAll} by hashing as {@link Equality} compares: linear time. */
  private static boolean containsAll(Collection<?> list, Object other) {
    if (!(other instanceof Collection<?> wanted)) {
      throw new ExpressionLimitException(
          "containsAll: expected a list argument, got " + BoundedMethods.Rendering.kind(other));
    }
    if (wanted.size() <= 1) {
      for (Object element : wanted) {
        return indexOf(list, element) >= 0;
      }
      return true;
    }
    Set<Object> lookup = new HashSet<>();
    for (Object element : list) {
      lookup.add(Equality.key(element));
    }
    for (Object element : wanted) {
      if (!lookup.contains(Equality.key(element))) {
        return false;
      }
    }
    return true;
  }
}
