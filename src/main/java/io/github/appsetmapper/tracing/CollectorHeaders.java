package io.github.appsetmapper.tracing;

import io.github.appsetmapper.secret.Redactor;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * The collector's credentials ({@code OTEL_EXPORTER_OTLP_HEADERS}, {@code
 * OTEL_EXPORTER_OTLP_TRACES_HEADERS}: {@code Authorization=Bearer X,x-api-key=Y}): every header
 * value is scrubbed by every redactor of the process, so that a collector quoting one back (a 401
 * body the SDK logs) never prints it.
 */
final class CollectorHeaders {
  static final List<String> VARIABLES =
      List.of("OTEL_EXPORTER_OTLP_HEADERS", "OTEL_EXPORTER_OTLP_TRACES_HEADERS");

  private CollectorHeaders() {}

  static void hold(Map<String, String> env) {
    for (String variable : VARIABLES) {
      String list = env.get(variable);
      if (list == null) {
        continue;
      }
      for (String pair : list.split(",")) {
        int equals = pair.indexOf('=');
        if (equals < 0) {
          continue;
        }
        String value = pair.substring(equals + 1).trim();
        holdValue(value);
        try {
          // The specification's values are percent-encoded (W3C baggage).
          holdValue(URLDecoder.decode(value, StandardCharsets.UTF_8));
        } catch (IllegalArgumentException e) {
          // Not percent-encoded: held as it is.
        }
      }
    }
  }

  /** The whole value, and the credential after a scheme ({@code Bearer X}: {@code X}). */
  private static void holdValue(String value) {
    Redactor.holdForTheProcess(value);
    int space = value.indexOf(' ');
    if (space > 0) {
      Redactor.holdForTheProcess(value.substring(space + 1).trim());
    }
  }
}
