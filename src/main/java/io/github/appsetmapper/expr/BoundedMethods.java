package io.github.appsetmapper.expr;

import com.google.re2j.Matcher;
import com.google.re2j.Pattern;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
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
 * chained {@code replace} calls then fail the row cleanly instead of filling the heap. Those whose
 * JDK version takes quadratic time run in linear time here: a string's {@code contains}, {@code
 * indexOf}, {@code lastIndexOf} and {@code replace} ({@link TextSearch}); a collection's {@code
 * containsAll} hashes in {@link ValueMethods}.
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
          "toUpperCase",
          "contains",
          "indexOf",
          "lastIndexOf");

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
      case "contains" ->
          count == 1
              ? string((text, args) -> TextSearch.indexOf(text, argument(args[0], name), 0) >= 0)
              : null;
      case "indexOf" ->
          count == 1 || count == 2 ? string((text, args) -> indexOf(text, args, false)) : null;
      case "lastIndexOf" ->
          count == 1 || count == 2 ? string((text, args) -> indexOf(text, args, true)) : null;
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
          count == 0 ? string((text, args) -> built(CaseChange.lower(text), "toLowerCase")) : null;
      case "toUpperCase" ->
          count == 0 ? string((text, args) -> built(CaseChange.upper(text), "toUpperCase")) : null;
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
      EvaluationBudget.current().checkDeadline();
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

  /**
   * {@code String.split} as the JDK does it (trailing empty parts dropped for a limit of 0), as a
   * list: what every other step reads as a JSON list ({@code size()}, {@code contains}, a
   * distinctBy key by value). The JDK's array had none of these.
   */
  private static List<String> split(String text, Object regex, Object limit) {
    if (!(limit instanceof Number number)) {
      throw new ExpressionLimitException("split: the limit must be a number");
    }
    int max = NumberArguments.toInt(number);
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
      return List.of(text);
    }
    parts.add(text.substring(index));
    int size = parts.size();
    if (max == 0) {
      while (size > 0 && parts.get(size - 1).isEmpty()) {
        size--;
      }
    }
    List<String> result = List.copyOf(parts.subList(0, size));
    // The parts are new strings: counted with their objects (EvaluationBudget.builtObjects), so a
    // split into half a million parts is held against the memory budget for what it keeps.
    EvaluationBudget.current().charge(result, "split");
    return result;
  }

  /**
   * {@code String.replace}: every occurrence, literally, found in linear time (the JDK's search is
   * quadratic in the worst case); the result's size is known before it is built.
   */
  private static String literal(String text, Object target, Object replacement) {
    String from = argument(target, "replace");
    String to = argument(replacement, "replace");
    EvaluationBudget budget = EvaluationBudget.current();
    if (from.isEmpty()) {
      budget.reserve(text.length() + (text.length() + 1L) * to.length(), "replace");
      return budget.built(text.replace(from, to), "replace");
    }
    List<Integer> at = new java.util.ArrayList<>();
    for (int i = TextSearch.indexOf(text, from, 0);
        i >= 0;
        i = TextSearch.indexOf(text, from, i + from.length())) {
      at.add(i);
    }
    if (at.isEmpty()) {
      return text;
    }
    budget.reserve(text.length() + (long) at.size() * (to.length() - from.length()), "replace");
    StringBuilder out = new StringBuilder();
    int copied = 0;
    for (int i : at) {
      out.append(text, copied, i).append(to);
      copied = i + from.length();
    }
    return budget.built(out.append(text, copied, text.length()).toString(), "replace");
  }

  /**
   * {@code indexOf}/{@code lastIndexOf} of a string (linear) or of a character code (the JDK's).
   */
  private static int indexOf(String text, Object[] args, boolean last) {
    String method = last ? "lastIndexOf" : "indexOf";
    int from = last ? Integer.MAX_VALUE : 0;
    if (args.length == 2) {
      if (!(args[1] instanceof Number number)) {
        throw new ExpressionLimitException(method + ": the start must be a number");
      }
      from = NumberArguments.toInt(number);
    }
    if (args[0] instanceof Number number) {
      int code = NumberArguments.toInt(number);
      return last ? text.lastIndexOf(code, from) : text.indexOf(code, from);
    }
    String pattern = argument(args[0], method);
    return last
        ? TextSearch.lastIndexOf(text, pattern, from)
        : TextSearch.indexOf(text, pattern, from);
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
