package io.github.appsetmapper.testing;

import io.undertow.Undertow;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.HttpString;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * A real HTTP upstream on a loopback port for tests: answers by route, records every request it
 * received (raw URI, headers, body), counts calls and the most requests it had in flight at once.
 */
public final class StubUpstream implements AutoCloseable {
  /** What the stub saw. */
  public record Received(String method, String rawUri, Map<String, String> headers, byte[] body) {
    public String header(String name) {
      return headers.get(name.toLowerCase());
    }

    public String bodyText() {
      return new String(body, StandardCharsets.UTF_8);
    }
  }

  /** What the stub answers; {@code action} can take over the exchange (slow bodies, resets). */
  public record Reply(
      int status, Map<String, String> headers, byte[] body, long delayMillis, Action action) {
    public static Reply json(int status, String json) {
      return new Reply(
          status,
          Map.of("Content-Type", "application/json"),
          json.getBytes(StandardCharsets.UTF_8),
          0,
          null);
    }

    public static Reply status(int status) {
      return new Reply(status, Map.of(), new byte[0], 0, null);
    }

    public Reply withHeader(String name, String value) {
      Map<String, String> more = new LinkedHashMap<>(headers);
      more.put(name, value);
      return new Reply(status, more, body, delayMillis, action);
    }

    public Reply delayed(long millis) {
      return new Reply(status, headers, body, millis, action);
    }

    public static Reply custom(Action action) {
      return new Reply(200, Map.of(), new byte[0], 0, action);
    }
  }

  /** Full control of one exchange, for faults. */
  public interface Action {
    void handle(HttpServerExchange exchange) throws Exception;
  }

  private final Undertow server;
  private final Map<String, Function<Received, Reply>> routes = new ConcurrentHashMap<>();
  private final List<Received> received = Collections.synchronizedList(new ArrayList<>());
  private final AtomicInteger inFlight = new AtomicInteger();
  private volatile Function<Received, Reply> fallback =
      r -> Reply.json(404, "{\"message\":\"no stub route\"}");
  private final AtomicInteger maxInFlight = new AtomicInteger();

  private final boolean https;

  public StubUpstream() {
    this(null, false);
  }

  /** An HTTPS stub with {@code tls}; {@code requireClientCert} makes it an mTLS server. */
  public StubUpstream(javax.net.ssl.SSLContext tls, boolean requireClientCert) {
    Undertow.Builder builder = Undertow.builder().setWorkerThreads(64).setHandler(this::handle);
    if (tls == null) {
      builder.addHttpListener(0, "127.0.0.1");
    } else {
      builder.addHttpsListener(0, "127.0.0.1", tls);
      if (requireClientCert) {
        builder.setSocketOption(
            org.xnio.Options.SSL_CLIENT_AUTH_MODE, org.xnio.SslClientAuthMode.REQUIRED);
      }
    }
    this.https = tls != null;
    server = builder.build();
    server.start();
  }

  public int port() {
    return ((InetSocketAddress) server.getListenerInfo().get(0).getAddress()).getPort();
  }

  public String url() {
    return (https ? "https" : "http") + "://127.0.0.1:" + port();
  }

  /** Answers {@code METHOD /path} (path without query; "*" matches any method). */
  public StubUpstream on(String methodAndPath, Function<Received, Reply> reply) {
    routes.put(methodAndPath, reply);
    return this;
  }

  /** Answers what no route matches (by default a 404). */
  public StubUpstream otherwise(Function<Received, Reply> reply) {
    fallback = reply;
    return this;
  }

  public StubUpstream on(String methodAndPath, Reply reply) {
    return on(methodAndPath, r -> reply);
  }

  public List<Received> received() {
    synchronized (received) {
      return List.copyOf(received);
    }
  }

  public int calls() {
    return received.size();
  }

  public int maxInFlight() {
    return maxInFlight.get();
  }

  private void handle(HttpServerExchange exchange) throws Exception {
    if (exchange.isInIoThread()) {
      exchange.dispatch(this::handle);
      return;
    }
    exchange.startBlocking();
    int now = inFlight.incrementAndGet();
    maxInFlight.accumulateAndGet(now, Math::max);
    try {
      byte[] body;
      try (InputStream in = exchange.getInputStream()) {
        body = in.readAllBytes();
      }
      Map<String, String> headers = new TreeMap<>();
      for (HttpString name : exchange.getRequestHeaders().getHeaderNames()) {
        headers.put(name.toString().toLowerCase(), exchange.getRequestHeaders().getFirst(name));
      }
      String raw =
          exchange.getRequestURI()
              + (exchange.getQueryString().isEmpty() ? "" : "?" + exchange.getQueryString());
      Received request =
          new Received(
              exchange.getRequestMethod().toString(),
              raw,
              Collections.unmodifiableMap(headers),
              body);
      received.add(request);
      String path = exchange.getRequestPath();
      Function<Received, Reply> route = routes.get(request.method() + " " + path);
      if (route == null) {
        route = routes.get("* " + path);
      }
      Reply reply = route == null ? fallback.apply(request) : route.apply(request);
      if (reply.delayMillis() > 0) {
        Thread.sleep(reply.delayMillis());
      }
      if (reply.action() != null) {
        reply.action().handle(exchange);
        return;
      }
      exchange.setStatusCode(reply.status());
      reply.headers().forEach((k, v) -> exchange.getResponseHeaders().add(new HttpString(k), v));
      if (!exchange.getRequestMethod().toString().equals("HEAD")) {
        exchange.getOutputStream().write(reply.body());
      }
      exchange.endExchange();
    } finally {
      inFlight.decrementAndGet();
    }
  }

  static byte[] readAll(InputStream in) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    in.transferTo(out);
    return out.toByteArray();
  }

  @Override
  public void close() {
    server.stop();
  }
}
