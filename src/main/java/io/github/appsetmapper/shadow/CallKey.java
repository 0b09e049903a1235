package io.github.appsetmapper.shadow;

import io.github.appsetmapper.upstream.call.UpstreamRequest;

/**
 * When a candidate's call is the live call's: {@link UpstreamRequest#callKey}, as for the cache. An
 * answer fetched under other credentials, other hosts, another cap or TLS is never shared.
 */
final class CallKey {
  private CallKey() {}

  static String of(UpstreamRequest request) {
    // The one rule of a shared answer; it had left the response cap out (a YAML call took the
    // answer a JSON call read under a smaller cap).
    return request.callKey();
  }
}
