package io.github.appsetmapper.testing;

import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * A real OTLP/HTTP receiver on loopback: {@code POST /v1/traces} with a protobuf body, decoded with
 * {@code opentelemetry-proto} as a collector would. Keeps every span it was sent; {@link #refusing}
 * makes it answer 503 (a collector that is down).
 */
public final class OtlpReceiver implements AutoCloseable {
  /** One received span, its ids in hex and its attributes as strings. */
  public record Received(
      String traceId,
      String spanId,
      String parentSpanId,
      String name,
      Span.SpanKind kind,
      Map<String, String> attributes,
      String statusMessage,
      boolean error,
      Map<String, String> resource) {
    public String attribute(String key) {
      return attributes.get(key);
    }
  }

  private final HttpServer server;
  private final List<Received> spans = new ArrayList<>();
  private final AtomicInteger posts = new AtomicInteger();
  private volatile boolean refusing;

  public OtlpReceiver() {
    try {
      server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    server.createContext(
        "/v1/traces",
        exchange -> {
          posts.incrementAndGet();
          try (InputStream in = exchange.getRequestBody()) {
            byte[] body = in.readAllBytes();
            if (refusing) {
              exchange.sendResponseHeaders(503, -1);
              return;
            }
            keep(ExportTraceServiceRequest.parseFrom(body));
            byte[] answer = ExportTraceServiceResponse.getDefaultInstance().toByteArray();
            exchange.getResponseHeaders().set("Content-Type", "application/x-protobuf");
            exchange.sendResponseHeaders(200, answer.length);
            exchange.getResponseBody().write(answer);
          } finally {
            exchange.close();
          }
        });
    server.start();
  }

  /** The endpoint for {@code OTEL_EXPORTER_OTLP_ENDPOINT}. */
  public String endpoint() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  public void refusing(boolean value) {
    this.refusing = value;
  }

  /** Export requests received (answered or refused). */
  public int posts() {
    return posts.get();
  }

  private synchronized void keep(ExportTraceServiceRequest request) {
    HexFormat hex = HexFormat.of();
    for (ResourceSpans resourceSpans : request.getResourceSpansList()) {
      Map<String, String> resource = attributes(resourceSpans.getResource());
      for (ScopeSpans scope : resourceSpans.getScopeSpansList()) {
        for (Span span : scope.getSpansList()) {
          spans.add(
              new Received(
                  hex.formatHex(span.getTraceId().toByteArray()),
                  hex.formatHex(span.getSpanId().toByteArray()),
                  hex.formatHex(span.getParentSpanId().toByteArray()),
                  span.getName(),
                  span.getKind(),
                  attributes(span.getAttributesList()),
                  span.getStatus().getMessage(),
                  span.getStatus().getCode()
                      == io.opentelemetry.proto.trace.v1.Status.StatusCode.STATUS_CODE_ERROR,
                  resource));
        }
      }
    }
    notifyAll();
  }

  private static Map<String, String> attributes(Resource resource) {
    return attributes(resource.getAttributesList());
  }

  private static Map<String, String> attributes(List<KeyValue> values) {
    Map<String, String> out = new LinkedHashMap<>();
    for (KeyValue kv : values) {
      out.put(kv.getKey(), text(kv.getValue()));
    }
    return out;
  }

  private static String text(AnyValue value) {
    return switch (value.getValueCase()) {
      case STRING_VALUE -> value.getStringValue();
      case INT_VALUE -> String.valueOf(value.getIntValue());
      case BOOL_VALUE -> String.valueOf(value.getBoolValue());
      case DOUBLE_VALUE -> String.valueOf(value.getDoubleValue());
      default -> value.toString();
    };
  }

  public synchronized List<Received> spans() {
    return List.copyOf(spans);
  }

  /**
   * Waits (up to {@code within}) until a span matching {@code wanted} arrived, then returns all
   * spans of its trace; fails when none did.
   */
  public synchronized List<Received> awaitTrace(Predicate<Received> wanted, Duration within)
      throws InterruptedException {
    long end = System.nanoTime() + within.toNanos();
    while (true) {
      for (Received span : spans) {
        if (wanted.test(span)) {
          return spans.stream().filter(s -> s.traceId().equals(span.traceId())).toList();
        }
      }
      long left = end - System.nanoTime();
      if (left <= 0) {
        throw new AssertionError("no such span within " + within + "; received " + spans);
      }
      wait(Math.max(1, Math.min(left / 1_000_000, 200)));
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
