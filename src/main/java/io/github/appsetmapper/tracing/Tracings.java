package io.github.appsetmapper.tracing;

import io.github.appsetmapper.engine.GetparamsTracing;
import io.github.appsetmapper.metrics.Metrics;
import io.github.appsetmapper.secret.Redactor;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Whether to trace, from the standard {@code OTEL_*} variables. With none set (or {@code
 * OTEL_SDK_DISABLED=true}, or {@code OTEL_TRACES_EXPORTER=none}) tracing is {@link
 * GetparamsTracing#OFF} and no OpenTelemetry class is loaded: start-up pays nothing for it.
 */
public final class Tracings {
  private Tracings() {}

  /** Whether {@code env} asks for traces. */
  public static boolean wanted(Map<String, String> env) {
    if ("true".equalsIgnoreCase(trimmed(env.get("OTEL_SDK_DISABLED")))
        || "none".equalsIgnoreCase(trimmed(env.get("OTEL_TRACES_EXPORTER")))) {
      return false;
    }
    for (Map.Entry<String, String> e : env.entrySet()) {
      if (e.getKey().startsWith("OTEL_") && !trimmed(e.getValue()).isEmpty()) {
        return true;
      }
    }
    return false;
  }

  /**
   * Tracing as {@code env} configures it; every attribute value passes {@code redactor}, spans
   * dropped are counted in {@code metrics}.
   *
   * @throws IllegalArgumentException naming the variable, when the configuration is wrong
   */
  public static GetparamsTracing fromEnvironment(
      Map<String, String> env, Redactor redactor, Supplier<Metrics> metrics) {
    if (!wanted(env)) {
      return GetparamsTracing.OFF;
    }
    // Only here are OpenTelemetry's classes loaded.
    return OtelTracing.start(env, redactor, metrics);
  }

  /**
   * {@code OTEL_EXPORTER_OTLP_ENDPOINT} as the SDK's property {@code otel.exporter.otlp.endpoint}.
   */
  static String property(String variable) {
    return variable.toLowerCase(Locale.ROOT).replace('_', '.');
  }

  private static String trimmed(String value) {
    return value == null ? "" : value.trim();
  }
}
