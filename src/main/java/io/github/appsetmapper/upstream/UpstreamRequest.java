package io.github.appsetmapper.upstream;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * One rendered upstream call. {@code sensitiveHeaders} carry credentials and are dropped when a
 * redirect leaves the origin; {@code hosts} is the mapping's {@code allowedHosts}; {@code settings}
 * holds auth, retries, TLS and the deadline.
 */
public record UpstreamRequest(
    String method,
    URI uri,
    Headers headers,
    byte[] body,
    Duration timeout,
    Set<String> sensitiveHeaders,
    HostPolicy hosts,
    CallSettings settings) {

  public UpstreamRequest(
      String method,
      URI uri,
      Headers headers,
      byte[] body,
      Duration timeout,
      Set<String> sensitiveHeaders,
      HostPolicy hosts) {
    this(method, uri, headers, body, timeout, sensitiveHeaders, hosts, CallSettings.PLAIN);
  }

  /** The same call to another URL (a next page): same method, headers and body. */
  public UpstreamRequest withUri(URI next) {
    return new UpstreamRequest(
        method, next, headers, body, timeout, sensitiveHeaders, hosts, settings);
  }

  public UpstreamRequest withSettings(CallSettings next) {
    return new UpstreamRequest(method, uri, headers, body, timeout, sensitiveHeaders, hosts, next);
  }

  /** The same call with a credential header set (replacing one of that name), marked sensitive. */
  public UpstreamRequest withCredential(String name, String value) {
    List<Headers.Header> fields = new ArrayList<>();
    for (Headers.Header h : headers.fields()) {
      if (!h.name().equalsIgnoreCase(name)) {
        fields.add(h);
      }
    }
    fields.add(new Headers.Header(name, value));
    Set<String> sensitive = new HashSet<>(sensitiveHeaders);
    sensitive.add(name.toLowerCase(Locale.ROOT));
    return new UpstreamRequest(
        method, uri, Headers.of(fields), body, timeout, Set.copyOf(sensitive), hosts, settings);
  }

  /** The same call with one more header (a conditional request's validator). */
  public UpstreamRequest withHeader(String name, String value) {
    List<Headers.Header> fields = new ArrayList<>(headers.fields());
    fields.add(new Headers.Header(name, value));
    return new UpstreamRequest(
        method, uri, Headers.of(fields), body, timeout, sensitiveHeaders, hosts, settings);
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
    if (settings.auth() != null) {
      key.append("\n\nauth:").append(settings.auth().identity());
    }
    return key.toString();
  }
}
