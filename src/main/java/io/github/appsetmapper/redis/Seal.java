package io.github.appsetmapper.redis;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.HexFormat;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;

/**
 * Every value and message this server puts in Redis, sealed with AES-256-GCM (the JDK's): others
 * may read this Redis, and what comes back decides what Argo CD creates and deletes. A sealed value
 * is a header in clear, a nonce and the ciphertext with its tag:
 *
 * <pre>
 * "AM" 1 | key id length | key id | stored (ms) | expires (ms, 0: never) | seq | version (16 bytes)
 * | nonce (12 bytes) | ciphertext + tag (16 bytes)
 * </pre>
 *
 * The associated data is the Redis key name (or channel) followed by the header, so a value cannot
 * be moved to another key, nor its times or seq changed, and a value past its expiry is refused (a
 * replay). The version and seq are in clear so that a copy can be confirmed by reading the header
 * alone ({@code GETRANGE}).
 */
final class Seal {
  static final int HEADER_MAX = 3 + 1 + 32 + 8 + 8 + 8 + 16;
  private static final int NONCE = 12;
  private static final int TAG_BITS = 128;

  /** Tolerated difference between replicas' clocks when judging an expiry. */
  static final long CLOCK_SLACK_MILLIS = 60_000;

  private static final SecureRandom RANDOM = new SecureRandom();

  /** The clear header of a sealed value. */
  record Header(
      String keyId, long storedAt, long expiresAt, long seq, String version, int length) {}

  /** An opened value: its header and the plaintext. */
  record Opened(Header header, byte[] plain) {}

  /** A value that does not open: never used, counted. */
  static final class Refused extends Exception {
    private static final long serialVersionUID = 1L;

    Refused(String why) {
      super(why, null, false, false);
    }
  }

  private final Keys keys;

  Seal(Keys keys) {
    this.keys = keys;
  }

  static String newVersion() {
    byte[] id = new byte[16];
    RANDOM.nextBytes(id);
    return HexFormat.of().formatHex(id);
  }

  /** The id of the key that seals now (not secret: it is written in clear in every value). */
  String sealingKeyId() {
    return keys.ring().sealing().id();
  }

  /** Seals {@code plain} for the key (or channel) {@code name}. */
  byte[] seal(String name, long storedAt, long expiresAt, long seq, String version, byte[] plain) {
    KeyRing.Key key = keys.ring().sealing();
    byte[] id = key.id().getBytes(StandardCharsets.US_ASCII);
    byte[] versionBytes = HexFormat.of().parseHex(version);
    ByteBuffer header = ByteBuffer.allocate(3 + 1 + id.length + 24 + 16);
    header.put((byte) 'A').put((byte) 'M').put((byte) 1).put((byte) id.length).put(id);
    header.putLong(storedAt).putLong(expiresAt).putLong(seq).put(versionBytes);
    byte[] nonce = new byte[NONCE];
    RANDOM.nextBytes(nonce);
    try {
      Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
      cipher.init(Cipher.ENCRYPT_MODE, key.aes(), new GCMParameterSpec(TAG_BITS, nonce));
      cipher.updateAAD(associated(name, header.array()));
      byte[] sealed = cipher.doFinal(plain);
      return ByteBuffer.allocate(header.capacity() + NONCE + sealed.length)
          .put(header.array())
          .put(nonce)
          .put(sealed)
          .array();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("AES-GCM is not available", e);
    }
  }

  /** Opens a value read from {@code name}; refused when it does not open or has expired. */
  Opened open(String name, byte[] value, long now) throws Refused {
    Header header = header(value);
    KeyRing.Key key = keys.ring().opening(header.keyId());
    if (key == null) {
      throw new Refused("unknown key id");
    }
    if (value.length < header.length() + NONCE + TAG_BITS / 8) {
      throw new Refused("truncated");
    }
    try {
      Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
      cipher.init(
          Cipher.DECRYPT_MODE,
          key.aes(),
          new GCMParameterSpec(TAG_BITS, value, header.length(), NONCE));
      cipher.updateAAD(associated(name, Arrays.copyOf(value, header.length())));
      int start = header.length() + NONCE;
      byte[] plain = cipher.doFinal(value, start, value.length - start);
      if (header.expiresAt() != 0 && now > header.expiresAt() + CLOCK_SLACK_MILLIS) {
        throw new Refused("expired");
      }
      return new Opened(header, plain);
    } catch (javax.crypto.AEADBadTagException e) {
      throw new Refused("tag mismatch");
    } catch (GeneralSecurityException e) {
      throw new Refused("does not open: " + e.getClass().getSimpleName());
    }
  }

  /** The header alone (from a {@code GETRANGE} of the first {@link #HEADER_MAX} bytes). */
  static Header header(byte[] value) throws Refused {
    if (value == null
        || value.length < 4
        || value[0] != 'A'
        || value[1] != 'M'
        || value[2] != 1
        || value[3] < 1
        || value[3] > 32) {
      throw new Refused("not a sealed value");
    }
    int idLength = value[3];
    int length = 4 + idLength + 24 + 16;
    if (value.length < length) {
      throw new Refused("truncated");
    }
    ByteBuffer buffer = ByteBuffer.wrap(value);
    String id = new String(value, 4, idLength, StandardCharsets.US_ASCII);
    buffer.position(4 + idLength);
    long stored = buffer.getLong();
    long expires = buffer.getLong();
    long seq = buffer.getLong();
    String version = HexFormat.of().formatHex(value, 4 + idLength + 24, length);
    return new Header(id, stored, expires, seq, version, length);
  }

  private static byte[] associated(String name, byte[] header) {
    byte[] key = name.getBytes(StandardCharsets.UTF_8);
    return ByteBuffer.allocate(key.length + 1 + header.length)
        .put(key)
        .put((byte) 0)
        .put(header)
        .array();
  }
}
