package io.github.appsetmapper.upstream.limits;

import io.github.appsetmapper.upstream.call.HostPolicy;
import java.util.List;
import java.util.Locale;

/**
 * An outgoing rate limit: at most {@code perSecond} calls per second to each host that {@code
 * hosts} matches (every host when it is null). Written {@code 10/s}, {@code 300/m} or {@code
 * api.github.com=5/s} ({@code *.example.com=...} for subdomains).
 */
public record RateRule(String hosts, double perSecond) {

  /**
   * @throws IllegalArgumentException with a message saying how to write it
   */
  public static RateRule parse(String text) {
    String host = null;
    String rate = text.trim();
    int equals = rate.indexOf('=');
    if (equals >= 0) {
      host = rate.substring(0, equals).trim().toLowerCase(Locale.ROOT);
      rate = rate.substring(equals + 1).trim();
    }
    String[] parts = rate.split("/");
    try {
      double count = Double.parseDouble(parts[0]);
      double seconds =
          parts.length == 1
              ? 1
              : switch (parts[1].trim()) {
                case "s" -> 1;
                case "m" -> 60;
                case "h" -> 3600;
                default -> throw new NumberFormatException();
              };
      if (parts.length > 2 || count <= 0 || (host != null && host.isEmpty())) {
        throw new NumberFormatException();
      }
      return new RateRule(host, count / seconds);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "invalid rate limit '" + text + "'; write it like 10/s, 300/m or api.github.com=5/s");
    }
  }

  public boolean matches(String host) {
    return hosts == null || new HostPolicy(List.of(hosts)).allows(host);
  }
}
