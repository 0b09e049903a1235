package io.github.appsetmapper.server;

import io.github.appsetmapper.files.BoundedFiles;
import io.github.appsetmapper.files.FileStamp;
import io.github.appsetmapper.text.Plural;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A file of secrets the server accepts (the token file, the webhook secret file), one per line,
 * each obeying {@link TokenRule}, re-read when its {@link FileStamp} changes.
 *
 * <p>A file that goes away, cannot be read, is not a regular file, holds no secret or a line that
 * breaks the rule keeps the secrets read before (a Kubernetes Secret volume swaps its {@code
 * ..data} link; a moment without the file must not lock callers out, and half a rotation is never
 * taken), with one WARN line per change of that state and one INFO line when a good file is read
 * again: never one per request, never a secret.
 */
final class TokenFile {
  private static final Logger LOG = LoggerFactory.getLogger("appset_mapper.server");

  private final String label;
  private final String noun;
  private final Path file;

  /** The stamp when last read, well or not; null when whatever is at the path must be read. */
  private volatile FileStamp stamp;

  /** Why the file was last refused (the line last logged), or null while it reads well. */
  private String trouble;

  /**
   * @param label what the file is, as a line names it: {@code token file}
   * @param noun what one line of it is: {@code token}
   */
  TokenFile(String label, String noun, Path file) {
    this.label = label;
    this.noun = noun;
    this.file = file;
  }

  /**
   * The file's secrets now, at start: a missing file is a {@link java.nio.file.NoSuchFileException}
   * (the caller names the other sources), any other trouble an IOException naming the file.
   */
  List<String> readNow() throws IOException {
    FileStamp now = FileStamp.of(file);
    List<String> secrets = read();
    stamp = now;
    return secrets;
  }

  /**
   * Looks at the file: when it changed and reads well, hands its secrets to {@code apply} (under
   * this object's lock, so two lookers never apply two reads out of order); otherwise the secrets
   * read before stay, and a new trouble is logged.
   */
  void refresh(Consumer<List<String>> apply) {
    FileStamp now;
    try {
      now = FileStamp.of(file);
    } catch (IOException e) {
      synchronized (this) {
        // Whatever comes back at the path is read, even with the stamp it had.
        stamp = null;
        note(label + " " + file + ": " + BoundedFiles.reason(e), 0);
      }
      return;
    }
    if (now.equals(stamp)) {
      return;
    }
    synchronized (this) {
      if (now.equals(stamp)) {
        return;
      }
      // Recorded before the read: the same broken file is not read again on every request.
      stamp = now;
      List<String> secrets;
      try {
        secrets = read();
      } catch (IOException e) {
        note(e.getMessage(), 0);
        return;
      }
      apply.accept(secrets);
      note(null, secrets.size());
    }
  }

  /** Whether the file was refused at its last look (its secrets read before still accepted). */
  synchronized boolean failing() {
    return trouble != null;
  }

  private List<String> read() throws IOException {
    String content;
    try {
      content = BoundedFiles.readText(file, BoundedFiles.SECRET_BYTES);
    } catch (IOException e) {
      throw new IOException(label + " " + file + ": " + BoundedFiles.reason(e));
    }
    return TokenRule.tokens(label + " " + file, noun, content);
  }

  /** Logs a change of state: one WARN per new trouble, one INFO when the file reads well again. */
  private void note(String problem, int count) {
    if (Objects.equals(problem, trouble)) {
      return;
    }
    trouble = problem;
    if (problem != null) {
      LOG.warn("{}; the {}s read before are still accepted", problem, noun);
    } else {
      LOG.info("{} {} is read again: {} accepted", label, file, Plural.of(count, noun));
    }
  }
}
