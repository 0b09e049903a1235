package io.github.appsetmapper.server;

import io.github.appsetmapper.digest.Sha256;
import io.github.appsetmapper.files.BoundedFiles;
import io.github.appsetmapper.files.FileStamp;
import io.github.appsetmapper.secret.Redactor;
import io.github.appsetmapper.text.Plural;
import java.io.IOException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The accepted bearer tokens: from {@code APPSET_MAPPER_TOKEN}, or from the token file, re-read
 * when it changes. Several tokens, one per line, are all accepted, so a rotation needs no downtime.
 * Comparison is in constant time over digests of equal length; an empty token never matches. A
 * leading byte order mark and CR LF line ends (a file saved on Windows) are not part of a token.
 * Every token obeys {@link TokenRule}: at start a source that breaks it stops the server.
 *
 * <p>The file is looked at (a stat) at most once per {@link #RECHECK_NANOS} for a token that
 * matches, and at once for one that does not: a token added by a rotation works on its first use, a
 * removed one stops within a second, and a getparams does not stat a file each time.
 *
 * <p>A file that goes away, cannot be read, is not a regular file, holds no token or a line that
 * breaks the rule keeps the tokens last read (a Kubernetes Secret volume swaps its {@code ..data}
 * link; a moment without the file must not lock Argo CD out), with one WARN line per change of that
 * state and one INFO line when a good file is read again: never one per request.
 */
public final class Tokens {
  static final long RECHECK_NANOS = 1_000_000_000L;
  private static final Logger LOG = LoggerFactory.getLogger("appset_mapper.server");

  private final Path file;
  private volatile Snapshot snapshot;
  private volatile long checkedNanos;

  /** Why the file was last refused (the line last logged), or null while it reads well. */
  private String trouble;

  /**
   * @param stamp the file's stamp when last read, or null when it must be read at the next look
   * @param held the tokens' holds in the process's redactors, released when a rotation replaces
   *     them: a token no longer accepted is no longer this server's secret, and a file rotated
   *     every hour would otherwise add a token to every redaction each hour for as long as it runs
   */
  private record Snapshot(FileStamp stamp, List<byte[]> digests, List<Redactor.Held> held) {}

  private Tokens(Path file, FileStamp stamp, List<String> tokens) {
    this.file = file;
    List<Redactor.Held> held = new ArrayList<>();
    this.snapshot = new Snapshot(stamp, digests(tokens, held), List.copyOf(held));
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
    return new Tokens(null, null, TokenRule.tokens(name, value));
  }

  /**
   * Reads the file now, so a missing file (a {@link java.nio.file.NoSuchFileException}), an
   * unreadable or empty one, or one with a line that breaks the rule stops the server at start.
   */
  public static Tokens fromFile(Path file) throws IOException {
    FileStamp stamp = FileStamp.of(file);
    return new Tokens(file, stamp, read(file));
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
      // Mid-rotation the file can vanish for a moment: keep the tokens last read, and say so once.
      note(e.getMessage());
    }
  }

  private void refresh() throws IOException {
    FileStamp stamp;
    try {
      stamp = FileStamp.of(file);
    } catch (IOException e) {
      forgetStamp();
      throw new IOException("token file " + file + ": " + BoundedFiles.reason(e));
    }
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

  /** The file is gone: whatever comes back at its path is read, even with the same stamp. */
  private synchronized void forgetStamp() {
    Snapshot current = snapshot;
    if (current.stamp() != null) {
      snapshot = new Snapshot(null, current.digests(), current.held());
    }
  }

  private void replace(FileStamp stamp) throws IOException {
    Snapshot current = snapshot;
    List<String> tokens;
    try {
      tokens = read(file);
    } catch (IOException e) {
      // Keep the tokens; the stamp is kept too, so the same broken file is not read per request.
      snapshot = new Snapshot(stamp, current.digests(), current.held());
      throw e;
    }
    List<Redactor.Held> held = new ArrayList<>();
    snapshot = new Snapshot(stamp, digests(tokens, held), List.copyOf(held));
    // After the new ones are held: a token kept by the rotation is never let go in between.
    current.held().forEach(Redactor.Held::release);
    note(null);
  }

  /** Logs a change of the file's state: one WARN per new trouble, one INFO when it reads again. */
  private synchronized void note(String problem) {
    if (Objects.equals(problem, trouble)) {
      return;
    }
    trouble = problem;
    if (problem != null) {
      LOG.warn("{}; the tokens read before are still accepted", problem);
    } else {
      LOG.info(
          "token file {} is read again: {} accepted",
          file,
          Plural.of(snapshot.digests().size(), "token"));
    }
  }

  private static List<String> read(Path file) throws IOException {
    String content;
    try {
      content = BoundedFiles.readText(file, BoundedFiles.SECRET_BYTES);
    } catch (IOException e) {
      throw new IOException("token file " + file + ": " + BoundedFiles.reason(e));
    }
    return TokenRule.tokens("token file " + file, content);
  }

  private static List<byte[]> digests(List<String> tokens, List<Redactor.Held> held) {
    List<byte[]> out = new ArrayList<>();
    for (String token : tokens) {
      out.add(sha256(token));
      // The server's own token is a secret like any other: a caller who echoes it (in a path,
      // an input an error quotes) must not put it in a log line a log reader sees.
      held.add(Redactor.holdForTheProcessUntilReleased(token));
    }
    return List.copyOf(out);
  }

  private static byte[] sha256(String text) {
    return Sha256.of(text);
  }
}
