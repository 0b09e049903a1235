package io.github.appsetmapper.server;

import io.github.appsetmapper.digest.Sha256;
import io.github.appsetmapper.files.BoundedFiles;
import io.github.appsetmapper.files.FileStamp;
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
 *
 * <p>The file is looked at (a stat) at most once per {@link #RECHECK_NANOS} for a token that
 * matches, and at once for one that does not: a token added by a rotation works on its first use, a
 * removed one stops within a second, and a getparams does not stat a file each time.
 */
public final class Tokens {
  static final long RECHECK_NANOS = 1_000_000_000L;

  private final Path file;
  private volatile Snapshot snapshot;
  private volatile long checkedNanos;

  /**
   * @param held the tokens' holds in the process's redactors, released when a rotation replaces
   *     them: a token no longer accepted is no longer this server's secret, and a file rotated
   *     every hour would otherwise add a token to every redaction each hour for as long as it runs
   */
  private record Snapshot(FileStamp stamp, List<byte[]> digests, List<Redactor.Held> held) {}

  private Tokens(Path file, String fixed) {
    this.file = file;
    List<Redactor.Held> held = new ArrayList<>();
    this.snapshot = new Snapshot(null, digests(fixed, held), List.copyOf(held));
    this.checkedNanos = System.nanoTime();
  }

  public static Tokens fixed(String value) {
    return new Tokens(null, value);
  }

  /** Reads the file now, so a missing or empty file stops the server at start. */
  public static Tokens fromFile(Path file) throws IOException {
    Tokens tokens = new Tokens(file, "");
    tokens.refresh();
    if (tokens.snapshot.digests().isEmpty()) {
      throw new IOException("token file " + file + " holds no token");
    }
    return tokens;
  }

  public boolean accepts(String presented) {
    if (presented == null || presented.isEmpty()) {
      return false;
    }
    byte[] digest = sha256(presented);
    if (file != null && System.nanoTime() - checkedNanos >= RECHECK_NANOS) {
      refreshQuietly();
    }
    if (matches(digest)) {
      return true;
    }
    if (file != null) {
      // Perhaps a rotation added it since the last look.
      refreshQuietly();
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

  private void refreshQuietly() {
    checkedNanos = System.nanoTime();
    try {
      refresh();
    } catch (IOException e) {
      // Mid-rotation the file can vanish for a moment: keep the tokens last read.
    }
  }

  private void refresh() throws IOException {
    FileStamp stamp = FileStamp.of(file);
    if (stamp.equals(snapshot.stamp())) {
      return;
    }
    // One reader at a time: two that both replaced the same snapshot would each hold the new
    // tokens, and one of those holds would never be released.
    synchronized (this) {
      if (!stamp.equals(snapshot.stamp())) {
        replace(stamp);
      }
    }
  }

  private void replace(FileStamp stamp) throws IOException {
    Snapshot current = snapshot;
    String content;
    try {
      content = BoundedFiles.readText(file, BoundedFiles.SECRET_BYTES);
    } catch (java.nio.file.NoSuchFileException e) {
      throw e;
    } catch (IOException e) {
      throw new IOException("token file " + file + ": " + BoundedFiles.reason(e));
    }
    List<Redactor.Held> held = new ArrayList<>();
    snapshot = new Snapshot(stamp, digests(content, held), List.copyOf(held));
    // After the new ones are held: a token kept by the rotation is never let go in between.
    current.held().forEach(Redactor.Held::release);
  }

  private static List<byte[]> digests(String content, List<Redactor.Held> held) {
    List<byte[]> out = new ArrayList<>();
    for (String line : content.split("\\R")) {
      String token = line.strip();
      if (!token.isEmpty()) {
        out.add(sha256(token));
        // The server's own token is a secret like any other: a caller who echoes it (in a path,
        // an input an error quotes) must not put it in a log line a log reader sees.
        held.add(Redactor.holdForTheProcessUntilReleased(token));
      }
    }
    return List.copyOf(out);
  }

  private static byte[] sha256(String text) {
    return Sha256.of(text);
  }
}
