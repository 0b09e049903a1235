package io.github.appsetmapper.files;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * What a file looks like from outside, to tell whether it changed since it was last read: the same
 * stamp, the same content. The modification time and the size alone miss a rewrite in place that
 * keeps both ({@code cp -p} of a token of the same length, {@code touch -r}): the inode's change
 * time ({@code unix:ctime}, which no user can set back) is part of it where the platform has one.
 *
 * @param changedNanos the inode's change time, or -1 where the platform has none
 */
public record FileStamp(Object fileKey, long modifiedMillis, long size, long changedNanos) {

  /** The stamp of {@code file} now (links followed, as a read follows them): one stat. */
  public static FileStamp of(Path file) throws IOException {
    try {
      Map<String, Object> unix =
          Files.readAttributes(file, "unix:fileKey,lastModifiedTime,size,ctime");
      return new FileStamp(
          unix.get("fileKey"),
          ((FileTime) unix.get("lastModifiedTime")).toMillis(),
          (Long) unix.get("size"),
          ((FileTime) unix.get("ctime")).to(TimeUnit.NANOSECONDS));
    } catch (UnsupportedOperationException | IllegalArgumentException e) {
      // No "unix" view on this platform: the other three fields decide.
      BasicFileAttributes basic = Files.readAttributes(file, BasicFileAttributes.class);
      return new FileStamp(basic.fileKey(), basic.lastModifiedTime().toMillis(), basic.size(), -1);
    }
  }
}
