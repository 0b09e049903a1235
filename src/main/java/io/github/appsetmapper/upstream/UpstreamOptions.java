package io.github.appsetmapper.upstream;

import io.github.appsetmapper.upstream.call.HostPolicy;
import io.github.appsetmapper.upstream.limits.RateRule;
import io.github.appsetmapper.upstream.net.Addresses;
import io.github.appsetmapper.upstream.net.ProxySettings;
import java.util.List;
import org.apache.hc.client5.http.DnsResolver;
import org.apache.hc.client5.http.SystemDefaultDnsResolver;

/**
 * Server-wide settings of the HTTP upstream ({@code serve}'s flags): pool size, response size cap,
 * the server's {@code --allowed-hosts} (checked besides each mapping's), which resolved addresses
 * may be reached, per-host limits, proxies, and the DNS resolver (tests inject their own).
 */
public record UpstreamOptions(
    int maxConnections,
    long maxBodyBytes,
    HostPolicy serverHosts,
    Addresses addresses,
    int maxConnectionsPerHost,
    List<RateRule> rateLimits,
    ProxySettings proxies,
    DnsResolver dnsResolver) {

  public static final int DEFAULT_MAX_CONNECTIONS_PER_HOST = 16;

  /** Defaults: any host, link-local refused, 16 connections per host, no rate limit, no proxy. */
  public static UpstreamOptions defaults(int maxConnections, long maxBodyBytes) {
    return new UpstreamOptions(
        maxConnections,
        maxBodyBytes,
        HostPolicy.any(),
        Addresses.DEFAULT,
        Math.min(maxConnections, DEFAULT_MAX_CONNECTIONS_PER_HOST),
        List.of(),
        ProxySettings.NONE,
        SystemDefaultDnsResolver.INSTANCE);
  }

  public UpstreamOptions withServerHosts(HostPolicy hosts) {
    return new UpstreamOptions(
        maxConnections,
        maxBodyBytes,
        hosts,
        addresses,
        maxConnectionsPerHost,
        rateLimits,
        proxies,
        dnsResolver);
  }

  public UpstreamOptions withAddresses(Addresses policy) {
    return new UpstreamOptions(
        maxConnections,
        maxBodyBytes,
        serverHosts,
        policy,
        maxConnectionsPerHost,
        rateLimits,
        proxies,
        dnsResolver);
  }

  public UpstreamOptions withHostLimits(int perHost, List<RateRule> rules) {
    return new UpstreamOptions(
        maxConnections,
        maxBodyBytes,
        serverHosts,
        addresses,
        perHost,
        List.copyOf(rules),
        proxies,
        dnsResolver);
  }

  public UpstreamOptions withProxies(ProxySettings settings) {
    return new UpstreamOptions(
        maxConnections,
        maxBodyBytes,
        serverHosts,
        addresses,
        maxConnectionsPerHost,
        rateLimits,
        settings,
        dnsResolver);
  }

  public UpstreamOptions withDnsResolver(DnsResolver resolver) {
    return new UpstreamOptions(
        maxConnections,
        maxBodyBytes,
        serverHosts,
        addresses,
        maxConnectionsPerHost,
        rateLimits,
        proxies,
        resolver);
  }
}
