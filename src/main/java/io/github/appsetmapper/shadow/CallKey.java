package io.github.appsetmapper.shadow;

import io.github.appsetmapper.upstream.call.UpstreamRequest;

/**
 * When a candidate's call is the live call's: same method, URL, headers, body, token-auth identity,
 * allowed hosts and TLS settings. An answer fetched under other credentials or other hosts is never
 * shared.
 */
final class CallKey {
  private CallKey() {}

  static String of(UpstreamRequest request) {
    var tls = request.settings().tls();
    String key = request.identity() + "\n\nhosts:" + request.hosts().patterns();
    return tls == null ? key : key + "\n\ntls:" + tls;
  }
}
