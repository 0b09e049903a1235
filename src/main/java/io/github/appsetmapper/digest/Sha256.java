package io.github.appsetmapper.digest;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * SHA-256, the one way every part of appset-mapper takes a digest. A getparams takes several (its
 * input's key, each call's key, the drop guard's keys): {@code MessageDigest.getInstance} looks the
 * algorithm up among the security providers and makes the engine by reflection each time, so a
 * fresh digest here is a copy of one made at start instead, and a whole message is digested by the
 * thread's own (no allocation per digest: a getparams takes several).
 */
public final class Sha256 {
  private static final MessageDigest PROTOTYPE = lookUp();

  /** Used only within {@link #of(byte[])}, which finishes (and so resets) it before returning. */
  private static final ThreadLocal<MessageDigest> THREADS = ThreadLocal.withInitial(Sha256::fresh);

  private Sha256() {}

  /** A digest of its own for the caller to update and finish (for streamed input). */
  public static MessageDigest fresh() {
    try {
      return (MessageDigest) PROTOTYPE.clone();
    } catch (CloneNotSupportedException e) {
      return lookUp(); // no provider of SHA-256 in the JDK refuses a copy; any other still works
    }
  }

  public static byte[] of(byte[] bytes) {
    return THREADS.get().digest(bytes);
  }

  /** The digest of the text's UTF-8 bytes. */
  public static byte[] of(String text) {
    return of(text.getBytes(StandardCharsets.UTF_8));
  }

  /** The digest of the text's UTF-8 bytes, in lower-case hexadecimal (64 characters). */
  public static String hex(String text) {
    return HexFormat.of().formatHex(of(text));
  }

  private static MessageDigest lookUp() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }
}
