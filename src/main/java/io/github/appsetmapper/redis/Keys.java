package io.github.appsetmapper.redis;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The key ring of a file, read again when the file changes (checked at most once a second): a
 * rotated Secret takes effect without a restart. A file that stops reading well keeps the keys it
 * had, and says so once.
 */
final class Keys {
  private static final Logger LOG = LoggerFactory.getLogger("appset_mapper.redis");
  private static final long CHECK_NANOS = 1_000_000_000L;

  private record Loaded(KeyRing ring, FileTime modified, long size, long checkedNanos) {}

  private final Path file;
  private final AtomicReference<Loaded> loaded = new AtomicReference<>();

  private Keys(Path file, KeyRing first) throws IOException {
    this.file = file;
    loaded.set(
        new Loaded(first, Files.getLastModifiedTime(file), Files.size(file), System.nanoTime()));
  }

  static Keys of(Path file) throws IOException {
    return new Keys(file, KeyRing.read(file));
  }

  KeyRing ring() {
    Loaded now = loaded.get();
    long t = System.nanoTime();
    if (t - now.checkedNanos() < CHECK_NANOS) {
      return now.ring();
    }
    try {
      FileTime modified = Files.getLastModifiedTime(file);
      long size = Files.size(file);
      if (modified.equals(now.modified()) && size == now.size()) {
        loaded.compareAndSet(now, new Loaded(now.ring(), modified, size, t));
        return now.ring();
      }
      KeyRing next = KeyRing.read(file);
      loaded.set(new Loaded(next, modified, size, t));
      LOG.info("redis: integrity keys read again from {}", file);
      return next;
    } catch (IOException e) {
      // Not read again before the file changes again: said once per change.
      FileTime modified = now.modified();
      long size = now.size();
      try {
        modified = Files.getLastModifiedTime(file);
        size = Files.size(file);
      } catch (IOException gone) {
        // Kept as it was: the next change is checked again.
      }
      if (loaded.compareAndSet(now, new Loaded(now.ring(), modified, size, t))) {
        LOG.warn(
            "redis: integrity keys not read again, the previous ones stay: {}", e.getMessage());
      }
      return now.ring();
    }
  }
}
