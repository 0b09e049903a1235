package io.github.appsetmapper.tracing;

import io.github.appsetmapper.engine.GetparamsTracing;
import io.github.appsetmapper.metrics.Metrics;
import io.github.appsetmapper.secret.Redactor;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapPropagator;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.autoconfigure.AutoConfiguredOpenTelemetrySdk;
import io.opentelemetry.sdk.common.CompletableResultCode;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * The OpenTelemetry SDK, configured by autoconfigure from the {@code OTEL_*} variables (exporter,
 * endpoint, protocol, service name, sampler, resource attributes), with only traces exported (the
 * metrics are Prometheus'). Spans leave through a bounded queue on a thread of the SDK's: a full
 * queue or a collector that is down drops spans and counts them, never slowing a getparams.
 */
final class OtelTracing implements GetparamsTracing {
  static final String SCOPE = "io.github.appsetmapper";

  private static final TextMapGetter<UnaryOperator<String>> HEADERS =
      new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(UnaryOperator<String> carrier) {
          return List.of("traceparent");
        }

        /**
         * The caller's traceparent only: its tracestate is caller text that would be forwarded
         * verbatim to every upstream (third parties, a login endpoint) and kept in the spans.
         */
        @Override
        public String get(UnaryOperator<String> carrier, String key) {
          return carrier == null || !"traceparent".equals(key) ? null : carrier.apply(key);
        }
      };

  private final OpenTelemetrySdk sdk;
  private final Tracer tracer;
  private final SpanValues values;

  private OtelTracing(OpenTelemetrySdk sdk, Redactor redactor) {
    this.sdk = sdk;
    this.tracer = sdk.getTracer(SCOPE);
    this.values = new SpanValues(redactor);
  }

  static OtelTracing start(Map<String, String> env, Redactor redactor, Supplier<Metrics> metrics) {
    Map<String, String> given = new HashMap<>();
    env.forEach(
        (name, value) -> {
          if (name.startsWith("OTEL_") && value != null) {
            given.put(Tracings.property(name), value);
          }
        });
    // OTLP over HTTP/protobuf (the specification's default; the Java SDK's own is gRPC): the
    // JDK's HttpClient sends it. gRPC needs a gRPC sender, which is not shipped: refused below.
    Map<String, String> defaults =
        Map.of(
            "otel.service.name", "appset-mapper",
            "otel.exporter.otlp.protocol", "http/protobuf",
            "otel.metrics.exporter", "none",
            "otel.logs.exporter", "none");
    CollectorHeaders.hold(env);
    OtelSettings.check(env, redactor);
    SdkLogging.route(redactor);
    Backlog backlog = new Backlog(metrics);
    try {
      OpenTelemetrySdk sdk =
          AutoConfiguredOpenTelemetrySdk.builder()
              .addPropertiesSupplier(() -> defaults)
              .addPropertiesCustomizer(config -> given)
              .addSpanExporterCustomizer(
                  (exporter, config) -> new CountingExporter(exporter, backlog))
              .addSpanProcessorCustomizer(
                  (processor, config) ->
                      new BoundedProcessor(
                          processor, config.getInt("otel.bsp.max.queue.size", 2048), backlog))
              .disableShutdownHook()
              .build()
              .getOpenTelemetrySdk();
      return new OtelTracing(sdk, redactor);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(
          "tracing (OTEL_* variables): " + redactor.redact(String.valueOf(e.getMessage())), e);
    }
  }

  /** Only the W3C trace context: a caller's baggage is never passed on to an upstream. */
  static TextMapPropagator propagator() {
    return W3CTraceContextPropagator.getInstance();
  }

  @Override
  public Traced start(String route, UnaryOperator<String> headers) {
    Context parent = propagator().extract(Context.root(), headers, HEADERS);
    var span =
        tracer
            .spanBuilder("POST " + route)
            .setSpanKind(SpanKind.SERVER)
            .setParent(parent)
            .setAttribute("http.request.method", "POST")
            .setAttribute("http.route", values.of(route))
            .startSpan();
    return new GetparamsSpan(tracer, span, values);
  }

  @Override
  public void close() {
    CompletableResultCode done = sdk.shutdown();
    done.join(5, TimeUnit.SECONDS);
  }
}
