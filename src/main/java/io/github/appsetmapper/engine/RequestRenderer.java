package io.github.appsetmapper.engine;

import io.github.appsetmapper.compile.CompiledExpression;
import io.github.appsetmapper.compile.CompiledMapping;
import io.github.appsetmapper.compile.CompiledRequest;
import io.github.appsetmapper.compile.Template;
import io.github.appsetmapper.compile.UrlTemplate;
import io.github.appsetmapper.expr.Scope;
import io.github.appsetmapper.expr.Values;
import io.github.appsetmapper.json.JsonCodec;
import io.github.appsetmapper.json.Utf8;
import io.github.appsetmapper.secret.CredentialHeaders;
import io.github.appsetmapper.secret.DerivedSecrets;
import io.github.appsetmapper.upstream.PercentEncoding;
import io.github.appsetmapper.upstream.call.Deadline;
import io.github.appsetmapper.upstream.call.Headers;
import io.github.appsetmapper.upstream.call.RequestFailure;
import io.github.appsetmapper.upstream.call.UpstreamAuth;
import io.github.appsetmapper.upstream.call.UpstreamRequest;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Renders a compiled request for one row: URL holes encoded by role, query values encoded by the
 * URL builder, headers checked for line breaks, body written as JSON, auth from secrets.
 */
final class RequestRenderer {
  private final CompiledMapping mapping;
  private final Trace trace;
  private final DerivedSecrets derived;
  private final Deadline deadline;

  /**
   * Renders the requests of {@code mapping}; {@code trace} hears what was refused, {@code derived}
   * holds every value a hole computed from a secret, for the redactor; secrets are read within
   * {@code deadline}.
   */
  RequestRenderer(CompiledMapping mapping, Trace trace, DerivedSecrets derived, Deadline deadline) {
    this.mapping = mapping;
    this.trace = trace;
    this.derived = derived;
    this.deadline = deadline;
  }

  Deadline deadline() {
    return deadline;
  }

  CompiledMapping mapping() {
    return mapping;
  }

  UpstreamRequest render(CompiledRequest request, Scope scope) throws RequestFailure {
    try {
      return build(request, scope);
    } catch (SecretsView.Unavailable e) {
      throw e.failure;
    }
  }

  private UpstreamRequest build(CompiledRequest request, Scope scope) throws RequestFailure {
    URI uri = uri(request, scope);
    List<Headers.Header> headers = new ArrayList<>();
    Set<String> sensitive = new HashSet<>();
    for (Map.Entry<String, Template> header : request.headers().entrySet()) {
      Template template = header.getValue();
      Object value = evaluate(request, "headers." + header.getKey(), template, scope);
      if (value == null && template.isSingleHole()) {
        continue;
      }
      String text = template.isSingleHole() ? Values.text(value) : (String) value;
      String problem = headerProblem(text);
      if (problem != null && template.readsSecret() && !template.readsInput()) {
        // Made from a secret (the only thing here a request cannot change): this server's
        // problem, a 500 as for a secret sent by auth, never the value.
        trace.refusedRequest("header-value");
        throw RequestFailure.at(
            request.step(),
            "headers." + header.getKey(),
            RequestFailure.Kind.SECRET,
            "a header value "
                + problem
                + ": it is made from a secret, whose value cannot be sent"
                + " in a header");
      }
      if (problem != null) {
        throw refused(
            request,
            "headers." + header.getKey(),
            "a header value " + problem,
            template.readsInput(),
            "header-value");
      }
      headers.add(new Headers.Header(header.getKey(), text));
      // A credential by its name (a literal Authorization) or by what it is made from.
      if (template.readsSecret() || CredentialHeaders.is(header.getKey())) {
        sensitive.add(header.getKey().toLowerCase(Locale.ROOT));
      }
    }
    UpstreamAuth plan = null;
    if (request.auth() != null) {
      AuthRenderer.Rendered auth = request.auth().accept(new AuthRenderer(this, request, scope));
      if (auth.header() != null) {
        Headers.Header header = auth.header();
        headers.removeIf(h -> h.name().equalsIgnoreCase(header.name()));
        headers.add(header);
        sensitive.add(header.name().toLowerCase(Locale.ROOT));
      }
      plan = auth.plan();
    }
    byte[] body = null;
    if (request.body() != null) {
      try {
        body = JsonCodec.writeBytes(body(request, request.body(), scope, "body"));
      } catch (IllegalStateException e) {
        throw refused(request, "body", "cannot be written as JSON", false, null).causedBy(e);
      }
    }
    return UpstreamRequest.builder()
        .method(request.method())
        .uri(uri)
        .headers(Headers.of(headers))
        .body(body)
        .timeout(request.timeout())
        .sensitiveHeaders(Set.copyOf(sensitive))
        .hosts(mapping.hosts())
        .settings(request.settings().withAuth(plan))
        .credentials(request.credentials())
        .build();
  }

