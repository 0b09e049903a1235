package io.github.appsetmapper.expr;

import com.google.re2j.Matcher;
import com.google.re2j.Pattern;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.springframework.core.convert.TypeDescriptor;
import org.springframework.expression.EvaluationContext;
import org.springframework.expression.MethodExecutor;
import org.springframework.expression.TypedValue;

/**
 * The allowlisted methods that take a regex or can grow a string, in place of the JDK's: the regex
 * ones ({@code matches}, {@code replaceAll}, {@code replaceFirst}, {@code split}) run on RE2/J, and
 * whatever builds a string ({@code replace}, {@code concat}, case changes, a collection's or map's
 * {@code toString}) is refused before it would pass {@link EvaluationBudget#MAX_STRING_CHARS}. Nine
 * chained {@code replace} calls then fail the row cleanly instead of filling the heap.
 */
final class BoundedMethods {
  private static final Set<String> STRING_METHODS =
      Set.of(
          "matches",
          "replaceAll",
          "replaceFirst",
          "split",
          "replace",
          "concat",
          "toLowerCase",
          "toUpperCase");

  private BoundedMethods() {}

  /** Whether the method is ours for this receiver: then the JDK's is never resolved. */
  static boolean handles(Object target, String name) {
    if (target instanceof CharSequence) {
      return STRING_METHODS.contains(name);
    }
    return (target instanceof Collection || target instanceof Map) && name.equals("toString");
  }

  /** The executor, or null when the arguments do not fit (SpEL then says no such method). */
  static MethodExecutor resolve(Object target, String name, List<TypeDescriptor> arguments) {
    int count = arguments.size();
    if (!(target instanceof CharSequence)) {
      return count == 0 ? executor(Object.class, (text, args) -> Rendering.text(text)) : null;
    }
    return switch (name) {
      case "matches" -> count == 1 ? string((text, args) -> matches(text, args[0])) : null;
      case "replaceAll" ->
          count == 2 ? string((text, args) -> replace(text, args[0], args[1], true)) : null;
      case "replaceFirst" ->
          count == 2 ? string((text, args) -> replace(text, args[0], args[1], false)) : null;
      case "split" ->
          count == 1 || count == 2
              ? string((text, args) -> split(text, args[0], count == 2 ? args[1] : 0))
              : null;
      case "replace" -> count == 2 ? string((text, args) -> literal(text, args[0], args[1])) : null;
      case "concat" -> count == 1 ? string((text, args) -> concat(text, args[0])) : null;
      case "toLowerCase" ->
          count == 0
              ? string((text, args) -> built(text.toLowerCase(Locale.ROOT), "toLowerCase"))
              : null;
      case "toUpperCase" ->
          count == 0
              ? string((text, args) -> built(text.toUpperCase(Locale.ROOT), "toUpperCase"))
              : null;
      default -> null;
    };
  }

  @FunctionalInterface
  private interface Body<T> {
    Object apply(T target, Object[] arguments);
  }

  private static MethodExecutor string(Body<String> body) {
    return executor(CharSequence.class, (target, args) -> body.apply(target.toString(), args));
  }

  private static <T> MethodExecutor executor(Class<T> type, Body<T> body) {
    return (EvaluationContext context, Object target, Object... arguments) -> {
      if (!type.isInstance(target)) {
        throw new ExpressionLimitException("no such method on " + Rendering.kind(target));
      }
      return new TypedValue(body.apply(type.cast(target), arguments));
    };
  }

  private static String argument(Object value, String method) {
    if (value == null) {
      throw new ExpressionLimitException(method + ": an argument is null");
    }
    if (value instanceof CharSequence || value instanceof Character) {
      return value.toString();
    }
    throw new ExpressionLimitException(
        method + ": expected a string argument, got " + Rendering.kind(value));
  }

  private static Pattern pattern(Object regex, String method) {
    String text = argument(regex, method);
    try {
      return Regexes.compile(text);
    } catch (Regexes.InvalidPattern e) {
      throw new ExpressionLimitException(
          method + ": invalid pattern '" + text + "': " + e.getMessage());
    }
  }

  private static boolean matches(String text, Object regex) {
    return Regexes.matches(pattern(regex, "matches"), text);
  }

