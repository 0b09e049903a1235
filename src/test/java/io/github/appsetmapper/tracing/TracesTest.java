package io.github.appsetmapper.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.testing.LogCapture;
import io.github.appsetmapper.testing.OtlpReceiver;
import io.github.appsetmapper.testing.OtlpReceiver.Received;
import io.github.appsetmapper.testing.StubUpstream;
import io.github.appsetmapper.testing.StubUpstream.Reply;
import io.github.appsetmapper.testing.TracedServer;
import io.opentelemetry.proto.trace.v1.Span.SpanKind;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Traces end to end: a real server exporting OTLP/HTTP protobuf to a real receiver, a stub upstream
 * that records the {@code traceparent} it was sent. Checks one getparams' spans, their parent/child
 * links, the context the upstream received, and that no secret is in any attribute.
 */
class TracesTest {
  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final String CLIENT_SECRET = "s3cr3t-client-7d1e";
  private static final String TOKEN = "tok-live-9c2b";
  private static final String INCOMING_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
  private static final String INCOMING_SPAN = "00f067aa0ba902b7";

  private static final String YAML =
      """
      name: inv
      vars: {up: {default: "http://unset.invalid"}}
      secrets: {client: {env: CLIENT_SECRET}}
      input: {org: {required: true}}
      defaults:
        auth:
          oauth2:
            tokenUrl: "#{vars.up}/oauth/token"
            clientId: appset-mapper
            clientSecret: {secret: client}
      list:
        request: {url: "#{vars.up}/orgs/#{input.org}/items"}
        items: "$[*]"
      enrich:
        detail:
          request: {url: "#{vars.up}/items/#{item.id}"}
          select: "$.name"
      parameters: {id: item.id, name: detail}
      """;

  @TempDir Path dir;

  private static Map<String, String> otel(OtlpReceiver receiver) {
    return Map.of(
        "OTEL_EXPORTER_OTLP_ENDPOINT", receiver.endpoint(),
        "OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf",
        "OTEL_SERVICE_NAME", "appset-mapper-test",
        "OTEL_BSP_SCHEDULE_DELAY", "20",
        "OTEL_RESOURCE_ATTRIBUTES", "deployment.environment=test");
  }

  private static void upstream(StubUpstream stub, int itemsStatus) {
    stub.on(
        "POST /oauth/token",
        Reply.json(200, "{\"access_token\":\"" + TOKEN + "\",\"expires_in\":3600}"));
    stub.on(
        "GET /orgs/acme-platform/items",
        itemsStatus == 200
            ? Reply.json(200, "[{\"id\":1},{\"id\":2}]")
            // An upstream that echoes the credential it was given: the error line quotes it.
            : Reply.json(itemsStatus, "{\"message\":\"denied for " + CLIENT_SECRET + "\"}"));
    stub.otherwise(
        r -> Reply.json(200, "{\"name\":\"n" + r.rawUri().replaceAll("\\D", "") + "\"}"));
  }

