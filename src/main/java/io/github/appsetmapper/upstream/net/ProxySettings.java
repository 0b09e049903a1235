package io.github.appsetmapper.upstream.net;

import io.github.appsetmapper.secret.Redactor;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;
import org.apache.hc.core5.http.HttpHost;

/**
 * Corporate proxies from the environment, read the way curl reads them: {@code http_proxy} for http
 * URLs and {@code https_proxy} for https URLs, then {@code all_proxy}, each in lower case first and
 * then in upper case ({@code HTTP_PROXY} too, which curl ignores for CGI reasons that do not apply
 * to a server); a proxy without a scheme is {@code http://} and without a port uses 1080, as curl
 * does. {@code no_proxy}/{@code NO_PROXY}: {@code *} for every host, else comma-separated names (a
 * leading dot is optional; a name matches itself and its subdomains), IP addresses and CIDR ranges
 * (matched against IP-literal URLs), optionally with {@code :port}.
 */
public record ProxySettings(Proxy http, Proxy https, List<String> noProxy) {
  /** A proxy and its optional Basic credentials (from {@code http://user:pass@host:port}). */
  public record Proxy(HttpHost host, String username, String password) {
    @Override
    public String toString() {
      return host.toURI();
    }
  }

  public static final ProxySettings NONE = new ProxySettings(null, null, List.of());

  /**
   * @throws IllegalArgumentException for a proxy URL that cannot be used (another scheme)
   */
  public static ProxySettings fromEnvironment(Function<String, String> env) {
    Proxy http = proxy(first(env, "http_proxy", "HTTP_PROXY", "all_proxy", "ALL_PROXY"));
    Proxy https = proxy(first(env, "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"));
    String no = first(env, "no_proxy", "NO_PROXY");
    List<String> entries = new ArrayList<>();
    if (no != null) {
      for (String entry : no.split("[,\\s]+")) {
        if (!entry.isBlank()) {
          entries.add(entry.trim().toLowerCase(Locale.ROOT));
        }
      }
    }
    return new ProxySettings(http, https, List.copyOf(entries));
  }

  /** The proxy hosts, which the address checks leave alone. */
  public Set<String> proxyHosts() {
    List<String> hosts = new ArrayList<>();
    if (http != null) {
      hosts.add(http.host().getHostName());
    }
    if (https != null) {
      hosts.add(https.host().getHostName());
    }
    return Set.copyOf(hosts);
  }

  /** The proxy for a target, or null to connect directly. */
  public Proxy proxyFor(String scheme, String host, int port) {
    Proxy proxy = "https".equalsIgnoreCase(scheme) ? https : http;
    if (proxy == null || bypass(host, port)) {
      return null;
    }
    return proxy;
  }

  boolean bypass(String host, int port) {
    String h = host.toLowerCase(Locale.ROOT);
    if (h.startsWith("[") && h.endsWith("]")) {
      h = h.substring(1, h.length() - 1);
    }
    for (String entry : noProxy) {
      if (entry.equals("*")) {
        return true;
      }
      String name = entry;
      int entryPort = -1;
      int colon = entry.lastIndexOf(':');
      if (colon > 0 && entry.indexOf(':') == colon && entry.substring(colon + 1).matches("\\d+")) {
        name = entry.substring(0, colon);
        entryPort = Integer.parseInt(entry.substring(colon + 1));
      }
      if (entryPort >= 0 && entryPort != port) {
        continue;
      }
      if (name.startsWith("[") && name.endsWith("]")) {
        name = name.substring(1, name.length() - 1);
      }
      if (name.contains("/")) {
        if (inCidr(h, name)) {
          return true;
        }
        continue;
      }
      if (name.startsWith(".")) {
        name = name.substring(1);
      } else if (name.startsWith("*.")) {
        name = name.substring(2);
      }
      if (h.equals(name) || h.endsWith("." + name)) {
        return true;
      }
    }
    return false;
  }

  private static boolean inCidr(String host, String cidr) {
    InetAddress hostAddress = Addresses.literal(host);
    int slash = cidr.indexOf('/');
    InetAddress networkAddress = Addresses.literal(cidr.substring(0, slash));
    if (hostAddress == null || networkAddress == null) {
      return false;
    }
    try {
      byte[] network = networkAddress.getAddress();
      byte[] address = hostAddress.getAddress();
      int bits = Integer.parseInt(cidr.substring(slash + 1));
      if (network.length != address.length || bits > network.length * 8) {
        return false;
      }
      for (int i = 0; i < bits; i++) {
        int mask = 0x80 >> (i % 8);
        if ((network[i / 8] & mask) != (address[i / 8] & mask)) {
          return false;
        }
      }
      return true;
    } catch (NumberFormatException e) {
      return false;
    }
  }

  private static String first(Function<String, String> env, String... names) {
    for (String name : names) {
      String value = env.apply(name);
      if (value != null && !value.isBlank()) {
        return value.trim();
      }
    }
    return null;
  }

  private static Proxy proxy(String text) {
    if (text == null) {
      return null;
    }
    String withScheme = text.contains("://") ? text : "http://" + text;
    URI uri;
    try {
      uri = new URI(withScheme);
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("proxy '" + redacted(text) + "' is not a URL");
    }
    if (!"http".equalsIgnoreCase(uri.getScheme()) || uri.getHost() == null) {
      throw new IllegalArgumentException(
          "proxy '" + redacted(text) + "': only http:// proxies are supported");
    }
    String username = null;
    String password = null;
    if (uri.getUserInfo() != null) {
      int colon = uri.getUserInfo().indexOf(':');
      username = colon < 0 ? uri.getUserInfo() : uri.getUserInfo().substring(0, colon);
      password = colon < 0 ? "" : uri.getUserInfo().substring(colon + 1);
      // Sent in Proxy-Authorization on every call, and a proxy may quote it in its error:
      // secrets of the process, scrubbed by every redactor (the pair covers Basic whole, and a
      // short password; the user info as written, its percent-encoded form).
      if (colon >= 0) {
        // A user name alone is no secret (and would mask a word such as "corp" everywhere).
        Redactor.holdForTheProcess(password);
        Redactor.holdForTheProcess(uri.getUserInfo());
        Redactor.holdForTheProcess(uri.getRawUserInfo());
      }
    }
    return new Proxy(
        new HttpHost("http", uri.getHost(), uri.getPort() < 0 ? 1080 : uri.getPort()),
        username,
        password);
  }

  /**
   * The proxy URL without its user info, for a message: everything before the last '@' of the
   * authority (a password may hold '/', ':' or '@'), with or without a scheme.
   */
  static String redacted(String text) {
    int scheme = text.indexOf("://");
    int start = scheme < 0 ? 0 : scheme + 3;
    int at = text.lastIndexOf('@');
    return at < start ? text : text.substring(0, start) + "***" + text.substring(at);
  }
}