  private static String replace(String text, Object regex, Object replacement, boolean all) {
    String method = all ? "replaceAll" : "replaceFirst";
    Pattern pattern = pattern(regex, method);
    String with = argument(replacement, method);
    EvaluationBudget budget = EvaluationBudget.current();
    Matcher matcher = Regexes.matcher(pattern, text);
    StringBuilder out = new StringBuilder();
    while (matcher.find()) {
      try {
        matcher.appendReplacement(out, with);
      } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
        throw new ExpressionLimitException(method + ": invalid replacement '" + with + "'");
      }
      budget.reserve(out.length(), method);
      if (!all) {
        break;
      }
    }
    matcher.appendTail(out);
    return budget.built(out.toString(), method);
  }

  /** {@code String.split} as the JDK does it (trailing empty parts dropped for a limit of 0). */
  private static String[] split(String text, Object regex, Object limit) {
    if (!(limit instanceof Number number)) {
      throw new ExpressionLimitException("split: the limit must be a number");
    }
    int max = number.intValue();
    Matcher matcher = Regexes.matcher(pattern(regex, "split"), text);
    java.util.ArrayList<String> parts = new java.util.ArrayList<>();
    int index = 0;
    while (max <= 0 || parts.size() < max - 1) {
      if (!matcher.find()) {
        break;
      }
      if (index == 0 && matcher.start() == 0 && matcher.end() == 0) {
        continue; // no empty leading part for a zero-width match at the start
      }
      parts.add(text.substring(index, matcher.start()));
      index = matcher.end();
    }
    if (index == 0 && parts.isEmpty()) {
      return new String[] {text};
    }
    parts.add(text.substring(index));
    int size = parts.size();
    if (max == 0) {
      while (size > 0 && parts.get(size - 1).isEmpty()) {
        size--;
      }
    }
    return parts.subList(0, size).toArray(new String[0]);
  }

  /** {@code String.replace}: every occurrence, literally; the result's size is known first. */
  private static String literal(String text, Object target, Object replacement) {
    String from = argument(target, "replace");
    String to = argument(replacement, "replace");
    EvaluationBudget budget = EvaluationBudget.current();
    if (to.length() > from.length()) {
      long occurrences = 0;
      if (from.isEmpty()) {
        occurrences = text.length() + 1L;
      } else {
        for (int at = text.indexOf(from); at >= 0; at = text.indexOf(from, at + from.length())) {
          occurrences++;
          budget.tick();
        }
      }
      budget.reserve(text.length() + occurrences * (to.length() - from.length()), "replace");
    }
    return budget.built(text.replace(from, to), "replace");
  }

  private static String concat(String text, Object other) {
    String tail = argument(other, "concat");
    EvaluationBudget budget = EvaluationBudget.current();
    budget.reserve((long) text.length() + tail.length(), "concat");
    return budget.built(text.concat(tail), "concat");
  }

  private static String built(String text, String method) {
    return EvaluationBudget.current().built(text, method);
  }

  /** A collection's or map's {@code toString}, as the JDK writes it, within the budget. */
  static final class Rendering {
    private static final int MAX_DEPTH = 64;

    private Rendering() {}

    static String text(Object value) {
      EvaluationBudget budget = EvaluationBudget.current();
      StringBuilder out = new StringBuilder();
      append(out, value, 0, budget);
      return budget.built(out.toString(), "toString");
    }

    private static void append(
        StringBuilder out, Object value, int depth, EvaluationBudget budget) {
      budget.tick();
      budget.reserve(out.length(), "toString");
      if (depth > MAX_DEPTH) {
        throw new ExpressionLimitException("toString: nested deeper than " + MAX_DEPTH + " levels");
      }
      if (value instanceof Collection<?> collection) {
        out.append('[');
        Iterator<?> elements = collection.iterator();
        while (elements.hasNext()) {
          Object element = elements.next();
          if (element == collection) {
            out.append("(this Collection)");
          } else {
            append(out, element, depth + 1, budget);
          }
          if (elements.hasNext()) {
            out.append(", ");
          }
        }
        out.append(']');
      } else if (value instanceof Map<?, ?> map) {
        out.append('{');
        Iterator<? extends Map.Entry<?, ?>> entries = map.entrySet().iterator();
        while (entries.hasNext()) {
          Map.Entry<?, ?> entry = entries.next();
          append(out, entry.getKey(), depth + 1, budget);
          out.append('=');
          if (entry.getValue() == map) {
            out.append("(this Map)");
          } else {
            append(out, entry.getValue(), depth + 1, budget);
          }
          if (entries.hasNext()) {
            out.append(", ");
          }
        }
        out.append('}');
      } else {
        String text = String.valueOf(value);
        budget.reserve((long) out.length() + text.length(), "toString");
        out.append(text);
      }
    }

    static String kind(Object value) {
      if (value == null) {
        return "null";
      }
      if (value instanceof Map) {
        return "a map";
      }
      if (value instanceof Collection) {
        return "a list";
      }
      return value.getClass().getSimpleName();
    }
  }
}
