package io.github.appsetmapper.secret;

import io.github.appsetmapper.files.BoundedFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * A secret in a file, re-read when its modification time or size changes, so a rotated Kubernetes
 * Secret (an atomic symlink swap) takes effect without a restart. The redactor holds the value read
 * last (the previous one for its grace period after a rotation). A leading byte order mark and the
 * surrounding white space, CR LF included, are not part of the value.
 */
public final class FileSecret implements SecretSource {
  private final Path path;
  private final HeldValue held;
  private volatile Snapshot snapshot;

  private record Snapshot(Object fileKey, long modified, long size, String value) {}

  public FileSecret(Path path, Redactor redactor) {
    this.path = path;
    this.held = new HeldValue(this, redactor);
  }

  @Override
  public String value() throws SecretUnavailableException {
    try {
      BasicFileAttributes attributes = Files.readAttributes(path, BasicFileAttributes.class);
      Snapshot current = snapshot;
      if (current != null
          && current.modified == attributes.lastModifiedTime().toMillis()
          && current.size == attributes.size()
          && java.util.Objects.equals(current.fileKey, attributes.fileKey())) {
        return current.value;
      }
      String value = held.use(BoundedFiles.readText(path, BoundedFiles.SECRET_BYTES).strip());
      snapshot =
          new Snapshot(
              attributes.fileKey(),
              attributes.lastModifiedTime().toMillis(),
              attributes.size(),
              value);
      return value;
    } catch (IOException e) {
      throw new SecretUnavailableException(
          "cannot read " + describe() + ": " + BoundedFiles.reason(e));
    }
  }

  @Override
  public String describe() {
    return "file " + path;
  }
}
