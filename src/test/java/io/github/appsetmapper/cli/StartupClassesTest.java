package io.github.appsetmapper.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.logging.LogSetup;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CLI starts without what it does not use (issue 25: every class loaded is start-up time in an
 * author's loop and in CI): no XML logging configuration, no metrics registry or JMX, no Redis
 * client, no server, no BouncyCastle, nothing of the other commands. Each command runs in a JVM of
 * its own on the jar's classpath (the test classpath without test-classes, whose logback-test.xml
 * would take over), logging every class it loads.
 */
class StartupClassesTest {
  private static final List<String> UNUSED =
      List.of(
          "ch.qos.logback.classic.joran.", // logback.xml's configurator
          "com.sun.org.apache.xerces.", // its XML parser
          "ch.qos.logback.core.pattern.", // the log layout, made on the first line (none here)
          "io.github.appsetmapper.logging.BackgroundWriter", // the writer thread, made on the first
          // line
          "io.micrometer.",
          "io.prometheus.",
          "com.sun.jmx.",
          "io.lettuce.",
          "io.netty.",
          "io.undertow.",
          "org.bouncycastle.",
          // Another command's flags and what they name: picocli builds only the command run.
          "io.github.appsetmapper.cli.ServeTimings",
          "io.github.appsetmapper.cli.RedisFlags",
          "io.github.appsetmapper.cli.ShadowFlags",
          "io.github.appsetmapper.cli.UpstreamFlags",
          "io.github.appsetmapper.cli.MappingRunOptions",
          "io.github.appsetmapper.shadow.",
          "io.github.appsetmapper.reload.",
          "io.github.appsetmapper.metrics.",
          "io.github.appsetmapper.diff.",
          "io.github.appsetmapper.explain.");

  @Test
  void validateLoadsNoneOfWhatItDoesNotUse(@TempDir Path dir) throws Exception {
    Path mapping = dir.resolve("hello.yaml");
    Files.writeString(mapping, "name: hello\nparameters:\n  greeting: \"'hello'\"\n");
    assertLoadsNoneOfTheUnused(dir, "validate", mapping.toString());
  }

  @Test
  void testLoadsNoneOfWhatItDoesNotUse(@TempDir Path dir) throws Exception {
    assertLoadsNoneOfTheUnused(dir, "test", "mappings/inventory-clusters.test.yaml");
  }

  /**
   * The HTTP client (about 300 classes) is made by the first call: {@code run} of a mapping that
   * makes none, as the first answer of {@code serve} for one, never makes it.
   */
  @Test
  void runOfAMappingWithoutCallsMakesNoHttpClient(@TempDir Path dir) throws Exception {
    Path mapping = dir.resolve("hello.yaml");
    Files.writeString(mapping, "name: hello\nparameters:\n  greeting: \"'hello'\"\n");
    List<String> loaded = loadedBy(dir, "run", mapping.toString());
    assertThat(loaded).contains("io.github.appsetmapper.upstream.HttpUpstream");
    assertThat(
            loaded.stream()
                .filter(
                    name ->
                        name.startsWith("org.apache.hc.client5.http.impl.")
                            || name.startsWith("org.apache.hc.core5.pool.")))
        .isEmpty();
  }

  private static void assertLoadsNoneOfTheUnused(Path dir, String... args) throws Exception {
    List<String> loaded = loadedBy(dir, args);
    assertThat(loaded).contains(LogSetup.class.getName()); // logging was set up, in code
    assertThat(loaded.stream().filter(name -> UNUSED.stream().anyMatch(name::startsWith)))
        .isEmpty();
  }

  /** The classes a JVM of its own loads running the CLI with {@code args}; it must exit 0. */
  private static List<String> loadedBy(Path dir, String... args) throws Exception {
    Path classes = dir.resolve("classes.txt");
    Path out = dir.resolve("out.txt");
    String classpath =
        Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
            .filter(entry -> !entry.endsWith("test-classes"))
            .collect(Collectors.joining(File.pathSeparator));
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(List.of("-Xlog:class+load:file=" + classes, "-cp", classpath));
    command.add(Main.class.getName());
    command.addAll(List.of(args));
    Process process =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile()).start();
    assertThat(process.waitFor(5, TimeUnit.MINUTES)).isTrue();
    assertThat(process.exitValue()).as(Files.readString(out)).isZero();
    return classNames(classes);
  }

  /** The class names of an {@code -Xlog:class+load} file. */
  static List<String> classNames(Path classes) throws IOException {
    return Files.readAllLines(classes).stream()
        .map(line -> line.split(" "))
        .filter(words -> words.length > 1)
        .map(words -> words[1])
        .toList();
  }
}
