package io.github.appsetmapper.upstream.call;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** SHA-256 of credentials, so that cache keys never hold a secret in clear. */
public final class Digests {
  private Digests() {}

  public static String sha256(String text) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256")
              .digest((text == null ? "" : text).getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }
}
