package io.github.appsetmapper.upstream.call;

import java.net.URI;
import java.util.List;
import java.util.Locale;

/**
 * {@code allowedHosts}: exact host names or {@code *.example.com} (any subdomain, not the apex).
 * Empty allows every host.
 */
public record HostPolicy(List<String> patterns) {

  /** Every host: made once, not per upstream request that starts from the default. */
  private static final HostPolicy ANY = new HostPolicy(List.of());

  public HostPolicy {
    patterns = patterns.stream().map(p -> p.toLowerCase(Locale.ROOT)).toList();
  }

  public static HostPolicy any() {
    return ANY;
  }

  public boolean restricts() {
    return !patterns.isEmpty();
  }

  public boolean allows(URI uri) {
    return uri.getHost() != null && allows(uri.getHost());
  }

  public boolean allows(String host) {
    if (patterns.isEmpty()) {
      return true;
    }
    String h = host.toLowerCase(Locale.ROOT);
    for (String pattern : patterns) {
      if (pattern.startsWith("*.")
          ? h.endsWith(pattern.substring(1)) && h.length() > pattern.length() - 1
          : h.equals(pattern)) {
        return true;
      }
    }
    return false;
  }

  /** Same scheme, host and port: where credentials may follow a redirect or a next link. */
  public static boolean sameOrigin(URI a, URI b) {
    return a.getScheme().equalsIgnoreCase(b.getScheme())
        && a.getHost().equalsIgnoreCase(b.getHost())
        && port(a) == port(b);
  }

  /**
   * {@code uri}'s origin as a message names it, {@code https://host:port}: never its user info (a
   * password may stand there, in a next link or a {@code Location} an upstream wrote).
   */
  public static String origin(URI uri) {
    return uri.getScheme()
        + "://"
        + uri.getHost()
        + (uri.getPort() >= 0 ? ":" + uri.getPort() : "");
  }

  private static int port(URI uri) {
    if (uri.getPort() >= 0) {
      return uri.getPort();
    }
    return uri.getScheme().equalsIgnoreCase("https") ? 443 : 80;
  }
}
