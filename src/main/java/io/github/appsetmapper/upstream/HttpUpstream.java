package io.github.appsetmapper.upstream;

import io.github.appsetmapper.upstream.call.Deadline;
import io.github.appsetmapper.upstream.call.Headers;
import io.github.appsetmapper.upstream.call.HostPolicy;
import io.github.appsetmapper.upstream.call.RequestFailure;
import io.github.appsetmapper.upstream.call.Upstream;
import io.github.appsetmapper.upstream.call.UpstreamRequest;
import io.github.appsetmapper.upstream.call.UpstreamResponse;
import io.github.appsetmapper.upstream.call.UriReferences;
import io.github.appsetmapper.upstream.limits.HostLimits;
import io.github.appsetmapper.upstream.limits.RateLimits;
import io.github.appsetmapper.upstream.net.GuardedDnsResolver;
import io.github.appsetmapper.upstream.net.RefusedAddressException;
import io.github.appsetmapper.upstream.tls.RoutingTlsStrategy;
import io.github.appsetmapper.upstream.tls.TlsContexts;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.net.ssl.SSLException;
import org.apache.hc.client5.http.classic.methods.HttpUriRequestBase;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.protocol.HttpClientContext;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;
import org.apache.hc.core5.util.Timeout;

/**
 * Upstream calls over one pooled Apache HttpClient 5. Redirects are followed here rather than by
 * the client so that every hop is checked against {@code allowedHosts} (the mapping's and the
 * server's) and credentials never follow a redirect to another origin. Every connection resolves
 * its host through a {@link GuardedDnsResolver}, so link-local, metadata and (optionally) private
 * addresses are refused after DNS on every hop. The timeout covers the whole exchange, a slowly
 * sent body included, cut to what is left of the mapping's deadline: a timer cancels the request
 * when it runs out. Per-host limits are taken before each call, each call's TLS settings choose its
 * SSL context, proxies come from the environment, and rate-limit headers are kept for metrics.
 */
public final class HttpUpstream implements Upstream {
  public static final long DEFAULT_MAX_BODY_BYTES = 10L * 1024 * 1024;
  private static final int MAX_REDIRECTS = 5;

  private final UpstreamOptions options;
  private final long maxBodyBytes;
  private final HostPolicy serverHosts;
  private final HostLimits limits;
  private final RateLimits rateLimits = new RateLimits();
  private final TlsContexts tls = new TlsContexts();
  private volatile HttpWire wire; // made by the first call or prepare()
  private boolean closed; // under this: a wire made after close() is closed at once

  /**
   * @param maxConnections the pool size, per route as well as in total: it must match the number of
   *     threads that may call at once, or enrich would queue on HttpClient's default of 5 per route
   */
  public HttpUpstream(int maxConnections, long maxBodyBytes) {
    this(UpstreamOptions.defaults(maxConnections, maxBodyBytes));
  }

  public HttpUpstream(UpstreamOptions options) {
    this.options = options;
    this.maxBodyBytes = options.maxBodyBytes();
    this.serverHosts = options.serverHosts();
    this.limits = new HostLimits(options.maxConnectionsPerHost(), options.rateLimits());
  }

  /**
   * Makes the client now rather than on the first call ({@code serve} does it on a thread of its
   * own while the mappings load); a call meanwhile waits for it.
   */
  public void prepare() {
    wire();
  }

  private HttpWire wire() {
    HttpWire made = wire;
    if (made == null) {
      synchronized (this) {
        made = wire;
        if (made == null) {
          made = new HttpWire(options);
          if (closed) {
            made.close(); // a call after close() fails as it did on the closed client
          }
          wire = made;
        }
      }
    }
    return made;
  }

  /** Timeout tasks queued: one per call in flight (read by the soak and a test). */
  public int pendingTimeouts() {
    HttpWire made = wire;
    return made == null ? 0 : made.pendingTimeouts();
  }

