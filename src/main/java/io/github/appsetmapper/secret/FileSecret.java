package io.github.appsetmapper.secret;

import io.github.appsetmapper.files.BoundedFiles;
import io.github.appsetmapper.files.FileStamp;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A secret in a file, re-read when its modification time or size changes, so a rotated Kubernetes
 * Secret (an atomic symlink swap) takes effect without a restart. The redactor holds the value read
 * last (the previous one for its grace period after a rotation). A leading byte order mark and the
 * surrounding white space, CR LF included, are not part of the value.
 */
public final class FileSecret implements SecretSource {
  /** The longest a request waits for a secret file, whatever its deadline leaves. */
  static final Duration MOST = Duration.ofSeconds(10);

  private final Path path;
  private final HeldValue held;
  private volatile Snapshot snapshot;

  private record Snapshot(FileStamp stamp, String value) {}

  public FileSecret(Path path, Redactor redactor) {
    this.path = path;
    this.held = new HeldValue(this, redactor);
  }

  @Override
  public String value() throws SecretUnavailableException {
    return value(MOST);
  }

  @Override
  public String value(Duration within) throws SecretUnavailableException {
    Duration bound = within.compareTo(MOST) < 0 ? within : MOST;
    try {
      // Looking at the file may block as reading it does (a hung mount): both within the bound.
      return BoundedFiles.within(bound, this::current);
    } catch (IOException e) {
      throw new SecretUnavailableException(
          "cannot read " + describe() + ": " + BoundedFiles.reason(e));
    }
  }

  private String current() throws IOException {
    Path real = BoundedFiles.regularFile(path);
    FileStamp stamp = FileStamp.of(real);
    Snapshot now = snapshot;
    if (now != null && now.stamp.equals(stamp)) {
      return now.value;
    }
    String value =
        held.use(BoundedFiles.text(BoundedFiles.readNow(real, BoundedFiles.SECRET_BYTES)).strip());
    snapshot = new Snapshot(stamp, value);
    return value;
  }

  @Override
  public String describe() {
    return "file " + path;
  }
}
