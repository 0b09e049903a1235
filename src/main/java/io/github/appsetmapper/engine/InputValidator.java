package io.github.appsetmapper.engine;

import io.github.appsetmapper.compile.CompiledMapping;
import io.github.appsetmapper.compile.InputRule;
import io.github.appsetmapper.config.InputSpec.InputType;
import io.github.appsetmapper.json.Numbers;
import io.github.appsetmapper.upstream.call.RequestFailure;
import java.math.BigDecimal;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Checks a request's {@code input.parameters} against the declared inputs: undeclared keys, missing
 * required ones, types, patterns (whole-value match, RE2: linear in the value) and enums. Numbers
 * and booleans are also accepted as strings, since Argo CD's templates produce strings.
 */
final class InputValidator {
  private InputValidator() {}

  static Map<String, Object> validate(CompiledMapping mapping, Map<String, Object> raw)
      throws RequestFailure {
    Map<String, Object> out = new LinkedHashMap<>();
    for (String key : raw.keySet()) {
      if (!mapping.inputs().containsKey(key)) {
        if (!mapping.inputAdditional()) {
          throw RequestFailure.input(
              "input '"
                  + key
                  + "' is not declared by mapping '"
                  + mapping.name()
                  + "'"
                  + (mapping.inputs().isEmpty()
                      ? " (it takes no input)"
                      : "; declared: " + String.join(", ", mapping.inputs().keySet())));
        }
        out.put(key, raw.get(key));
      }
    }
    for (InputRule rule : mapping.inputs().values()) {
      Object value = raw.get(rule.name());
      if (value == null) {
        if (rule.required()) {
          throw RequestFailure.input("input '" + rule.name() + "' is required");
        }
        out.put(rule.name(), rule.defaultValue());
        continue;
      }
      out.put(rule.name(), check(rule, value));
    }
    return Collections.unmodifiableMap(out);
  }

  /** Pattern and enum apply to the value, or to each element of a list input. */
  private static Object check(InputRule rule, Object value) throws RequestFailure {
    Object typed = typed(rule, value);
    if (typed instanceof List<?> list && rule.type() == InputType.LIST) {
      for (int i = 0; i < list.size(); i++) {
        checkScalar(rule, list.get(i), rule.name() + "[" + i + "]");
      }
    } else {
      checkScalar(rule, typed, rule.name());
    }
    return typed;
  }

  private static void checkScalar(InputRule rule, Object value, String name) throws RequestFailure {
    if (rule.pattern() == null && rule.enumValues().isEmpty()) {
      return;
    }
    if (value instanceof Map || value instanceof List || value == null) {
      throw RequestFailure.input("input '" + name + "' must be a plain value");
    }
    String text = io.github.appsetmapper.expr.Values.text(value);
    if (rule.pattern() != null
        && !io.github.appsetmapper.expr.Regexes.matches(rule.pattern(), text)) {
      throw RequestFailure.input(
          "input '" + name + "' does not match the pattern " + rule.pattern().pattern());
    }
    if (!rule.enumValues().isEmpty() && !rule.enumValues().contains(text)) {
      throw RequestFailure.input(
          "input '" + name + "' must be one of " + String.join(", ", rule.enumValues()));
    }
  }

  private static Object typed(InputRule rule, Object value) throws RequestFailure {
    switch (rule.type()) {
      case STRING -> {
        if (value instanceof String) {
          return value;
        }
        if (value instanceof Number || value instanceof Boolean) {
          return value instanceof Number n
              ? Numbers.plain(new BigDecimal(n.toString()))
              : value.toString();
        }
        throw wrongType(rule, "a string");
      }
      case NUMBER -> {
        if (value instanceof Number n) {
          return new BigDecimal(n.toString());
        }
        if (value instanceof String s) {
          try {
            return Numbers.decimal(s);
          } catch (Numbers.Refused e) {
            if (e.outOfBounds()) {
              throw RequestFailure.input(
                  "input '"
                      + rule.name()
                      + "' is a number beyond the bounds ("
                      + Numbers.BOUNDS
                      + ")");
            }
            throw wrongType(rule, "a number");
          }
        }
        throw wrongType(rule, "a number");
      }
      case BOOLEAN -> {
        if (value instanceof Boolean) {
          return value;
        }
        if ("true".equals(value) || "false".equals(value)) {
          return Boolean.valueOf((String) value);
        }
        throw wrongType(rule, "true or false");
      }
      case LIST -> {
        if (value instanceof List) {
          return value;
        }
        throw wrongType(rule, "a list");
      }
      case MAP -> {
        if (value instanceof Map) {
          return value;
        }
        throw wrongType(rule, "a map");
      }
      default -> {
        return value;
      }
    }
  }

  private static RequestFailure wrongType(InputRule rule, String expected) {
    return RequestFailure.input("input '" + rule.name() + "' must be " + expected);
  }
}
