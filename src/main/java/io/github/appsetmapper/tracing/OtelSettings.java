package io.github.appsetmapper.tracing;

import io.github.appsetmapper.secret.Redactor;
import io.github.appsetmapper.text.Printable;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Map;

/**
 * The {@code OTEL_*} values the SDK would refuse vaguely ("Unexpected configuration error") or
 * accept and fail on later (a port above 65535), refused at start in one line naming the variable.
 */
final class OtelSettings {
  private static final List<String> PROTOCOLS =
      List.of("OTEL_EXPORTER_OTLP_PROTOCOL", "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL");
  private static final List<String> ENDPOINTS =
      List.of("OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT");

  private OtelSettings() {}

  static void check(Map<String, String> env, Redactor redactor) {
    for (String variable : PROTOCOLS) {
      String protocol = env.get(variable);
      if (protocol == null || protocol.trim().equals("http/protobuf")) {
        continue;
      }
      if (protocol.trim().equalsIgnoreCase("grpc")) {
        throw new IllegalArgumentException(
            "tracing: "
                + variable
                + "=grpc is not supported (no gRPC sender is shipped); use http/protobuf and the"
                + " collector's OTLP/HTTP port (4318)");
      }
      // The SDK's HTTP exporter has no JSON encoding: http/protobuf is the one protocol.
      throw new IllegalArgumentException(
          "tracing: "
              + variable
              + "="
              + shown(protocol, redactor)
              + " is not supported; use http/protobuf (the only OTLP protocol shipped) and the"
              + " collector's OTLP/HTTP port (4318)");
    }
    for (String variable : ENDPOINTS) {
      String endpoint = env.get(variable);
      if (endpoint != null && !endpoint.isBlank()) {
        checkEndpoint(variable, endpoint, redactor);
      }
    }
  }

  private static void checkEndpoint(String variable, String endpoint, Redactor redactor) {
    String problem;
    try {
      URI uri = new URI(endpoint.trim());
      String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase();
      if (!scheme.equals("http") && !scheme.equals("https")) {
        problem = "is not an http:// or https:// URL";
      } else if (uri.getHost() == null) {
        problem = "has no host";
      } else if (uri.getPort() > 65535) {
        problem = "has a port above 65535";
      } else {
        return;
      }
    } catch (URISyntaxException e) {
      problem = "is not a URL (" + e.getReason() + " at index " + e.getIndex() + ")";
    }
    throw new IllegalArgumentException(
        "tracing: " + variable + "=" + shown(endpoint, redactor) + " " + problem);
  }

  private static String shown(String value, Redactor redactor) {
    return Printable.escape(redactor.redact(value.trim()));
  }
}
