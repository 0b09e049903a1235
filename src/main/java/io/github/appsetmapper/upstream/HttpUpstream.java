package io.github.appsetmapper.upstream;

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
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.net.ssl.SSLException;
import org.apache.hc.client5.http.classic.methods.HttpUriRequestBase;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.client5.http.protocol.HttpClientContext;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;

/**
 * Upstream calls over one pooled Apache HttpClient 5. Redirects are followed here rather than by
 * the client so that every hop is checked against {@code allowedHosts} and credentials never follow
 * a redirect to another origin. The timeout covers the whole exchange, a slowly sent body included:
 * a timer cancels the request when it runs out.
 */
public final class HttpUpstream implements Upstream {
  public static final long DEFAULT_MAX_BODY_BYTES = 10L * 1024 * 1024;
  private static final int MAX_REDIRECTS = 5;

  private final CloseableHttpClient client;
  private final PoolingHttpClientConnectionManager connections;
  private final ScheduledExecutorService timer;
  private final long maxBodyBytes;

  /**
   * @param maxConnections the pool size, per route as well as in total: it must match the number of
   *     threads that may call at once, or enrich would queue on HttpClient's default of 5 per route
   */
  public HttpUpstream(int maxConnections, long maxBodyBytes) {
    this.maxBodyBytes = maxBodyBytes;
    this.connections =
        PoolingHttpClientConnectionManagerBuilder.create()
            .setMaxConnTotal(maxConnections)
            .setMaxConnPerRoute(maxConnections)
            .setDefaultConnectionConfig(
                ConnectionConfig.custom()
                    .setConnectTimeout(Timeout.ofSeconds(10))
                    .setValidateAfterInactivity(TimeValue.ofSeconds(2))
                    .setTimeToLive(TimeValue.ofMinutes(5))
                    .build())
            .build();
    this.client =
        HttpClients.custom()
            .setConnectionManager(connections)
            .disableRedirectHandling()
            .disableAutomaticRetries()
            .disableCookieManagement()
            .disableAuthCaching()
            .setUserAgent("appset-mapper")
            .evictIdleConnections(TimeValue.ofSeconds(30))
            .build();
    this.timer =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread thread = new Thread(r, "upstream-timeouts");
              thread.setDaemon(true);
              return thread;
            });
  }

  @Override
  public UpstreamResponse exchange(UpstreamRequest request) throws UpstreamException {
    UpstreamRequest current = request;
    for (int hop = 0; ; hop++) {
      checkTarget(current);
      UpstreamResponse response = once(current);
      String location = response.headers().first("Location");
      if (!isRedirect(response.status()) || location == null) {
        return response;
      }
      if (hop == MAX_REDIRECTS) {
        throw new UpstreamException(
            describe(request) + ": more than " + MAX_REDIRECTS + " redirects");
      }
      current = redirect(current, response.status(), location);
    }
  }

  private static boolean isRedirect(int status) {
    return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
  }

  private UpstreamRequest redirect(UpstreamRequest from, int status, String location)
      throws UpstreamException {
    URI next;
    try {
      next = from.uri().resolve(location.trim());
    } catch (IllegalArgumentException e) {
      throw new UpstreamException(describe(from) + ": redirect to an invalid URL");
    }
    if (!from.hosts().allows(next)) {
      throw new UpstreamException(
          describe(from)
              + ": redirect to host '"
              + next.getHost()
              + "' refused (not in allowedHosts)");
    }
    Headers headers = from.headers();
    if (!HostPolicy.sameOrigin(from.uri(), next)) {
      List<Headers.Header> kept = new ArrayList<>();
      for (Headers.Header h : headers.fields()) {
        if (!from.sensitiveHeaders().contains(h.name().toLowerCase(Locale.ROOT))) {
          kept.add(h);
        }
      }
      headers = Headers.of(kept);
    }
    boolean toGet = status == 303 && !from.method().equals("HEAD");
    return new UpstreamRequest(
        toGet ? "GET" : from.method(),
        next,
        headers,
        toGet ? null : from.body(),
        from.timeout(),
        from.sensitiveHeaders(),
        from.hosts());
  }

  private static void checkTarget(UpstreamRequest request) throws UpstreamException {
    URI uri = request.uri();
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("http") && !scheme.equals("https")) {
      throw new UpstreamException(describe(request) + ": only http and https URLs can be called");
    }
    if (uri.getHost() == null) {
      throw new UpstreamException(describe(request) + ": the URL has no host");
    }
    if (!request.hosts().allows(uri)) {
      throw new UpstreamException(
          describe(request) + ": host '" + uri.getHost() + "' is not in allowedHosts");
    }
  }

  private UpstreamResponse once(UpstreamRequest request) throws UpstreamException {
    HttpUriRequestBase http = new HttpUriRequestBase(request.method(), request.uri());
    for (Headers.Header h : request.headers().fields()) {
      http.addHeader(h.name(), h.value());
    }
    if (request.body() != null) {
      http.setEntity(new ByteArrayEntity(request.body(), ContentType.APPLICATION_JSON));
    }
    Duration timeout = request.timeout();
    HttpClientContext context = HttpClientContext.create();
    context.setRequestConfig(
        RequestConfig.custom()
            .setResponseTimeout(Timeout.of(timeout))
            .setConnectionRequestTimeout(Timeout.of(timeout))
            .build());
    AtomicBoolean timedOut = new AtomicBoolean();
    ScheduledFuture<?> deadline =
        timer.schedule(
            () -> {
              timedOut.set(true);
              http.cancel();
            },
            timeout.toMillis(),
            TimeUnit.MILLISECONDS);
    try {
      return client.execute(http, context, response -> read(request, response));
    } catch (BodyTooLargeException e) {
      throw new UpstreamException(
          describe(request) + ": response larger than " + maxBodyBytes + " bytes");
    } catch (IOException | RuntimeException e) {
      if (timedOut.get() || e instanceof SocketTimeoutException) {
        throw new UpstreamException(
            describe(request) + ": timed out after " + timeout.toMillis() + " ms", true);
      }
      throw new UpstreamException(describe(request) + ": " + cause(e));
    } finally {
      deadline.cancel(false);
    }
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
      try (InputStream in = entity.getContent()) {
        body = readCapped(in);
      }
    }
    return new UpstreamResponse(response.getCode(), Headers.of(headers), body, request.uri());
  }

  private byte[] readCapped(InputStream in) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] buffer = new byte[16 * 1024];
    long total = 0;
    for (int n; (n = in.read(buffer)) >= 0; ) {
      total += n;
      if (total > maxBodyBytes) {
        throw new BodyTooLargeException();
      }
      out.write(buffer, 0, n);
    }
    return out.toByteArray();
  }

  private static final class BodyTooLargeException extends IOException {}

  static String cause(Exception e) {
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

  /** The call as errors name it: method and URL, query string kept, user info dropped. */
  public static String describe(UpstreamRequest request) {
    URI uri = request.uri();
    String shown = uri.toString();
    if (uri.getRawUserInfo() != null) {
      shown = shown.replace(uri.getRawUserInfo() + "@", "");
    }
    return request.method() + " " + shown;
  }

  @Override
  public void close() {
    timer.shutdownNow();
    try {
      client.close();
    } catch (IOException ignored) {
      // closing sockets on shutdown; nothing to do about a failure here
    }
    connections.close();
  }
}
