package io.github.appsetmapper.upstream.tls;

import java.io.IOException;
import java.net.Socket;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.net.ssl.SSLSocket;
import org.apache.hc.client5.http.ssl.DefaultClientTlsStrategy;
import org.apache.hc.client5.http.ssl.HostnameVerificationPolicy;
import org.apache.hc.client5.http.ssl.NoopHostnameVerifier;
import org.apache.hc.client5.http.ssl.TlsSocketStrategy;
import org.apache.hc.core5.http.protocol.HttpContext;

/**
 * One pool, many TLS setups: each call names its {@link TlsContexts.Material} in its context, and
 * the connection is upgraded with that context (the JVM's default when none). Pooled connections
 * are kept apart by the material's version (the call's user token), so a connection made with one
 * client certificate never serves a call with another.
 */
public final class RoutingTlsStrategy implements TlsSocketStrategy {
  public static final String ATTRIBUTE = "appset-mapper.tls";

  private final TlsSocketStrategy system = DefaultClientTlsStrategy.createSystemDefault();
  private final Map<String, TlsSocketStrategy> strategies = new ConcurrentHashMap<>();

  @Override
  public SSLSocket upgrade(
      Socket socket, String target, int port, Object attachment, HttpContext context)
      throws IOException {
    Object material = context == null ? null : context.getAttribute(ATTRIBUTE);
    if (!(material instanceof TlsContexts.Material chosen)) {
      return system.upgrade(socket, target, port, attachment, context);
    }
    if (strategies.size() > 100) {
      strategies.clear();
    }
    TlsSocketStrategy strategy =
        strategies.computeIfAbsent(
            chosen.version(),
            v ->
                chosen.verifyHostnames()
                    ? new DefaultClientTlsStrategy(chosen.context())
                    : new DefaultClientTlsStrategy(
                        chosen.context(),
                        HostnameVerificationPolicy.CLIENT,
                        NoopHostnameVerifier.INSTANCE));
    return strategy.upgrade(socket, target, port, attachment, context);
  }
}
