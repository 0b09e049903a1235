package io.github.appsetmapper.server;

import io.github.appsetmapper.digest.Sha256;
import io.github.appsetmapper.files.BoundedFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The secret webhook senders (a registry, CI, GitHub) use to call {@code cache/invalidate}, since
 * they cannot send Argo CD's bearer token: sent as is ({@code Authorization: Bearer <secret>} or
 * GitLab's {@code X-Gitlab-Token}), or as GitHub's {@code X-Hub-Signature-256: sha256=<hex>}, an
 * HMAC-SHA256 of the raw body keyed with it. Compared in constant time; the file is re-read when it
 * changes (its first line, trimmed).
 */
public final class WebhookSecret {
  private static final String PREFIX = "sha256=";

  private final Path file;
  private volatile String value;
  private volatile long modified = -1;

  private WebhookSecret(Path file, String value) {
    this.file = file;
    this.value = value;
  }

  public static WebhookSecret fixed(String value) {
    return new WebhookSecret(null, value.strip());
  }

  /** Reads the file now: a missing or empty file stops the server at start. */
  public static WebhookSecret fromFile(Path file) throws IOException {
    WebhookSecret secret = new WebhookSecret(file, null);
    secret.refresh();
    if (secret.value == null || secret.value.isEmpty()) {
      throw new IOException("webhook secret file " + file + " is empty");
    }
    return secret;
  }

  /** The secret presented as is. */
  public boolean accepts(String presented) {
    String secret = current();
    if (presented == null || presented.isEmpty() || secret == null || secret.isEmpty()) {
      return false;
    }
    return MessageDigest.isEqual(sha256(presented.strip()), sha256(secret));
  }

  /** A GitHub signature header over {@code body}. */
  public boolean acceptsSignature(String header, byte[] body) {
    String secret = current();
    if (header == null || !header.startsWith(PREFIX) || secret == null || secret.isEmpty()) {
      return false;
    }
    byte[] presented;
    try {
      presented = HexFormat.of().parseHex(header.substring(PREFIX.length()).strip());
    } catch (IllegalArgumentException e) {
      return false;
    }
    return MessageDigest.isEqual(hmac(secret, body), presented);
  }

  /** {@code sha256=<hex>} of {@code body} keyed with {@code secret}, as GitHub sends it. */
  public static String signature(String secret, byte[] body) {
    return PREFIX + HexFormat.of().formatHex(hmac(secret, body));
  }

  private String current() {
    if (file != null) {
      try {
        refresh();
      } catch (IOException e) {
        // Mid-rotation the file can vanish for a moment: keep the secret last read.
      }
    }
    return value;
  }

  private void refresh() throws IOException {
    long now = Files.getLastModifiedTime(file).toMillis();
    if (now == modified && value != null) {
      return;
    }
    String content;
    try {
      content = BoundedFiles.readText(file, BoundedFiles.SECRET_BYTES).strip();
    } catch (IOException e) {
      throw new IOException("webhook secret file " + file + ": " + BoundedFiles.reason(e));
    }
    int newline = content.indexOf('\n');
    value = (newline < 0 ? content : content.substring(0, newline)).strip();
    modified = now;
  }

  private static byte[] hmac(String secret, byte[] body) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
      return mac.doFinal(body);
    } catch (NoSuchAlgorithmException | InvalidKeyException e) {
      throw new IllegalStateException(e);
    }
  }

  private static byte[] sha256(String text) {
    return Sha256.of(text);
  }
}
