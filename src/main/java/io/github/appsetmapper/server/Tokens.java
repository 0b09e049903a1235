package io.github.appsetmapper.server;

import io.github.appsetmapper.digest.Sha256;
import io.github.appsetmapper.secret.Redactor;
import java.io.IOException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;

/**
 * The accepted bearer tokens: from {@code APPSET_MAPPER_TOKEN}, or from the token file, re-read
 * when it changes. Several tokens, one per line, are all accepted, so a rotation needs no downtime.
 * Comparison is in constant time over digests of equal length; an empty token never matches. A
 * leading byte order mark and CR LF line ends (a file saved on Windows) are not part of a token.
 * Every token obeys {@link TokenRule}: at start a source that breaks it stops the server; a
 * rotation that breaks it, or a file that goes away, keeps the tokens read before ({@link
 * TokenFile}).
 *
 * <p>The file is looked at (a stat) at most once per {@link #RECHECK_NANOS} for a token that
 * matches, and at once for one that does not: a token added by a rotation works on its first use, a
 * removed one stops within a second, and a getparams does not stat a file each time.
 */
public final class Tokens {
  static final long RECHECK_NANOS = 1_000_000_000L;

  private final TokenFile file;
  private volatile Snapshot snapshot;
  private volatile long checkedNanos;

  /**
   * @param held the tokens' holds in the process's redactors, released when a rotation replaces
   *     them: a token no longer accepted is no longer this server's secret, and a file rotated
   *     every hour would otherwise add a token to every redaction each hour for as long as it runs
   */
  private record Snapshot(List<byte[]> digests, List<Redactor.Held> held) {
    static Snapshot of(List<String> tokens) {
      List<byte[]> digests = new ArrayList<>();
      List<Redactor.Held> held = new ArrayList<>();
      for (String token : tokens) {
        digests.add(sha256(token));
        // The server's own token is a secret like any other: a caller who echoes it (in a path,
        // an input an error quotes) must not put it in a log line a log reader sees.
        held.add(Redactor.holdForTheProcessUntilReleased(token));
      }
      return new Snapshot(List.copyOf(digests), List.copyOf(held));
    }
  }

  private Tokens(TokenFile file, List<String> tokens) {
    this.file = file;
    this.snapshot = Snapshot.of(tokens);
    this.checkedNanos = System.nanoTime();
  }

  /**
   * The tokens of {@code value}, one per line; an IllegalArgumentException when it breaks the rule.
   */
  public static Tokens fixed(String value) {
    try {
      return fromEnvironment("the value", value);
    } catch (TokenRule.Refused e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
  }

  /**
   * The tokens of the environment variable {@code name}, one per line, refused by {@link
   * TokenRule}.
   */
  public static Tokens fromEnvironment(String name, String value) throws TokenRule.Refused {
    return new Tokens(null, TokenRule.tokens(name, "token", value));
  }

  /**
   * Reads the file now, so a missing file (a {@link java.nio.file.NoSuchFileException}), an
   * unreadable or empty one, or one with a line that breaks the rule stops the server at start.
   */
  public static Tokens fromFile(Path path) throws IOException {
    TokenFile file = new TokenFile("token file", "token", path);
    return new Tokens(file, file.readNow());
  }

  /** 1 when the token file was refused at its last look (its tokens read before kept), else 0. */
  public int failingFiles() {
    return file != null && file.failing() ? 1 : 0;
  }

  public boolean accepts(String presented) {
    if (presented == null || presented.isEmpty()) {
      return false;
    }
    byte[] digest = sha256(presented);
    if (file != null && System.nanoTime() - checkedNanos >= RECHECK_NANOS) {
      refresh();
    }
    if (matches(digest)) {
      return true;
    }
    if (file != null) {
      // Perhaps a rotation added it since the last look.
      refresh();
      return matches(digest);
    }
    return false;
  }

  private boolean matches(byte[] digest) {
    boolean match = false;
    for (byte[] known : snapshot.digests()) {
      match |= MessageDigest.isEqual(digest, known);
    }
    return match;
  }

  private void refresh() {
    checkedNanos = System.nanoTime();
    // One rotation at a time (the file's lock): two that both replaced the same snapshot would
    // each hold the new tokens, and one of those holds would never be released.
    file.refresh(
        tokens -> {
          Snapshot current = snapshot;
          snapshot = Snapshot.of(tokens);
          // After the new ones are held: a token kept by the rotation is never let go in between.
          current.held().forEach(Redactor.Held::release);
        });
  }

  private static byte[] sha256(String text) {
    return Sha256.of(text);
  }
}
