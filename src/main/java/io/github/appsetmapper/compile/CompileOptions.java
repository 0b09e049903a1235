package io.github.appsetmapper.compile;

import io.github.appsetmapper.secret.Redactor;
import java.util.Map;
import java.util.function.Function;

/**
 * What compiling needs from outside the file: {@code --var} values, the environment, the redactor.
 */
public record CompileOptions(
    Map<String, String> varOverrides, Function<String, String> environment, Redactor redactor) {

  public static CompileOptions of(Map<String, String> varOverrides, Redactor redactor) {
    return new CompileOptions(Map.copyOf(varOverrides), System::getenv, redactor);
  }
}
