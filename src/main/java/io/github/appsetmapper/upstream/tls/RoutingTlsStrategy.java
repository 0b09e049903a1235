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

  private final Map<String, TlsSocketStrategy> strategies = new ConcurrentHashMap<>();

  /**
   * The JVM's default TLS setup (one per JVM), made when first needed or ahead of it by {@link
   * #prepareSystemDefault} on another thread: reading the JVM's trust store (about 150
   * certificates, 260 classes) took a quarter of the start to the first answer.
   */
  private static volatile TlsSocketStrategy system;

  private static TlsSocketStrategy system() throws IOException {
    TlsSocketStrategy made = system;
    if (made == null) {
      synchronized (RoutingTlsStrategy.class) {
        made = system;
        if (made == null) {
          try {
            made = DefaultClientTlsStrategy.createSystemDefault();
          } catch (RuntimeException e) {
            // A broken trust store (javax.net.ssl.trustStore naming a bad file) fails the calls
            // that need it, each saying so; the next one tries again.
            throw new IOException("the JVM's default TLS setup cannot be made", e);
          }
          system = made;
        }
      }
    }
    return made;
  }

  /**
   * Makes the JVM's default TLS setup now (serve calls it on a thread of its own while it loads the
   * mappings); a failure is left for the first call that needs it to report.
   */
  public static void prepareSystemDefault() {
    try {
      system();
    } catch (IOException e) {
      // Reported by the call that needs it.
    }
  }

  @Override
  public SSLSocket upgrade(
      Socket socket, String target, int port, Object attachment, HttpContext context)
      throws IOException {
    Object material = context == null ? null : context.getAttribute(ATTRIBUTE);
    if (!(material instanceof TlsContexts.Material chosen)) {
      return system().upgrade(socket, target, port, attachment, context);
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
