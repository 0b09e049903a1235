package io.github.appsetmapper.server;

import io.github.appsetmapper.digest.Sha256;
import io.github.appsetmapper.secret.Redactor;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The secret webhook senders (a registry, CI, GitHub) use to call {@code cache/invalidate}, since
 * they cannot send Argo CD's bearer token: sent as is ({@code Authorization: Bearer <secret>} or
 * GitLab's {@code X-Gitlab-Token}), or as GitHub's {@code X-Hub-Signature-256: sha256=<hex>}, an
 * HMAC-SHA256 of the raw body keyed with it. Compared in constant time. The file is read as the
 * token file is ({@link TokenFile}): several secrets, one per line, are all accepted (a rotation
 * needs no downtime), each obeys {@link TokenRule}, and a file that goes away or breaks the rule
 * keeps the secrets read before, with one WARN line. The secrets are held in the process's
 * redactors while they are accepted.
 */
public final class WebhookSecret {
  private static final String PREFIX = "sha256=";

  private final TokenFile file;
  private volatile Snapshot snapshot;

  private record Snapshot(List<String> secrets, List<Redactor.Held> held) {
    static Snapshot of(List<String> secrets) {
      List<Redactor.Held> held = new ArrayList<>();
      for (String secret : secrets) {
        // A sender that echoes it must not put it in a log line.
        held.add(Redactor.holdForTheProcessUntilReleased(secret));
      }
      return new Snapshot(secrets, List.copyOf(held));
    }
  }

  private WebhookSecret(TokenFile file, List<String> secrets) {
    this.file = file;
    this.snapshot = Snapshot.of(secrets);
  }

  /**
   * The secrets of {@code value}, one per line; an IllegalArgumentException when it breaks the
   * rule.
   */
  public static WebhookSecret fixed(String value) {
    try {
      return new WebhookSecret(null, TokenRule.tokens("the webhook secret", "secret", value));
    } catch (TokenRule.Refused e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
  }

  /**
   * Reads the file now: a missing or empty file, or a line that breaks the rule, stops the server.
   */
  public static WebhookSecret fromFile(Path path) throws IOException {
    TokenFile file = new TokenFile("webhook secret file", "secret", path);
    return new WebhookSecret(file, file.readNow());
  }

  /** 1 when the file was refused at its last look (its secrets read before kept), else 0. */
  public int failingFiles() {
    return file != null && file.failing() ? 1 : 0;
  }

  /** A secret presented as is. */
  public boolean accepts(String presented) {
    if (presented == null || presented.isEmpty()) {
      return false;
    }
    byte[] digest = sha256(presented.strip());
    boolean match = false;
    for (String secret : current()) {
      match |= MessageDigest.isEqual(digest, sha256(secret));
    }
    return match;
  }

  /** A GitHub signature header over {@code body}, keyed with any of the secrets. */
  public boolean acceptsSignature(String header, byte[] body) {
    if (header == null || !header.startsWith(PREFIX)) {
      return false;
    }
    byte[] presented;
    try {
      presented = HexFormat.of().parseHex(header.substring(PREFIX.length()).strip());
    } catch (IllegalArgumentException e) {
      return false;
    }
    boolean match = false;
    for (String secret : current()) {
      match |= MessageDigest.isEqual(hmac(secret, body), presented);
    }
    return match;
  }

  /** {@code sha256=<hex>} of {@code body} keyed with {@code secret}, as GitHub sends it. */
  public static String signature(String secret, byte[] body) {
    return PREFIX + HexFormat.of().formatHex(hmac(secret, body));
  }

  private List<String> current() {
    if (file != null) {
      file.refresh(
          secrets -> {
            Snapshot before = snapshot;
            snapshot = Snapshot.of(secrets);
            before.held().forEach(Redactor.Held::release);
          });
    }
    return snapshot.secrets();
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
