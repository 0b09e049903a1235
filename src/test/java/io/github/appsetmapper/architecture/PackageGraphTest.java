package io.github.appsetmapper.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The packages of src/main depend on each other one way (docs/architecture.md): no cycle, and the
 * leaf that every part of a call shares ({@code upstream.call}) depends on no other package but a
 * leaf of its own (the digest package). A dependency is any name of another package in a file,
 * imported or written out in full.
 */
class PackageGraphTest {
  private static final String BASE = "io.github.appsetmapper.";
  private static final Pattern PACKAGE =
      Pattern.compile("^package io\\.github\\.appsetmapper\\.([\\w.]+);", Pattern.MULTILINE);
  private static final Pattern REFERENCE =
      Pattern.compile("io\\.github\\.appsetmapper\\.([a-z]\\w*(?:\\.[a-z]\\w*)*)\\.[A-Z]");

  /** Each package of src/main and the packages it names. */
  static Map<String, Set<String>> graph() throws IOException {
    Map<String, Set<String>> graph = new TreeMap<>();
    List<Path> files;
    try (Stream<Path> walk = Files.walk(Path.of("src/main/java"))) {
      files = walk.filter(p -> p.toString().endsWith(".java")).toList();
    }
    for (Path file : files) {
      String source = Files.readString(file);
      Matcher declared = PACKAGE.matcher(source);
      assertThat(declared.find()).as(file + " declares its package").isTrue();
      Set<String> uses = graph.computeIfAbsent(declared.group(1), k -> new TreeSet<>());
      Matcher named = REFERENCE.matcher(source);
      while (named.find()) {
        if (!named.group(1).equals(declared.group(1))) {
          uses.add(named.group(1));
        }
      }
    }
    return graph;
  }

  @Test
  void noPackageDependsOnItselfThroughOthers() throws IOException {
    Map<String, Set<String>> graph = graph();
    assertThat(graph).containsKeys("config", "compile", "engine", "server", "upstream.call");
    List<String> cycles = new ArrayList<>();
    for (String start : graph.keySet()) {
      List<String> path = cycleThrough(graph, start, start, new ArrayList<>(), new TreeSet<>());
      if (path != null) {
        cycles.add(String.join(" -> ", path));
      }
    }
    assertThat(cycles).as("package cycles").isEmpty();
  }

  @Test
  void theCallTypesAreALeaf() throws IOException {
    Map<String, Set<String>> graph = graph();
    // Only on leaves itself (the digest package: the JDK alone), so nothing reaches back.
    for (String used : graph.get("upstream.call")) {
      assertThat(graph.get(used))
          .as(BASE + "upstream.call uses " + used + ", which uses")
          .isEmpty();
    }
    assertThat(graph.get("digest")).as(BASE + "digest depends on").isEmpty();
  }

  /** A path from {@code at} back to {@code start}, or null. */
  private static List<String> cycleThrough(
      Map<String, Set<String>> graph,
      String start,
      String at,
      List<String> path,
      Set<String> seen) {
    path.add(at);
    for (String next : graph.getOrDefault(at, Set.of())) {
      if (next.equals(start)) {
        List<String> cycle = new ArrayList<>(path);
        cycle.add(start);
        return cycle;
      }
      if (seen.add(next)) {
        List<String> found = cycleThrough(graph, start, next, path, seen);
        if (found != null) {
          return found;
        }
      }
    }
    path.remove(path.size() - 1);
    return null;
  }
}
