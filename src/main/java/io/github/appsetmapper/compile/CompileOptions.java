package io.github.appsetmapper.compile;

import io.github.appsetmapper.secret.Redactor;
import java.util.Map;
import java.util.function.Function;

/**
 * What compiling needs from outside the file: {@code --var} values, the environment, the redactor,
 * and secret values that replace a mapping's sources (only mapping tests give these).
 */
public record CompileOptions(
    VarValues vars,
    Function<String, String> environment,
    Redactor redactor,
    Map<String, String> secretValues) {

  /** With {@code --var} entries as given ({@code NAME} or {@code MAPPING.NAME} keys). */
  public CompileOptions(
      Map<String, String> varOverrides,
      Function<String, String> environment,
      Redactor redactor,
      Map<String, String> secretValues) {
    this(VarValues.parse(varOverrides), environment, redactor, secretValues);
  }

  public CompileOptions(
      Map<String, String> varOverrides, Function<String, String> environment, Redactor redactor) {
    this(varOverrides, environment, redactor, Map.of());
  }

  public static CompileOptions of(Map<String, String> varOverrides, Redactor redactor) {
    return new CompileOptions(Map.copyOf(varOverrides), System::getenv, redactor);
  }

  public CompileOptions withVars(VarValues bound) {
    return new CompileOptions(bound, environment, redactor, secretValues);
  }
}