  private URI uri(CompiledRequest request, Scope scope) throws RequestFailure {
    UrlTemplate url = request.url();
    List<Template.Part> parts = url.template().parts();
    StringBuilder out = new StringBuilder();
    int[] starts = new int[parts.size()];
    int[] ends = new int[parts.size()];
    boolean readsInput = false;
    for (int i = 0; i < parts.size(); i++) {
      Template.Part part = parts.get(i);
      starts[i] = out.length();
      if (part instanceof Template.Literal literal) {
        out.append(literal.text());
      } else {
        CompiledExpression hole = ((Template.Hole) part).expression();
        readsInput |= hole.readsInput();
        String text = Values.text(evaluate(request, "url", hole, scope));
        switch (url.roles().get(i)) {
          case BASE -> out.append(text);
          case QUERY -> out.append(PercentEncoding.queryComponent(text));
          default -> out.append(PercentEncoding.pathSegment(text));
        }
      }
      ends[i] = out.length();
    }
    // Checked as rendered: "#{a}.#{b}" with a "." and b "" is a ".." though neither hole is.
    for (UrlTemplate.Segment segment : url.segments()) {
      int from = starts[segment.firstPart()] + segment.firstOffset();
      int to =
          segment.endOffset() < 0
              ? ends[segment.lastPart()]
              : starts[segment.lastPart()] + segment.endOffset();
      String problem = PathSegments.problem(out.substring(from, to));
      if (problem != null) {
        throw refused(
            request,
            "url",
            segment.source() + " gives " + problem,
            segment.fromCaller(),
            "path-segment");
      }
    }
    boolean hasQuery = out.indexOf("?") >= 0;
    for (Map.Entry<String, Template> param : request.query().entrySet()) {
      Template template = param.getValue();
      Object value = evaluate(request, "query." + param.getKey(), template, scope);
      if (value == null) {
        continue;
      }
      Collection<?> values = value instanceof Collection<?> list ? list : List.of(value);
      for (Object each : values) {
        out.append(hasQuery ? '&' : '?')
            .append(PercentEncoding.queryComponent(param.getKey()))
            .append('=')
            .append(PercentEncoding.queryComponent(Values.text(each)));
        hasQuery = true;
      }
    }
    try {
      URI uri = new URI(out.toString());
      if (uri.getScheme() == null || uri.getHost() == null) {
        throw refused(
            request,
            "url",
            "'" + url.template().source().text() + "' did not give an absolute URL",
            readsInput,
            null);
      }
      return uri;
    } catch (URISyntaxException e) {
      throw refused(
          request,
          "url",
          "'" + url.template().source().text() + "' gave an invalid URL",
          readsInput,
          null);
    }
  }