  /** What upstreams said about their rate limits, per host (read-only, for metrics). */
  public RateLimits rateLimits() {
    return rateLimits;
  }

  @Override
  public UpstreamResponse exchange(UpstreamRequest request) throws RequestFailure {
    UpstreamRequest current = request;
    for (int hop = 0; ; hop++) {
      checkTarget(current);
      UpstreamResponse response = once(current);
      String location = response.headers().first("Location");
      if (!isRedirect(response.status()) || location == null) {
        return response;
      }
      if (hop == MAX_REDIRECTS) {
        throw RequestFailure.of(request, "more than " + MAX_REDIRECTS + " redirects");
      }
      current = redirect(current, response.status(), location);
    }
  }

  private static boolean isRedirect(int status) {
    return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
  }

  private UpstreamRequest redirect(UpstreamRequest from, int status, String location)
      throws RequestFailure {
    URI next;
    try {
      next = UriReferences.resolve(from.uri(), location);
    } catch (IllegalArgumentException e) {
      throw RequestFailure.of(from, "redirect to an invalid URL");
    }
    if (!from.hosts().allows(next)) {
      throw RequestFailure.of(
          from, "redirect to host '" + next.getHost() + "' refused (not in allowedHosts)");
    }
    if (!serverHosts.allows(next)) {
      throw RequestFailure.of(
          from,
          "redirect to host '"
              + next.getHost()
              + "' refused (not in the server's --allowed-hosts)");
    }
    Headers headers = from.headers();
    boolean toGet = status == 303 && !from.method().equals("HEAD");
    if (!HostPolicy.sameOrigin(from.uri(), next)) {
      if (from.body() != null && !toGet) {
        // The body can hold credentials (an OAuth2 client secret, a login password): it does
        // not follow a redirect to another origin.
        throw RequestFailure.of(
            from,
            "redirect to another origin '"
                + HostPolicy.origin(next)
                + "' with the request body refused");
      }
      List<Headers.Header> kept = new ArrayList<>();
      for (Headers.Header h : headers.fields()) {
        if (!from.sensitiveHeaders().contains(h.name().toLowerCase(Locale.ROOT))) {
          kept.add(h);
        }
      }
      headers = Headers.of(kept);
    }
    return from.toBuilder()
        .method(toGet ? "GET" : from.method())
        .uri(next)
        .headers(headers)
        .body(toGet ? null : from.body())
        .build();
  }

