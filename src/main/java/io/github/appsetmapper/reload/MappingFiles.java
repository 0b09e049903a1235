package io.github.appsetmapper.reload;

import io.github.appsetmapper.config.MappingSources;
import io.github.appsetmapper.config.YamlLimits;
import io.github.appsetmapper.files.BoundedFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** What the reloader looks at: the mapping files under its paths, by content digest. */
final class MappingFiles {
  private MappingFiles() {}

  /**
   * Every mapping file under {@code paths} by its content digest; a path that is there but cannot
   * be read gets a digest saying why, so that it loads as a change (and its refusal is reported).
   */
  static Map<Path, String> digests(List<Path> paths) {
    Map<Path, String> out = new TreeMap<>();
    for (Path path : paths) {
      List<Path> found;
      try {
        found = MappingSources.expand(List.of(path));
      } catch (IOException e) {
        continue;
      }
      for (Path file : found) {
        try {
          out.put(file, BoundedFiles.sha256(file, YamlLimits.MAPPING.fileBytes()));
        } catch (java.nio.file.NoSuchFileException e) {
          // Gone between the listing and the read (a dangling symlink too): removed.
        } catch (IOException e) {
          // A FIFO, a device, a directory, a file on a hung mount or one not readable: there, so
          // loaded as a change, so that its refusal is reported (its read is refused too) and
          // what it served keeps serving, never taken for a removed file.
          out.put(file, "unreadable: " + BoundedFiles.reason(e));
        }
      }
    }
    return out;
  }
}
