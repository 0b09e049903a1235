package io.github.appsetmapper.cli;

import io.github.appsetmapper.upstream.HttpUpstream;
import io.github.appsetmapper.upstream.UpstreamOptions;
import io.github.appsetmapper.upstream.call.HostPolicy;
import io.github.appsetmapper.upstream.limits.RateRule;
import io.github.appsetmapper.upstream.net.Addresses;
import io.github.appsetmapper.upstream.net.ProxySettings;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * The {@code serve} options of the upstream calls: threads, where they may go, how many, memory.
 */
final class UpstreamFlags {
  @Option(
      names = "--upstream-threads",
      paramLabel = "<count>",
      defaultValue = "64",
      description = "Threads and pooled connections for upstream calls (default ${DEFAULT-VALUE}).")
  int upstreamThreads;

  @Option(
      names = "--allowed-hosts",
      split = ",",
      paramLabel = "HOST",
      description =
          "Hosts every request, redirect and page may reach, besides each mapping's allowedHosts"
              + " (comma-separated or repeated; *.example.com for subdomains). Default: any.")
  List<String> allowedHosts = List.of();

  @Option(
      names = "--allow-link-local",
      description =
          "Allow link-local and cloud metadata addresses (169.254.0.0/16, fe80::/10,"
              + " fd00:ec2::254), refused by default after DNS resolution.")
  boolean allowLinkLocal;

  @Option(
      names = "--deny-private-networks",
      description =
          "Also refuse loopback and private addresses (10/8, 172.16/12, 192.168/16,"
              + " 100.64/10, fc00::/7) after DNS resolution.")
  boolean denyPrivateNetworks;

  @Option(
      names = "--host-max-connections",
      paramLabel = "<count>",
      defaultValue = "64",
      description =
          "Calls in flight to one upstream host at most, server-wide (default ${DEFAULT-VALUE}).")
  int hostMaxConnections;

  @Option(
      names = "--host-rate-limit",
      paramLabel = "[HOST=]RATE",
      description =
          "Calls per host at most, like 10/s or 300/m; HOST=RATE for one host (*.example.com"
              + " for subdomains), a bare RATE for every host (repeatable).")
  List<String> hostRateLimits = List.of();

  @Option(
      names = "--memory-budget",
      defaultValue = "128Mi",
      converter = ByteSizeConverter.class,
      paramLabel = "SIZE",
      description =
          "Memory for upstream answers in flight and in the cache (the cache takes at most half);"
              + " a getparams whose answers do not fit is a 503 (default ${DEFAULT-VALUE}, for a"
              + " 512 MiB container).")
  long memoryBudget;

  /** The HTTP transport's settings, its pool sized for {@code workerThreads} beside these. */
  UpstreamOptions options(int workerThreads) {
    List<RateRule> rules = new java.util.ArrayList<>();
    for (String text : hostRateLimits) {
      rules.add(RateRule.parse(text));
    }
    // Every getparams thread may call upstream itself (the list request) beside the enrich
    // threads: the connection pool must hold both, or callers queue on it.
    return UpstreamOptions.defaults(
            workerThreads + upstreamThreads, HttpUpstream.DEFAULT_MAX_BODY_BYTES)
        .withServerHosts(new HostPolicy(allowedHosts.stream().map(String::trim).toList()))
        .withAddresses(new Addresses(allowLinkLocal, denyPrivateNetworks))
        .withHostLimits(hostMaxConnections, rules)
        .withProxies(ProxySettings.fromEnvironment(System::getenv));
  }
}
