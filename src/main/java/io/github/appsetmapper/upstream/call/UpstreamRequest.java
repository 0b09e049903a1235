package io.github.appsetmapper.upstream.call;

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
 * holds auth, retries, TLS and the deadline; {@code credentials} names what in the request, as the
 * mapping wrote it, carries credentials ({@code auth}, {@code body}, {@code query.key}, ...), or is
 * null: a listing's next page keeps to its first page's origin when it is set.
 */
public record UpstreamRequest(
    String method,
    URI uri,
    Headers headers,
    byte[] body,
    Duration timeout,
    Set<String> sensitiveHeaders,
    HostPolicy hosts,
    CallSettings settings,
    String credentials) {

  /** The same call to another URL (a next page): same method, headers and body. */
  public UpstreamRequest withUri(URI next) {
    return toBuilder().uri(next).build();
  }

  public UpstreamRequest withSettings(CallSettings next) {
    return toBuilder().settings(next).build();
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
    return toBuilder().headers(Headers.of(fields)).sensitiveHeaders(Set.copyOf(sensitive)).build();
  }

  /** The same call with one more header (a conditional request's validator). */
  public UpstreamRequest withHeader(String name, String value) {
    List<Headers.Header> fields = new ArrayList<>(headers.fields());
    fields.add(new Headers.Header(name, value));
    return toBuilder().headers(Headers.of(fields)).build();
  }

  /** The call as errors name it: method and URL, query string kept, user info dropped. */
  public String describe() {
    return method + " " + shown(uri);
  }

  /** {@code uri} as a message shows it: without its user info (a password may stand there). */
  public static String shown(URI uri) {
    String shown = uri.toString();
    if (uri.getRawUserInfo() != null) {
      shown = shown.replace(uri.getRawUserInfo() + "@", "");
    }
    return shown;
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

  /**
   * What makes two calls the same call wherever one's answer serves the other: one getparams'
   * coalescing, the answer cache and Redis ({@code upstream.cache.CacheKey} digests it), shadow's
   * live answers, diff's once-per-call. The call itself ({@link #identity}), the hosts it may reach
   * (an answer fetched under one mapping's allowedHosts must not serve a mapping that forbids its
   * host) and the settings that shape its answer ({@link CallSettings#cacheKeyText}: the response
   * cap, the TLS settings). Never a secret in clear: auth is its identity.
   */
  public String callKey() {
    return identity() + "\n\nhosts:" + hosts.patterns() + settings.cacheKeyText();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding this one's values, to change some of them. */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.method = method;
    b.uri = uri;
    b.headers = headers;
    b.body = body;
    b.timeout = timeout;
    b.sensitiveHeaders = sensitiveHeaders;
    b.hosts = hosts;
    b.settings = settings;
    b.credentials = credentials;
    return b;
  }

  /** Sets the components by name, so that two of one type can never be swapped. */
  public static final class Builder {
    private String method;
    private URI uri;
    private Headers headers = Headers.of(List.of());
    private byte[] body;
    private Duration timeout;
    private Set<String> sensitiveHeaders = Set.of();
    private HostPolicy hosts = HostPolicy.any();
    private CallSettings settings = CallSettings.PLAIN;
    private String credentials;

    private Builder() {}

    public Builder method(String value) {
      this.method = value;
      return this;
    }

    public Builder uri(URI value) {
      this.uri = value;
      return this;
    }

    public Builder headers(Headers value) {
      this.headers = value;
      return this;
    }

    public Builder body(byte[] value) {
      this.body = value;
      return this;
    }

    public Builder timeout(Duration value) {
      this.timeout = value;
      return this;
    }

    public Builder sensitiveHeaders(Set<String> value) {
      this.sensitiveHeaders = value;
      return this;
    }

    public Builder hosts(HostPolicy value) {
      this.hosts = value;
      return this;
    }

    public Builder settings(CallSettings value) {
      this.settings = value;
      return this;
    }

    public Builder credentials(String value) {
      this.credentials = value;
      return this;
    }

    public UpstreamRequest build() {
      return new UpstreamRequest(
          method, uri, headers, body, timeout, sensitiveHeaders, hosts, settings, credentials);
    }
  }
}
