package io.github.appsetmapper.redis;

import io.github.appsetmapper.files.BoundedFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;

/**
 * The integrity keys for what goes to Redis, read from a file (a Kubernetes Secret): one key per
 * line, {@code ID=SECRET} (a line without an id, with an empty id or an id used twice is refused,
 * naming the line, never the secret), {@code #} comments. The first key seals; every key opens, so
 * that a rotation needs no downtime: add the new key as a second line everywhere, then move it
 * first, then drop the old one. A secret has at least 32 characters; the AES-256 key is derived
 * from it (HMAC-SHA256), never the text itself. The file is read again when it changes.
 */
final class KeyRing {
  static final int MIN_SECRET_CHARS = 32;
  private static final Pattern ID = Pattern.compile("[A-Za-z0-9._-]{1,32}");
  private static final byte[] LABEL =
      "appset-mapper redis AES-256-GCM v1".getBytes(StandardCharsets.US_ASCII);

  /** One key: its id (written with every value it seals) and the AES key. */
  record Key(String id, SecretKey aes) {}

  private final List<Key> keys;
  private final Map<String, Key> byId;

  private KeyRing(List<Key> keys) {
    this.keys = List.copyOf(keys);
    Map<String, Key> map = new LinkedHashMap<>();
    for (Key key : keys) {
      map.putIfAbsent(key.id(), key);
    }
    this.byId = map;
  }

  static KeyRing read(Path file) throws IOException {
    String text;
    try {
      text = BoundedFiles.readText(file, BoundedFiles.SECRET_BYTES);
    } catch (IOException e) {
      throw new IOException(file + ": " + BoundedFiles.reason(e));
    }
    return parse(text, file.toString());
  }

  /**
   * Parses the text of a key file; {@code where} names it in errors, which name the line, never a
   * secret.
   */
  static KeyRing parse(String text, String where) throws IOException {
    List<Key> keys = new ArrayList<>();
    Map<String, Integer> lines = new LinkedHashMap<>();
    int number = 0;
    for (String raw : text.split("\n", -1)) {
      number++;
      String line = raw.strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      int equals = line.indexOf('=');
      if (equals < 0) {
        throw new IOException(
            where + " line " + number + ": not ID=SECRET (an id, '=', then the secret)");
      }
      String id = line.substring(0, equals);
      String secret = line.substring(equals + 1);
      if (id.isEmpty()) {
        throw new IOException(where + " line " + number + ": the id before '=' is empty");
      }
      if (!ID.matcher(id).matches()) {
        throw new IOException(
            where
                + " line "
                + number
                + ": the id before '=' must be 1 to 32 letters, digits, '.', '_' or '-'");
      }
      Integer before = lines.putIfAbsent(id, number);
      if (before != null) {
        throw new IOException(
            where + " line " + number + ": the id '" + id + "' is already on line " + before);
      }
      if (secret.length() < MIN_SECRET_CHARS) {
        throw new IOException(
            where
                + " line "
                + number
                + ": a key needs at least "
                + MIN_SECRET_CHARS
                + " characters (e.g. head -c 48 /dev/urandom | base64)");
      }
      keys.add(new Key(id, derive(secret)));
    }
    if (keys.isEmpty()) {
      throw new IOException(where + ": no key (one ID=SECRET per line)");
    }
    return new KeyRing(keys);
  }

  /** The key that seals. */
  Key sealing() {
    return keys.get(0);
  }

  /** The key with {@code id}, or null. */
  Key opening(String id) {
    return byId.get(id);
  }

  private static SecretKey derive(String secret) throws IOException {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
      return new SecretKeySpec(mac.doFinal(LABEL), "AES");
    } catch (GeneralSecurityException e) {
      throw new IOException("cannot derive a key: " + e.getMessage());
    }
  }
}