  @Test
  void oneGetparamsIsOneTraceFromTheCallerThroughEveryUpstreamCall() throws Exception {
    try (OtlpReceiver receiver = new OtlpReceiver();
        StubUpstream stub = new StubUpstream();
        LogCapture logs = new LogCapture()) {
      upstream(stub, 200);
      List<Received> spans;
      try (TracedServer server =
          new TracedServer(
              dir,
              Map.of("up", stub.url()),
              Map.of("CLIENT_SECRET", CLIENT_SECRET),
              otel(receiver),
              YAML)) {
        HttpResponse<String> answer =
            server.getparams(
                "inv",
                "{\"applicationSetName\":\"team-a\",\"input\":{\"parameters\":{\"org\":\"acme-platform\"}}}",
                Map.of(
                    "traceparent", "00-" + INCOMING_TRACE + "-" + INCOMING_SPAN + "-01",
                    "tracestate", "vendor=abc",
                    "baggage", "user=someone"));
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        assertThat(answer.headers().firstValue("X-Trace-Id")).contains(INCOMING_TRACE);
        spans = receiver.awaitTrace(s -> s.kind() == SpanKind.SPAN_KIND_SERVER, WAIT);
      }

      // The server span: the caller's span its parent, the route (never the path) its name.
      Received server = only(spans, s -> s.kind() == SpanKind.SPAN_KIND_SERVER);
      assertThat(server.traceId()).isEqualTo(INCOMING_TRACE);
      assertThat(server.parentSpanId()).isEqualTo(INCOMING_SPAN);
      assertThat(server.name()).isEqualTo("POST /mappings/{mapping}/api/v1/getparams.execute");
      assertThat(server.attributes())
          .containsEntry("appset_mapper.mapping", "inv")
          .containsEntry("appset_mapper.application_set", "team-a")
          .containsEntry("http.response.status_code", "200")
          .containsEntry("appset_mapper.rows", "2");
      assertThat(server.resource())
          .containsEntry("service.name", "appset-mapper-test")
          .containsEntry("deployment.environment", "test");

      // The stages, children of the server span.
      Received list = only(spans, s -> s.name().equals("list"));
      Received enrich = only(spans, s -> s.name().equals("enrich.detail"));
      assertThat(list.parentSpanId()).isEqualTo(server.spanId());
      assertThat(enrich.parentSpanId()).isEqualTo(server.spanId());
      assertThat(list.attribute("appset_mapper.rows")).isEqualTo("2");

      // One client span per upstream call, under its stage, by the HTTP client conventions.
      List<Received> clients =
          spans.stream().filter(s -> s.kind() == SpanKind.SPAN_KIND_CLIENT).toList();
      Received listCall =
          only(
              clients,
              s ->
                  "list".equals(s.attribute("appset_mapper.step"))
                      && s.attribute("appset_mapper.call") == null);
      assertThat(listCall.parentSpanId()).isEqualTo(list.spanId());
      assertThat(listCall.name()).isEqualTo("GET #{vars.up}/orgs/#{input.org}/items");
      assertThat(listCall.attributes())
          .containsEntry("http.request.method", "GET")
          .containsEntry("url.template", "#{vars.up}/orgs/#{input.org}/items")
          .containsEntry("server.address", "127.0.0.1")
          .containsEntry("server.port", String.valueOf(stub.port()))
          .containsEntry("http.response.status_code", "200");
      assertThat(clients.stream().filter(s -> s.parentSpanId().equals(enrich.spanId())))
          .hasSize(2)
          .allSatisfy(
              s ->
                  assertThat(s.attribute("url.template")).isEqualTo("#{vars.up}/items/#{item.id}"));
      Received token = only(clients, s -> "token".equals(s.attribute("appset_mapper.call")));
      assertThat(token.attribute("http.request.method")).isEqualTo("POST");
      assertThat(token.attribute("http.response.status_code")).isEqualTo("200");

      // Each upstream call carried the trace: its traceparent names the call's own client span.
      Set<String> clientIds = clients.stream().map(Received::spanId).collect(Collectors.toSet());
      assertThat(stub.received()).hasSize(4);
      for (StubUpstream.Received call : stub.received()) {
        String traceparent = call.header("traceparent");
        assertThat(traceparent).as(call.rawUri()).startsWith("00-" + INCOMING_TRACE + "-");
        assertThat(clientIds).contains(traceparent.split("-")[2]);
        // The caller's tracestate is its own text: never forwarded to an upstream.
        assertThat(call.header("tracestate")).isNull();
        // Only the trace context: the caller's baggage is not passed on.
        assertThat(call.header("baggage")).isNull();
      }
      String listParent =
          stub.received().stream()
              .filter(r -> r.rawUri().startsWith("/orgs/"))
              .findFirst()
              .orElseThrow()
              .header("traceparent")
              .split("-")[2];
      assertThat(listParent).isEqualTo(listCall.spanId());

      // Every span of the trace, and only those; the rendered input never in an attribute.
      assertThat(spans).allSatisfy(s -> assertThat(s.traceId()).isEqualTo(INCOMING_TRACE));
      assertNoSecret(spans);
      assertThat(String.join("\n", logs.lines())).contains("trace_id=" + INCOMING_TRACE);
    }
  }

