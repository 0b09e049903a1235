package io.github.appsetmapper.upstream.call;

import io.github.appsetmapper.digest.Sha256;

/** SHA-256 of credentials, so that cache keys never hold a secret in clear. */
public final class Digests {
  private Digests() {}

  public static String sha256(String text) {
    return Sha256.hex(text == null ? "" : text);
  }
}
