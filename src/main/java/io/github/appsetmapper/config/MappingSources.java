package io.github.appsetmapper.config;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Finds the mapping files named by {@code --mappings}: a file is taken as it is; a directory gives
 * the {@code *.yaml}/{@code *.yml} directly in it, skipping hidden entries (a ConfigMap mount's
 * {@code ..data}) and test files ({@code *.test.yaml}).
 *
 * <p>Every path that exists is listed, whatever it is: a FIFO, a device, a socket, a symlink to one
 * of them or a directory named {@code *.yaml} (in a directory, or given itself) is refused by its
 * read ({@link io.github.appsetmapper.files.BoundedFiles}), which names it as a load error.
 * Skipping it here would make a mapping file replaced by one look removed, its name free for
 * another file to take. Only a path that does not exist (a dangling symlink included: a ConfigMap
 * key being removed) is left out.
 */
public final class MappingSources {
  private MappingSources() {}

  public static List<Path> expand(List<Path> paths) throws IOException {
    List<Path> files = new ArrayList<>();
    for (Path path : paths) {
      // A path named like a mapping file is a file, whatever is there now: a directory put in
      // its place is refused by its read like a FIFO or a device, never listed as empty (its
      // mapping would look removed).
      if (Files.isDirectory(path) && !looksLikeAFile(path)) {
        List<Path> inDirectory = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(path)) {
          for (Path entry : entries) {
            if (isMappingFile(entry) && Files.exists(entry)) {
              inDirectory.add(entry);
            }
          }
        }
        inDirectory.sort(null);
        files.addAll(inDirectory);
      } else if (Files.exists(path)) {
        files.add(path);
      } else {
        throw new IOException("no such file or directory: " + path);
      }
    }
    return files;
  }

  private static boolean looksLikeAFile(Path path) {
    Path name = path.getFileName();
    return name != null && (name.toString().endsWith(".yaml") || name.toString().endsWith(".yml"));
  }

  public static boolean isMappingFile(Path path) {
    String name = path.getFileName().toString();
    return !name.startsWith(".")
        && (name.endsWith(".yaml") || name.endsWith(".yml"))
        && !isTestFile(path);
  }

  public static boolean isTestFile(Path path) {
    String name = path.getFileName().toString();
    return name.endsWith(".test.yaml") || name.endsWith(".test.yml");
  }

  /**
   * The test files under a folder, as {@code test} and {@code diff --replay} find them: every
   * {@code *.test.yaml} (or {@code .yml}) that is a regular file, in subfolders too, skipping any
   * under a hidden entry (a ConfigMap mount's {@code ..data}), sorted.
   */
  public static List<Path> testFilesUnder(Path folder) throws IOException {
    List<Path> found = new ArrayList<>();
    try (java.util.stream.Stream<Path> walk = Files.walk(folder)) {
      walk.filter(p -> isTestFile(p) && Files.isRegularFile(p))
          .filter(p -> !hidden(folder.relativize(p)))
          .sorted()
          .forEach(found::add);
    } catch (java.io.UncheckedIOException e) {
      throw e.getCause();
    }
    return found;
  }

  private static boolean hidden(Path relative) {
    for (Path part : relative) {
      if (part.toString().startsWith(".")) {
        return true;
      }
    }
    return false;
  }
}
