package io.github.appsetmapper.upstream.net;

import org.apache.hc.client5.http.impl.DefaultSchemePortResolver;
import org.apache.hc.client5.http.impl.routing.DefaultRoutePlanner;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.http.protocol.HttpContext;

/** Routes each call through the proxy {@link ProxySettings} names for its target, or directly. */
public final class ProxyRoutePlanner extends DefaultRoutePlanner {
  private final ProxySettings settings;

  public ProxyRoutePlanner(ProxySettings settings) {
    super(DefaultSchemePortResolver.INSTANCE);
    this.settings = settings;
  }

  @Override
  protected HttpHost determineProxy(HttpHost target, HttpContext context) {
    int port = target.getPort();
    if (port < 0) {
      port = "https".equalsIgnoreCase(target.getSchemeName()) ? 443 : 80;
    }
    ProxySettings.Proxy proxy =
        settings.proxyFor(target.getSchemeName(), target.getHostName(), port);
    return proxy == null ? null : proxy.host();
  }
}
