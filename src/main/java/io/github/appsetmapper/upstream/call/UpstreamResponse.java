package io.github.appsetmapper.upstream.call;

import java.net.URI;

/**
 * An upstream answer, its body already read within the size cap and decompressed. {@code attempts}
 * counts the tries it took (more than one when retries happened); {@code note} says why a retry was
 * not made when one could have been (a {@code Retry-After} past the deadline), or is null.
 */
public record UpstreamResponse(
    int status, Headers headers, byte[] body, URI uri, int attempts, String note) {

  public UpstreamResponse(int status, Headers headers, byte[] body, URI uri) {
    this(status, headers, body, uri, 1, null);
  }

  public boolean isSuccess() {
    return status >= 200 && status < 300;
  }

  public UpstreamResponse withAttempts(int count, String why) {
    return new UpstreamResponse(status, headers, body, uri, count, why);
  }
}