  private void checkTarget(UpstreamRequest request) throws RequestFailure {
    URI uri = request.uri();
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("http") && !scheme.equals("https")) {
      throw RequestFailure.of(request, "only http and https URLs can be called");
    }
    if (uri.getHost() == null) {
      throw RequestFailure.of(request, "the URL has no host");
    }
    if (!request.hosts().allows(uri)) {
      throw RequestFailure.of(request, "host '" + uri.getHost() + "' is not in allowedHosts");
    }
    if (!serverHosts.allows(uri)) {
      throw RequestFailure.of(
          request, "host '" + uri.getHost() + "' is not in the server's --allowed-hosts");
    }
  }

  private UpstreamResponse once(UpstreamRequest request) throws RequestFailure {
    Duration timeout = request.timeout();
    Deadline deadline = request.settings().deadline();
    Duration left = deadline.remaining();
    boolean byDeadline = deadline.isSet() && left.compareTo(timeout) < 0;
    if (byDeadline && left.isZero()) {
      throw RequestFailure.of(
          request, "not sent, the deadline ran out", RequestFailure.Kind.DEADLINE);
    }
    Duration budget = byDeadline ? left : timeout;
    long started = System.nanoTime();
    HostLimits.Permit permit;
    try {
      permit = limits.acquire(request.uri().getHost(), budget);
    } catch (HostLimits.Refused e) {
      throw RequestFailure.of(
          request,
          e.getMessage(),
          byDeadline ? RequestFailure.Kind.DEADLINE : RequestFailure.Kind.TIMEOUT);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw RequestFailure.of(request, "interrupted");
    }
    try (permit) {
      Duration rest = budget.minusNanos(System.nanoTime() - started);
      if (rest.isNegative() || rest.isZero()) {
        rest = Duration.ofMillis(1);
      }
      return execute(request, rest, byDeadline, timeout);
    }
  }

  private UpstreamResponse execute(
      UpstreamRequest request, Duration budget, boolean byDeadline, Duration timeout)
      throws RequestFailure {
    HttpUriRequestBase http = new HttpUriRequestBase(request.method(), request.uri());
    for (Headers.Header h : request.headers().fields()) {
      http.addHeader(h.name(), h.value());
    }
    // The trace's context (W3C traceparent/tracestate) when tracing: ours, never a caller's value.
    request.settings().wire().propagate(http::setHeader);
    if (request.body() != null) {
      String type = request.headers().first("Content-Type");
      http.setEntity(
          new ByteArrayEntity(
              request.body(),
              type == null ? ContentType.APPLICATION_JSON : ContentType.parse(type)));
    }
    HttpClientContext context = HttpClientContext.create();
    context.setRequestConfig(
        RequestConfig.custom()
            .setResponseTimeout(Timeout.of(budget))
            .setConnectionRequestTimeout(Timeout.of(budget))
            .build());
    if (request.settings().tls() != null && "https".equalsIgnoreCase(request.uri().getScheme())) {
      TlsContexts.Material material;
      try {
        material = tls.material(request.settings().tls());
      } catch (RequestFailure e) {
        throw e.onCall(request);
      }
      context.setAttribute(RoutingTlsStrategy.ATTRIBUTE, material);
      context.setUserToken(material.version());
    }
    AtomicBoolean timedOut = new AtomicBoolean();
    HttpWire made = wire();
    ScheduledFuture<?> cancel =
        made.timer.schedule(
            () -> {
              timedOut.set(true);
              http.cancel();
            },
            budget.toMillis(),
            TimeUnit.MILLISECONDS);
    try {
      UpstreamResponse response =
          made.client.execute(
              http,
              context,
              r -> {
                UpstreamResponse read = read(request, r);
                return Boolean.TRUE.equals(context.getAttribute(HttpWire.ENDED_BY_CLOSE))
                    ? read.asEndedByClose()
                    : read;
              });
      rateLimits.observe(request.uri().getHost(), response.headers(), java.time.Instant.now());
      return response;
    } catch (BodyTooLargeException e) {
      if (e.status >= 200 && e.status < 300) {
        throw RequestFailure.of(request, "response larger than " + cap(request) + " bytes");
      }
      // An error answer keeps its status (retried, missing or refused as a small one would be);
      // its body is not needed to judge it. The connection was discarded, not drained.
      rateLimits.observe(request.uri().getHost(), e.headers, java.time.Instant.now());
      return UpstreamResponse.bodyDropped(e.status, e.headers, request.uri(), cap(request));
    } catch (IOException | RuntimeException e) {
      if (timedOut.get() || e instanceof SocketTimeoutException) {
        if (byDeadline) {
          throw RequestFailure.of(request, "cut off by the deadline", RequestFailure.Kind.DEADLINE)
              .causedBy(e);
        }
        throw RequestFailure.of(
                request,
                "timed out after " + timeout.toMillis() + " ms",
                RequestFailure.Kind.TIMEOUT)
            .causedBy(e);
      }
      throw RequestFailure.of(request, cause(e), kind(e)).causedBy(e);
    } finally {
      cancel.cancel(false);
    }
  }

  private static RequestFailure.Kind kind(Exception e) {
    if (e instanceof RefusedAddressException) {
      return RequestFailure.Kind.FAILED;
    }
    if (e instanceof ConnectException
        || e instanceof NoRouteToHostException
        || e instanceof org.apache.hc.client5.http.ConnectTimeoutException
        || e instanceof org.apache.hc.core5.http.NoHttpResponseException) {
      return RequestFailure.Kind.CONNECT;
    }
    return RequestFailure.Kind.FAILED;
  }

  private UpstreamResponse read(UpstreamRequest request, ClassicHttpResponse response)
      throws IOException {
    List<Headers.Header> headers = new ArrayList<>();
    for (Header h : response.getHeaders()) {
      headers.add(new Headers.Header(h.getName(), h.getValue()));
    }
    byte[] body = new byte[0];
    HttpEntity entity = response.getEntity();
    if (entity != null) {
      long cap = cap(request);
      try {
        if (entity.getContentLength() > cap) {
          // Declared too large: refused unread (the connection is not reused).
          throw new BodyTooLargeException();
        }
        try (InputStream in = entity.getContent()) {
          body = readCapped(in, entity.getContentLength(), cap);
        }
      } catch (BodyTooLargeException e) {
        e.status = response.getCode();
        e.headers = Headers.of(headers);
        throw e;
      }
    }
    return new UpstreamResponse(response.getCode(), Headers.of(headers), body, request.uri());
  }

  /**
   * The body, at most {@code cap} bytes. The buffers are sized from the declared length (a hint
   * only, bounded: a lying upstream can neither make us allocate much up front nor get past the
   * cap), so a small answer costs a small allocation.
   */
  private static byte[] readCapped(InputStream in, long declared, long cap) throws IOException {
    int hint = declared < 0 ? 8 * 1024 : (int) Math.min(declared + 1, 64 * 1024);
    ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(hint, 32));
    byte[] buffer = new byte[Math.max(Math.min(hint, 16 * 1024), 32)];
    long total = 0;
    for (int n; (n = in.read(buffer)) >= 0; ) {
      total += n;
      if (total > cap) {
        throw new BodyTooLargeException();
      }
      out.write(buffer, 0, n);
    }
    return out.toByteArray();
  }

  /** The transport's cap, or the call's own when it is larger (a YAML index read as a stream). */
  private long cap(UpstreamRequest request) {
    return Math.max(maxBodyBytes, request.settings().maxBodyBytes());
  }

  /** A body past the cap; thrown so that the connection is discarded rather than drained. */
  private static final class BodyTooLargeException extends IOException {
    int status;
    Headers headers;
  }

  static String cause(Exception e) {
    if (e instanceof RefusedAddressException) {
      return e.getMessage();
    }
    if (e instanceof org.apache.hc.client5.http.ConnectTimeoutException) {
      return "connect timed out";
    }
    if (e instanceof org.apache.hc.core5.http.NoHttpResponseException) {
      // Nothing at all, or part of the status line: the client cannot tell which.
      return "the connection closed before the answer's head (status line and headers) arrived";
    }
    if (e instanceof org.apache.hc.core5.http.ProtocolException
        || e.getCause() instanceof org.apache.hc.core5.http.ProtocolException) {
      // A head cut in its headers reads as a header that does not parse.
      return "the answer's head is cut short or malformed (" + e.getMessage() + ")";
    }
    if (e instanceof ConnectException) {
      return "connection refused";
    }
    if (e instanceof UnknownHostException) {
      return "unknown host";
    }
    if (e instanceof NoRouteToHostException) {
      return "no route to host";
    }
    if (e instanceof SSLException) {
      return "TLS handshake failed: " + e.getMessage();
    }
    if (e instanceof org.apache.hc.core5.http.ConnectionClosedException
        || e instanceof org.apache.hc.core5.http.MalformedChunkCodingException
        || e instanceof java.io.EOFException) {
      return "connection closed before the whole answer arrived";
    }
    if (e instanceof java.net.SocketException) {
      return "connection failed (" + e.getMessage() + ")";
    }
    String message = e.getMessage();
    return message == null || message.isBlank() ? e.getClass().getSimpleName() : message;
  }

  @Override
  public synchronized void close() {
    closed = true;
    if (wire != null) {
      wire.close();
    }
  }
}