  @Test
  void aFailingUpstreamLeadsFromTheErrorLineToItsTrace() throws Exception {
    try (OtlpReceiver receiver = new OtlpReceiver();
        StubUpstream stub = new StubUpstream();
        LogCapture logs = new LogCapture()) {
      upstream(stub, 500);
      HttpResponse<String> answer;
      List<Received> spans;
      try (TracedServer server =
          new TracedServer(
              dir,
              Map.of("up", stub.url()),
              Map.of("CLIENT_SECRET", CLIENT_SECRET),
              otel(receiver),
              YAML)) {
        answer =
            server.getparams(
                "inv", "{\"input\":{\"parameters\":{\"org\":\"acme-platform\"}}}", Map.of());
        spans = receiver.awaitTrace(s -> s.kind() == SpanKind.SPAN_KIND_SERVER, WAIT);
      }
      assertThat(answer.statusCode()).as(answer.body()).isEqualTo(502);
      String traceId = answer.headers().firstValue("X-Trace-Id").orElseThrow();
      assertThat(traceId).matches("[0-9a-f]{32}");
      // The line Argo CD puts in the ApplicationSet's status names the trace.
      assertThat(answer.body()).contains("trace_id=" + traceId).doesNotContain(CLIENT_SECRET);
      assertThat(String.join("\n", logs.lines())).contains("trace_id=" + traceId);

      Received server = only(spans, s -> s.kind() == SpanKind.SPAN_KIND_SERVER);
      assertThat(server.traceId()).isEqualTo(traceId);
      assertThat(server.parentSpanId()).isEmpty();
      assertThat(server.error()).isTrue();
      assertThat(server.attributes())
          .containsEntry("http.response.status_code", "502")
          .containsEntry("error.type", "502");
      assertThat(server.attribute("appset_mapper.error")).contains("answered 500", "***");
      Received failed =
          only(
              spans,
              s ->
                  s.kind() == SpanKind.SPAN_KIND_CLIENT
                      && "500".equals(s.attribute("http.response.status_code")));
      assertThat(failed.error()).isTrue();
      assertThat(failed.attribute("error.type")).isEqualTo("500");
      // The redactor saw the upstream's words before the span did.
      assertNoSecret(spans);
    }
  }

  /**
   * A caller's unsampled traceparent ({@code -00}): the error line says its trace id names no
   * exported trace; explain's would-be answer ends as the real getparams error does.
   */
  @Test
  void anUnsampledErrorLineSaysSoAndExplainsAnswerNamesItsTrace() throws Exception {
    try (OtlpReceiver receiver = new OtlpReceiver();
        StubUpstream stub = new StubUpstream()) {
      upstream(stub, 500);
      try (TracedServer server =
          new TracedServer(
              dir,
              Map.of("up", stub.url()),
              Map.of("CLIENT_SECRET", CLIENT_SECRET),
              otel(receiver),
              YAML)) {
        String body = "{\"input\":{\"parameters\":{\"org\":\"acme-platform\"}}}";
        HttpResponse<String> unsampled =
            server.getparams(
                "inv",
                body,
                Map.of("traceparent", "00-" + INCOMING_TRACE + "-" + INCOMING_SPAN + "-00"));
        assertThat(unsampled.statusCode()).as(unsampled.body()).isEqualTo(502);
        assertThat(unsampled.body()).contains("(trace_id=" + INCOMING_TRACE + ", not sampled)");

        HttpResponse<String> explained =
            server.post("/mappings/inv/api/v1/getparams.explain", body, Map.of());
        String traceId = explained.headers().firstValue("X-Trace-Id").orElseThrow();
        Map<String, Object> report =
            new com.fasterxml.jackson.databind.ObjectMapper()
                .readValue(explained.body(), Map.class);
        @SuppressWarnings("unchecked")
        Map<String, Map<String, Object>> answer =
            (Map<String, Map<String, Object>>) report.get("answer");
        assertThat((String) answer.get("body").get("error"))
            .endsWith(" (trace_id=" + traceId + ")");
      }
    }
  }

