package io.github.appsetmapper.tracing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.appsetmapper.engine.GetparamsTracing;
import io.github.appsetmapper.metrics.Metrics;
import io.github.appsetmapper.secret.Redactor;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** When tracing is on, from the OTEL_* variables alone; what it refuses, in one line. */
class TracingsTest {
  @Test
  void offUnlessAnOtelVariableAsksForTraces() {
    assertThat(Tracings.fromEnvironment(Map.of(), new Redactor(), Metrics::new))
        .isSameAs(GetparamsTracing.OFF);
    assertThat(Tracings.wanted(Map.of("PATH", "/usr/bin", "OTEL_SERVICE_NAME", " "))).isFalse();
    assertThat(Tracings.wanted(Map.of("OTEL_SERVICE_NAME", "x", "OTEL_SDK_DISABLED", "true")))
        .isFalse();
    assertThat(Tracings.wanted(Map.of("OTEL_SERVICE_NAME", "x", "OTEL_TRACES_EXPORTER", "none")))
        .isFalse();
    assertThat(Tracings.wanted(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318")))
        .isTrue();
  }

  @Test
  void grpcIsRefusedNamingTheVariableAndWhatToUse() {
    assertThatThrownBy(
            () ->
                Tracings.fromEnvironment(
                    Map.of("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc"), new Redactor(), Metrics::new))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("OTEL_EXPORTER_OTLP_PROTOCOL=grpc")
        .hasMessageContaining("http/protobuf");
  }

  @Test
  void aWrongValueIsOneLineNamingIt() {
    assertThatThrownBy(
            () ->
                Tracings.fromEnvironment(
                    Map.of("OTEL_TRACES_SAMPLER", "sometimes"), new Redactor(), Metrics::new))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("tracing (OTEL_* variables): ")
        .hasMessageContaining("sometimes");
  }

  @Test
  void httpJsonIsRefusedInOneLineNamingTheVariableAndWhatToUse() {
    for (String variable :
        java.util.List.of("OTEL_EXPORTER_OTLP_PROTOCOL", "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL")) {
      assertThatThrownBy(
              () ->
                  Tracings.fromEnvironment(
                      Map.of(variable, "http/json"), new Redactor(), Metrics::new))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage(
              "tracing: "
                  + variable
                  + "=http/json is not supported; use http/protobuf (the only OTLP protocol"
                  + " shipped) and the collector's OTLP/HTTP port (4318)");
    }
  }

  @Test
  void aBadEndpointIsRefusedNamingTheVariable() {
    assertThatThrownBy(
            () ->
                Tracings.fromEnvironment(
                    Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:99999"),
                    new Redactor(),
                    Metrics::new))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "tracing: OTEL_EXPORTER_OTLP_ENDPOINT=http://collector:99999 has a port above 65535");
    assertThatThrownBy(
            () ->
                Tracings.fromEnvironment(
                    Map.of("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "http://coll ector:4318"),
                    new Redactor(),
                    Metrics::new))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(
            "tracing: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=http://coll ector:4318 is not a URL");
  }
}
