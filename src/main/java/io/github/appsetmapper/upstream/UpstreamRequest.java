package io.github.appsetmapper.upstream;

import java.net.URI;
import java.time.Duration;
import java.util.Set;

/**
 * One rendered upstream call. {@code sensitiveHeaders} carry credentials and are dropped when a
 * redirect leaves the origin; {@code hosts} is the mapping's {@code allowedHosts}.
 */
public record UpstreamRequest(
    String method,
    URI uri,
    Headers headers,
    byte[] body,
    Duration timeout,
    Set<String> sensitiveHeaders,
    HostPolicy hosts) {

  /** The same call to another URL (a next page): same method, headers and body. */
  public UpstreamRequest withUri(URI next) {
    return new UpstreamRequest(method, next, headers, body, timeout, sensitiveHeaders, hosts);
  }

  /** What makes two calls identical, for coalescing within one getparams. */
  public String identity() {
    StringBuilder key = new StringBuilder(method).append(' ').append(uri);
    for (Headers.Header h : headers.fields()) {
      key.append('\n').append(h.name().toLowerCase()).append(':').append(h.value());
    }
    if (body != null) {
      key.append("\n\n").append(new String(body, java.nio.charset.StandardCharsets.UTF_8));
    }
    return key.toString();
  }
}