  @Test
  void explainNamesTheTraceItsRunWasRecordedIn() throws Exception {
    try (OtlpReceiver receiver = new OtlpReceiver();
        StubUpstream stub = new StubUpstream()) {
      upstream(stub, 200);
      HttpResponse<String> json;
      HttpResponse<String> text;
      List<Received> spans;
      try (TracedServer server =
          new TracedServer(
              dir,
              Map.of("up", stub.url()),
              Map.of("CLIENT_SECRET", CLIENT_SECRET),
              otel(receiver),
              YAML)) {
        String body = "{\"input\":{\"parameters\":{\"org\":\"acme-platform\"}}}";
        json = server.post("/mappings/inv/api/v1/getparams.explain", body, Map.of());
        text = server.post("/mappings/inv/api/v1/getparams.explain?format=text", body, Map.of());
        String traceId = json.headers().firstValue("X-Trace-Id").orElseThrow();
        spans =
            receiver.awaitTrace(
                s -> s.traceId().equals(traceId) && s.parentSpanId().isEmpty(), WAIT);
      }
      assertThat(json.statusCode()).as(json.body()).isEqualTo(200);
      String traceId = json.headers().firstValue("X-Trace-Id").orElseThrow();
      assertThat(json.body()).contains("\"traceId\" : \"" + traceId + "\"");
      String textId = text.headers().firstValue("X-Trace-Id").orElseThrow();
      assertThat(text.body()).contains("trace_id " + textId);
      Received server = only(spans, s -> s.kind() == SpanKind.SPAN_KIND_SERVER);
      assertThat(server.name()).isEqualTo("POST /mappings/{mapping}/api/v1/getparams.explain");
      assertThat(spans).anySatisfy(s -> assertThat(s.name()).isEqualTo("enrich.detail"));
      assertNoSecret(spans);
    }
  }

  @Test
  void aCollectorThatIsDownCostsAGetparamsNothingAndItsSpansAreCounted() throws Exception {
    try (OtlpReceiver receiver = new OtlpReceiver();
        StubUpstream stub = new StubUpstream()) {
      receiver.refusing(true);
      upstream(stub, 200);
      try (TracedServer server =
          new TracedServer(
              dir,
              Map.of("up", stub.url()),
              Map.of("CLIENT_SECRET", CLIENT_SECRET),
              otel(receiver),
              YAML)) {
        for (int i = 0; i < 3; i++) {
          HttpResponse<String> answer =
              server.getparams(
                  "inv", "{\"input\":{\"parameters\":{\"org\":\"acme-platform\"}}}", Map.of());
          assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        }
        // The exporter gives up on its own thread (after its retries); then the spans are counted.
        long end = System.nanoTime() + WAIT.toNanos();
        String dropped = "";
        while (System.nanoTime() < end) {
          dropped =
              server
                  .metrics()
                  .lines()
                  .filter(
                      l ->
                          l.startsWith(
                              "appset_mapper_traces_dropped_total{reason=\"export_failed\"}"))
                  .findFirst()
                  .orElse("");
          // Both, however slow the machine: an export that timed out on the exporter's side is
          // counted as failed before the receiver (on a busy machine) has handled its POST.
          if (!dropped.isEmpty() && receiver.posts() > 0) {
            break;
          }
          Thread.sleep(100);
        }
        assertThat(dropped).as("spans dropped counted").isNotEmpty();
        assertThat(receiver.posts()).as("export attempts the collector saw").isPositive();
      }
    }
  }

  @Test
  void withoutOtelVariablesNothingIsTracedOrSent() throws Exception {
    try (StubUpstream stub = new StubUpstream()) {
      upstream(stub, 200);
      try (TracedServer server =
          new TracedServer(
              dir,
              Map.of("up", stub.url()),
              Map.of("CLIENT_SECRET", CLIENT_SECRET),
              Map.of("OTEL_TRACES_EXPORTER", "none"),
              YAML)) {
        HttpResponse<String> answer =
            server.getparams(
                "inv",
                "{\"input\":{\"parameters\":{\"org\":\"acme-platform\"}}}",
                Map.of("traceparent", "00-" + INCOMING_TRACE + "-" + INCOMING_SPAN + "-01"));
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        assertThat(answer.headers().firstValue("X-Trace-Id")).isEmpty();
      }
      assertThat(stub.received())
          .isNotEmpty()
          .allSatisfy(r -> assertThat(r.header("traceparent")).isNull());
    }
  }

  private static void assertNoSecret(List<Received> spans) {
    for (Received span : spans) {
      String all = span.name() + " " + span.attributes() + " " + span.statusMessage();
      assertThat(all).as(span.name()).doesNotContain(CLIENT_SECRET, TOKEN);
      // The URL as rendered from the caller's input is in no name or URL attribute (the error line,
      // the same as the answer's, names the call it failed on).
      String named =
          span.name() + " " + span.attribute("url.template") + " " + span.attribute("url.full");
      assertThat(named).as(span.name()).doesNotContain("acme-platform");
    }
  }

  private static Received only(List<Received> spans, java.util.function.Predicate<Received> p) {
    List<Received> found = spans.stream().filter(p).toList();
    assertThat(found).as("spans: %s", spans).hasSize(1);
    return found.get(0);
  }
}
