package io.github.appsetmapper.tracing;

import io.github.appsetmapper.upstream.call.RequestFailure;
import io.github.appsetmapper.upstream.call.UpstreamRequest;
import io.github.appsetmapper.upstream.call.UpstreamResponse;
import io.github.appsetmapper.upstream.call.WireTrace;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import java.util.Locale;
import java.util.function.BiConsumer;

/**
 * The client spans of one step's calls, by the HTTP client semantic conventions: method, the URL
 * template (never the rendered URL: its values came from the caller), server address and port,
 * status, {@code http.request.resend_count}. The call's {@code traceparent} names its own span.
 */
final class ClientSpans implements WireTrace {
  private final Tracer tracer;
  private final Context parent;
  private final SpanValues values;
  private final String step;
  private final String template;
  private final String purpose;

  ClientSpans(Tracer tracer, Context parent, SpanValues values, String step, String template) {
    this(tracer, parent, values, step, template, null);
  }

  private ClientSpans(
      Tracer tracer,
      Context parent,
      SpanValues values,
      String step,
      String template,
      String purpose) {
    this.tracer = tracer;
    this.parent = parent;
    this.values = values;
    this.step = step;
    this.template = template;
    this.purpose = purpose;
  }

  @Override
  public WireTrace forAuth(String what) {
    // A token or login call has the auth's URL, not the step's template.
    return new ClientSpans(tracer, parent, values, step, null, what);
  }

  @Override
  public Sending sending(UpstreamRequest request) {
    try {
      String method = request.method().toUpperCase(Locale.ROOT);
      String shown = template != null ? values.of(template) : null;
      var builder =
          tracer
              .spanBuilder(shown != null ? method + " " + shown : method)
              .setParent(parent)
              .setSpanKind(SpanKind.CLIENT)
              .setAttribute("http.request.method", method)
              .setAttribute("server.address", values.of(request.uri().getHost()))
              .setAttribute("url.scheme", values.of(request.uri().getScheme()))
              .setAttribute("appset_mapper.step", values.of(step));
      int port = request.uri().getPort();
      if (port > 0) {
        builder.setAttribute("server.port", (long) port);
      }
      if (shown != null) {
        builder.setAttribute("url.template", shown);
      }
      if (purpose != null) {
        builder.setAttribute("appset_mapper.call", purpose);
      }
      return new Sent(builder.startSpan());
    } catch (RuntimeException e) {
      return Sending.NONE;
    }
  }

  /** One call on the wire. */
  private final class Sent implements Sending {
    private final Span span;

    Sent(Span span) {
      this.span = span;
    }

    @Override
    public void propagate(BiConsumer<String, String> header) {
      OtelTracing.propagator()
          .inject(parent.with(span), header, (carrier, key, value) -> carrier.accept(key, value));
    }

    @Override
    public void ended(UpstreamResponse response, int attempts, RequestFailure failure) {
      try {
        if (attempts > 1) {
          span.setAttribute("http.request.resend_count", (long) attempts - 1);
        }
        if (response != null) {
          span.setAttribute("http.response.status_code", (long) response.status());
          if (response.status() >= 400) {
            span.setAttribute("error.type", String.valueOf(response.status()));
            span.setStatus(StatusCode.ERROR);
          }
        } else if (failure != null) {
          span.setAttribute("error.type", failure.kind().name().toLowerCase(Locale.ROOT));
          span.setStatus(StatusCode.ERROR, values.of(failure.getMessage()));
        }
      } finally {
        span.end();
      }
    }
  }
}