  private Object body(CompiledRequest request, Object node, Scope scope, String path)
      throws RequestFailure {
    if (node instanceof Template template) {
      return evaluate(request, path, template, scope);
    }
    if (node instanceof Map<?, ?> map) {
      Map<String, Object> out = new LinkedHashMap<>();
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        out.put(
            String.valueOf(entry.getKey()),
            body(request, entry.getValue(), scope, path + "." + entry.getKey()));
      }
      return out;
    }
    if (node instanceof List<?> list) {
      List<Object> out = new ArrayList<>();
      for (int i = 0; i < list.size(); i++) {
        out.add(body(request, list.get(i), scope, path + "[" + i + "]"));
      }
      return out;
    }
    return node;
  }

  /**
   * Why {@code text} cannot be a header value, or null: a line break would end the header and start
   * another; other control characters are split on, dropped or refused by servers and proxies in
   * different ways. A character beyond Latin-1 has no byte in a header: the HTTP client would send
   * a '?' in its place, a different value from the one written. The character is not named (it may
   * be part of a secret).
   */
  static String headerProblem(String text) {
    if (text.indexOf('\r') >= 0 || text.indexOf('\n') >= 0) {
      return "cannot hold a line break";
    }
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if ((c < 0x20 && c != '\t') || c == 0x7f) {
        return "cannot hold a control character";
      }
      if (c > 0xff) {
        return "cannot hold a character beyond Latin-1 (it would be sent as '?'); percent-encode"
            + " it, or send it in the query or the body";
      }
    }
    return null;
  }

  /** A secret to send in a header: read now, and never with a line break. */
  String secret(String name) throws RequestFailure {
    String value = SecretsView.read(mapping.secrets(), name, deadline);
    if (value.indexOf('\n') >= 0 || value.indexOf('\r') >= 0) {
      throw new RequestFailure(
          "secret '" + name + "' holds a line break and cannot be sent in a header",
          RequestFailure.Kind.SECRET);
    }
    return value;
  }

  /** A secret sent as (part of) a header value as it is: also no control character, no '?'. */
  String headerSecret(String name) throws RequestFailure {
    String value = secret(name);
    String problem = headerProblem(value);
    if (problem != null) {
      throw new RequestFailure(
          "secret '"
              + name
              + "' cannot be sent in a header: it "
              + problem.replace("cannot hold", "holds"),
          RequestFailure.Kind.SECRET);
    }
    return value;
  }

  /** A template's value for {@code field} of {@code request}; a failure names both. */
  Object evaluate(CompiledRequest request, String field, Template template, Scope scope)
      throws RequestFailure {
    Object value;
    try {
      value = template.value(scope, this::derived);
    } catch (org.springframework.expression.EvaluationException | IllegalArgumentException e) {
      rethrowSecretFailure(e);
      throw refused(
              request,
              field,
              "'" + template.source().text() + "' failed: " + simple(e),
              template.readsInput(),
              null)
          .causedBy(e);
    }
    return whole(request, field, template.source().text(), value, template.readsInput());
  }

  private Object evaluate(
      CompiledRequest request, String field, CompiledExpression hole, Scope scope)
      throws RequestFailure {
    Object value;
    try {
      value = hole.evaluate(scope);
      if (value != null && Template.readsSecret(hole)) {
        derived(value);
      }
    } catch (org.springframework.expression.EvaluationException | IllegalArgumentException e) {
      rethrowSecretFailure(e);
      throw refused(
              request,
              field,
              "'" + hole.source().text() + "' failed: " + simple(e),
              hole.readsInput(),
              null)
          .causedBy(e);
    }
    return whole(request, field, hole.source().text(), value, hole.readsInput());
  }

  /**
   * {@code value} when each text in it is whole: half of a surrogate pair (an expression cutting an
   * emoji in two) has no UTF-8 form, so a URL would call {@code %3F} (another resource), a query, a
   * body or a token request would send '?' ({@link Utf8}). Every template of a request passes here,
   * so every place its text becomes bytes (percent-encoding, JSON, base64, a form) is covered.
   */
  private Object whole(
      CompiledRequest request, String field, String source, Object value, boolean fromInput)
      throws RequestFailure {
    String problem = Texts.problem(value, Utf8::problem);
    if (problem != null) {
      throw refused(
          request, field, "'" + source + "' gave a text that " + problem, fromInput, null);
    }
    return value;
  }

  /**
   * Hands the redactor what a hole computed from a secret: each text in it (map keys and values,
   * list elements), as it renders. Booleans are left out: "true" is no secret, and would be masked
   * in every text.
   */
  private void derived(Object value) {
    if (value instanceof Map<?, ?> map) {
      map.forEach(
          (k, v) -> {
            derived(k);
            derived(v);
          });
    } else if (value instanceof Collection<?> list) {
      list.forEach(this::derived);
    } else if (value != null && !(value instanceof Boolean)) {
      derived.add(Values.text(value));
    }
  }

  /**
   * A request that cannot be built from its templates: the fault of the input (a 400) when the
   * offending template reads the input, else of the upstream data it was built from (a 502). {@code
   * refusal} (or null for a template that failed) is what a guard on where requests go refused
   * ("path-segment", "header-value"), which the trace counts.
   */
  RequestFailure refused(
      CompiledRequest request, String field, String detail, boolean fromInput, String refusal) {
    if (refusal != null) {
      trace.refusedRequest(refusal);
    }
    return RequestFailure.at(
        request.step(),
        field,
        fromInput ? RequestFailure.Kind.INPUT : RequestFailure.Kind.FAILED,
        detail);
  }

  /** A secret that could not be read is a server problem (500), not a template error. */
  private static void rethrowSecretFailure(Throwable e) {
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause instanceof SecretsView.Unavailable unavailable) {
        throw unavailable;
      }
    }
  }

  static String simple(Exception e) {
    return io.github.appsetmapper.expr.SpelMessages.simple(e);
  }
}
