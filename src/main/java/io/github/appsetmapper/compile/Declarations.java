package io.github.appsetmapper.compile;

import io.github.appsetmapper.config.InputSpec;
import io.github.appsetmapper.config.MappingSpec;
import io.github.appsetmapper.config.Problems;
import io.github.appsetmapper.config.VarSpec;
import java.util.LinkedHashMap;
import java.util.Map;

/** A mapping's declarations compiled: its vars' values and its input rules. */
final class Declarations {
  private Declarations() {}

  static Map<String, String> vars(MappingSpec spec, CompileOptions options, Problems problems) {
    Map<String, String> out = new LinkedHashMap<>();
    for (VarSpec var : spec.vars().values()) {
      String value = options.vars().given(spec.name(), var, problems);
      if (value == null && var.env() != null) {
        value = options.environment().apply(var.env());
      }
      if (value == null) {
        value = var.defaultValue();
      }
      if (value == null) {
        problems.add(
            var.pos(),
            "var '"
                + var.name()
                + "' has no value: give it a default"
                + (var.env() == null ? "" : ", set $" + var.env())
                + " or pass --var "
                + var.name()
                + "=...");
      } else {
        out.put(var.name(), value);
      }
    }
    return out;
  }

  static Map<String, InputRule> inputs(MappingSpec spec, Problems problems) {
    Map<String, InputRule> out = new LinkedHashMap<>();
    for (InputSpec input : spec.input().values()) {
      com.google.re2j.Pattern pattern = null;
      if (input.pattern() != null) {
        try {
          pattern = io.github.appsetmapper.expr.Regexes.compile(input.pattern().text());
        } catch (io.github.appsetmapper.expr.Regexes.InvalidPattern e) {
          problems.add(input.pattern().pos(), "invalid pattern: " + e.getMessage());
        }
      }
      if (input.required() && input.defaultValue() != null) {
        problems.add(input.pos(), "an input with a default cannot be required");
      }
      String kind = defaultKind(input);
      if (kind != null) {
        problems.add(
            input.pos(),
            "default '"
                + input.defaultValue()
                + "' is not "
                + kind
                + ", as 'type: "
                + input.type().name().toLowerCase(java.util.Locale.ROOT)
                + "' says: a getparams without this input would read it as it is");
      }
      out.put(
          input.name(),
          new InputRule(
              input.name(),
              input.type(),
              input.required(),
              input.defaultValue(),
              pattern,
              input.enumValues(),
              input.description()));
    }
    return out;
  }

  /** What a default of the input's declared type must be, where it is not; null when it is. */
  private static String defaultKind(InputSpec input) {
    Object value = input.defaultValue();
    if (value == null || input.type() == null) {
      return null;
    }
    return switch (input.type()) {
      case BOOLEAN -> value instanceof Boolean ? null : "true or false";
      case NUMBER -> value instanceof Number ? null : "a number";
      case LIST -> value instanceof java.util.List<?> ? null : "a list";
      case MAP -> value instanceof java.util.Map<?, ?> ? null : "a map";
      default -> null;
    };
  }
}
