package io.github.appsetmapper.upstream.call;

import java.net.URI;

/**
 * An upstream answer, its body already read within the size cap and decompressed. {@code attempts}
 * counts the tries it took (more than one when retries happened); {@code note} says why a retry was
 * not made when one could have been (a {@code Retry-After} past the deadline), or is null. {@code
 * bodyLimit} is 0, or the limit an error answer's body passed: the body was dropped unread past it
 * (only a status that is not 2xx is kept so, for every path that judges a status to judge it).
 * {@code endedByClose}: the body had neither a length nor chunks, its end was the connection
 * closing, so a cut body reads as a whole one (a format whose cut shows nothing refuses it).
 */
public record UpstreamResponse(
    int status,
    Headers headers,
    byte[] body,
    URI uri,
    int attempts,
    String note,
    long bodyLimit,
    boolean endedByClose) {

  public UpstreamResponse(int status, Headers headers, byte[] body, URI uri) {
    this(status, headers, body, uri, 1, null, 0, false);
  }

  public UpstreamResponse(
      int status,
      Headers headers,
      byte[] body,
      URI uri,
      int attempts,
      String note,
      long bodyLimit) {
    this(status, headers, body, uri, attempts, note, bodyLimit, false);
  }

  /** As read from a connection whose closing ended the body. */
  public UpstreamResponse asEndedByClose() {
    return new UpstreamResponse(status, headers, body, uri, attempts, note, bodyLimit, true);
  }

  /** An error answer whose body passed {@code limit} bytes: its status and headers, no body. */
  public static UpstreamResponse bodyDropped(int status, Headers headers, URI uri, long limit) {
    return new UpstreamResponse(status, headers, new byte[0], uri, 1, null, limit);
  }

  /**
   * What follows "answered 500" when the body was dropped ("; its body passed the 10 MiB limit"),
   * else "".
   */
  public String bodyNote() {
    if (bodyLimit <= 0) {
      return "";
    }
    long mib = 1024 * 1024;
    return "; its body passed the "
        + (bodyLimit % mib == 0 ? bodyLimit / mib + " MiB" : bodyLimit + "-byte")
        + " limit";
  }

  public boolean isSuccess() {
    return status >= 200 && status < 300;
  }

  public UpstreamResponse withAttempts(int count, String why) {
    return new UpstreamResponse(status, headers, body, uri, count, why, bodyLimit, endedByClose);
  }

  /**
   * "answered " for a response to {@code asked}, or "was redirected to URL, which answered " when a
   * redirect was followed to another URL: the status is the last hop's, and a message naming only
   * the first URL blamed the wrong server (a 401 from the redirect's target read as the first
   * one's).
   */
  public String answered(UpstreamRequest asked) {
    if (uri == null || uri.equals(asked.uri())) {
      return "answered ";
    }
    return "was redirected to " + UpstreamRequest.shown(uri) + ", which answered ";
  }
}
