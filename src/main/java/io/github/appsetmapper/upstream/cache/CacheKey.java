package io.github.appsetmapper.upstream.cache;

import io.github.appsetmapper.digest.Sha256;
import io.github.appsetmapper.upstream.call.UpstreamRequest;

/**
 * The key of an upstream answer: a SHA-256 of the final request (method, URL, every header, body,
 * the identity of token-based auth, and the TLS settings, since a client certificate is a
 * credential too). Two mappings or inputs making the same call share it; calls made with other
 * credentials do not, and the key never holds a secret in clear.
 */
final class CacheKey {
  private CacheKey() {}

  static String of(UpstreamRequest request) {
    return Sha256.hex(text(request));
  }

  private static String text(UpstreamRequest request) {
    return request.callKey();
  }
}
