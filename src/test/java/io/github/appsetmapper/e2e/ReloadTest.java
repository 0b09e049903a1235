package io.github.appsetmapper.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.metrics.Metrics;
import io.github.appsetmapper.reload.MappingReloader;
import io.github.appsetmapper.runtime.AppRuntime;
import io.github.appsetmapper.server.AppServer;
import io.github.appsetmapper.server.MappingRegistry;
import io.github.appsetmapper.server.ServerOptions;
import io.github.appsetmapper.server.Tokens;
import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.upstream.HttpUpstream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hot reload as the server runs it: files changed, broken, added, removed, and a ConfigMap-style
 * {@code ..data} symlink swap, each seen by a real server on port 0 over HTTP.
 */
class ReloadTest {
  private final HttpClient client = HttpClient.newHttpClient();
  private final Metrics metrics = new Metrics();
  private AppRuntime runtime;
  private AppServer server;
  private MappingReloader reloader;

  private static String mapping(String name, String greeting) {
    return "name: " + name + "\nparameters:\n  greeting: \"'" + greeting + "'\"\n";
  }

  private void serve(Path dir) throws java.io.IOException {
    AtomicReference<MappingRegistry> latest = new AtomicReference<>();
    runtime =
        AppRuntime.builder()
            .environment(n -> null)
            .transport(new HttpUpstream(4, 1 << 20))
            .enrichThreads(4)
            .metrics(metrics)
            .build();
    reloader =
        runtime.reloader(
            List.of(dir),
            null,
            registry -> {
              latest.set(registry);
              Map<String, Boolean> states = new TreeMap<>();
              registry.status().forEach((name, status) -> states.put(name, status.current()));
              metrics.loadStates(states);
              if (server != null) {
                server.swap(registry);
              }
            });
    reloader.reloadIfChanged();
    server =
        runtime
            .server(
                new ServerOptions("127.0.0.1", 0, Tokens.fixed(PluginServer.TOKEN), 1 << 20, 1, 4),
                latest.get())
            .start();
  }

  @AfterEach
  void stop() {
    if (reloader != null) {
      reloader.close();
    }
    if (server != null) {
      server.close();
    }
    if (runtime != null) {
      runtime.close();
    }
  }

  private String call(String path, String method) throws Exception {
    HttpResponse<String> response =
        client.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                .header("Authorization", "Bearer " + PluginServer.TOKEN)
                .method(
                    method,
                    method.equals("POST")
                        ? HttpRequest.BodyPublishers.ofString("{}")
                        : HttpRequest.BodyPublishers.noBody())
                .build(),
            HttpResponse.BodyHandlers.ofString());
    return response.statusCode() + " " + response.body();
  }

  private String getparams(String name) throws Exception {
    return call("/mappings/" + name + "/api/v1/getparams.execute", "POST");
  }

  private static void replace(Path file, String content) throws IOException {
    Path next = file.resolveSibling(file.getFileName() + ".tmp");
    Files.writeString(next, content);
    Files.move(next, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  @Test
  void changedBrokenAddedAndRemovedFiles(@TempDir Path dir) throws Exception {
    Path a = dir.resolve("a.yaml");
    Files.writeString(a, mapping("a", "one"));
    serve(dir);
    assertThat(getparams("a"))
        .isEqualTo("200 {\"output\":{\"parameters\":[{\"greeting\":\"one\"}]}}");

    replace(a, mapping("a", "two"));
    assertThat(reloader.reloadIfChanged()).isTrue();
    assertThat(getparams("a"))
        .isEqualTo("200 {\"output\":{\"parameters\":[{\"greeting\":\"two\"}]}}");
    assertThat(reloader.reloadIfChanged()).as("nothing changed").isFalse();

    replace(a, "name: a\nparameters:\n  greeting: \"T(java.lang.Runtime)\"\n");
    reloader.reloadIfChanged();
    assertThat(getparams("a"))
        .as("a broken file keeps its previous version serving")
        .isEqualTo("200 {\"output\":{\"parameters\":[{\"greeting\":\"two\"}]}}");
    assertThat(call("/mappings", "GET"))
        .contains("\"state\":\"stale\"")
        .contains(
            "\"lastError\":\""
                + a
                + ":3:13 parameters.greeting: type references (T(...)) are not allowed (in 'T(java.lang.Runtime)')\"");
    String scrape = metrics.scrape();
    assertThat(scrape).contains("appset_mapper_mapping_loaded{mapping=\"a\"} 0.0");
    assertThat(scrape).contains("appset_mapper_reloads_total{result=\"error\"} 1.0");

    replace(a, mapping("a", "three"));
    Files.writeString(dir.resolve("b.yaml"), mapping("b", "bee"));
    Files.writeString(dir.resolve("c.test.yaml"), "cases: []\n");
    reloader.reloadIfChanged();
    assertThat(getparams("a"))
        .isEqualTo("200 {\"output\":{\"parameters\":[{\"greeting\":\"three\"}]}}");
    assertThat(getparams("b"))
        .isEqualTo("200 {\"output\":{\"parameters\":[{\"greeting\":\"bee\"}]}}");
    assertThat(metrics.scrape()).contains("appset_mapper_mapping_loaded{mapping=\"a\"} 1.0");

    Files.delete(dir.resolve("b.yaml"));
    reloader.reloadIfChanged();
    assertThat(getparams("b")).isEqualTo("404 {\"error\":\"unknown mapping 'b'; known: a\"}");
    assertThat(metrics.scrape()).doesNotContain("appset_mapper_mapping_loaded{mapping=\"b\"}");
  }

  @Test
  void aFileThatNeverLoadedIsReportedAsAFailure(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("a.yaml"), mapping("a", "one"));
    serve(dir);
    Files.writeString(dir.resolve("z.yaml"), "name: z\nparamters: {}\n");
    reloader.reloadIfChanged();
    assertThat(call("/mappings", "GET"))
        .contains(
            "\"failures\":[\""
                + dir.resolve("z.yaml")
                + ":1:1: missing required key 'parameters'; "
                + dir.resolve("z.yaml")
                + ":2:1 paramters: unknown key 'paramters'; did you mean 'parameters'?\"]");
    assertThat(getparams("a")).startsWith("200 ");
  }

  /** Polls {@code read} until it holds {@code expected} (generous bound: the machine is busy). */
  private String await(java.util.concurrent.Callable<String> read, String expected)
      throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    String seen = read.call();
    while (!seen.contains(expected) && System.nanoTime() < deadline) {
      Thread.sleep(50);
      seen = read.call();
    }
    return seen;
  }

  @Test
  void aRecursiveAliasNeitherStopsTheReloaderNorHidesTheFailure(@TempDir Path dir)
      throws Exception {
    Path a = dir.resolve("a.yaml");
    Files.writeString(a, mapping("a", "one"));
    serve(dir);
    reloader.start(Duration.ofMillis(100));
    // An alias that contains itself: it used to overflow the stack and end the reload thread.
    replace(
        a,
        "name: a\nlist:\n  request:\n    url: http://127.0.0.1:1/x\n    method: POST\n"
            + "    body: &r {a: *r}\n  items: \"$[*]\"\nparameters:\n  greeting: \"'one'\"\n");
    assertThat(await(() -> call("/mappings", "GET"), "nested deeper than 64 levels"))
        .contains("\"state\":\"stale\"")
        .contains(
            "\"lastError\":\""
                + a
                + ":6:11 list.request.body"
                + ".a".repeat(65)
                + ": nested deeper than 64 levels (an alias that contains itself?)\"");
    assertThat(getparams("a")).as("the previous version keeps serving").contains("one");
    replace(a, mapping("a", "two"));
    assertThat(await(() -> getparams("a"), "two"))
        .isEqualTo("200 {\"output\":{\"parameters\":[{\"greeting\":\"two\"}]}}");
    assertThat(call("/mappings", "GET")).contains("\"state\":\"loaded\"");
  }

  @Test
  void aConfigMapSymlinkSwapIsSeenByThePoll(@TempDir Path dir) throws Exception {
    // How the kubelet lays out a ConfigMap volume: files link through ..data to a dated folder,
    // and an update swaps the ..data link at once.
    Path first = Files.createDirectory(dir.resolve("..2026_11_29_10_00_00.000000001"));
    Files.writeString(first.resolve("a.yaml"), mapping("a", "before"));
    Files.createSymbolicLink(dir.resolve("..data"), first.getFileName());
    Files.createSymbolicLink(dir.resolve("a.yaml"), Path.of("..data/a.yaml"));
    serve(dir);
    reloader.start(Duration.ofMillis(100));
    assertThat(getparams("a")).contains("before");

    Path second = Files.createDirectory(dir.resolve("..2026_11_29_10_05_00.000000002"));
    Files.writeString(second.resolve("a.yaml"), mapping("a", "after"));
    Path tmpLink = dir.resolve("..data_tmp");
    Files.createSymbolicLink(tmpLink, second.getFileName());
    Files.move(
        tmpLink,
        dir.resolve("..data"),
        StandardCopyOption.REPLACE_EXISTING,
        StandardCopyOption.ATOMIC_MOVE);

    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (!getparams("a").contains("after") && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    assertThat(getparams("a"))
        .isEqualTo("200 {\"output\":{\"parameters\":[{\"greeting\":\"after\"}]}}");
  }

  /**
   * A file added or removed by hot reload is logged as a changed one is; a name defined in two
   * files is one error naming both, logged once however many reloads follow (red team LOW c, g).
   */
  @Test
  void addedAndRemovedFilesAreLoggedAndADuplicateNameOnce(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("a.yaml"), mapping("a", "one"));
    serve(dir);
    try (io.github.appsetmapper.testing.LogCapture logs =
        new io.github.appsetmapper.testing.LogCapture()) {
      Files.writeString(dir.resolve("b.yaml"), mapping("b", "bee"));
      assertThat(reloader.reloadIfChanged()).isTrue();
      assertThat(getparams("b")).startsWith("200 ");
      Files.writeString(dir.resolve("c.yaml"), mapping("a", "again"));
      reloader.reloadIfChanged();
      replace(dir.resolve("b.yaml"), mapping("b", "bee two"));
      reloader.reloadIfChanged();
      Files.delete(dir.resolve("b.yaml"));
      reloader.reloadIfChanged();
      // A change to the refused file is a change: its refusal is said again.
      replace(dir.resolve("c.yaml"), mapping("a", "again, edited"));
      reloader.reloadIfChanged();
      String duplicate =
          dir.resolve("c.yaml")
              + ":1:7 name: duplicate mapping name 'a' (also in "
              + dir.resolve("a.yaml")
              + "): "
              + dir.resolve("a.yaml")
              + " serves it and keeps it; this one is refused";
      // Never "loaded new file c.yaml: a": c.yaml serves nothing (red team L2).
      assertThat(logs.lines().stream().filter(l -> !l.startsWith("mapping=")))
          .containsExactly(
              "loaded new file " + dir.resolve("b.yaml") + ": b",
              duplicate,
              "reloaded " + dir.resolve("b.yaml") + ": b",
              dir.resolve("b.yaml") + " is gone: no longer serving b",
              duplicate);
      assertThat(getparams("a")).contains("one");
      assertThat(call("/mappings", "GET")).contains("duplicate mapping name");
    }
  }

  /**
   * A new file claiming a served name never takes it over, whichever sorts first: the file serving
   * it keeps it, the newcomer is refused and named (log, /mappings, reload metric); once the owner
   * is gone the newcomer serves.
   */
  @Test
  void aNewFileReusingAServedNameIsRefusedWhateverTheOrder(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("b.yaml"), mapping("x", "from b"));
    serve(dir);
    assertThat(getparams("x"))
        .isEqualTo("200 {\"output\":{\"parameters\":[{\"greeting\":\"from b\"}]}}");
    try (io.github.appsetmapper.testing.LogCapture logs =
        new io.github.appsetmapper.testing.LogCapture()) {
      // Would answer 200 with no rows: Argo CD would delete every Application of x.
      Files.writeString(
          dir.resolve("a.yaml"), "name: x\nfilter: \"false\"\nparameters: {greeting: \"'a'\"}\n");
      assertThat(reloader.reloadIfChanged()).isTrue();

      assertThat(getparams("x")).contains("from b");
      String refusal =
          dir.resolve("a.yaml")
              + ":1:7 name: duplicate mapping name 'x' (also in "
              + dir.resolve("b.yaml")
              + "): "
              + dir.resolve("b.yaml")
              + " serves it and keeps it; this one is refused";
      assertThat(logs.lines()).contains(refusal);
      assertThat(call("/mappings", "GET"))
          .contains(dir.resolve("a.yaml") + ":1:7 name: duplicate mapping name")
          .contains(dir.resolve("b.yaml") + " serves it and keeps it; this one is refused");
      assertThat(metrics.scrape())
          .containsPattern("appset_mapper_reloads_total\\{result=\"error\"\\} 1");
    }

    Files.delete(dir.resolve("b.yaml"));
    assertThat(reloader.reloadIfChanged()).isTrue();
    assertThat(getparams("x")).isEqualTo("200 {\"output\":{\"parameters\":[]}}");
  }

  /**
   * A mapping moved to another file in one swap (b.yaml renamed c.yaml) serves on; two new files
   * claiming a name nobody serves are both refused, naming each other.
   */
  @Test
  void aRenamedFileServesOnAndTwoNewcomersForOneNameAreBothRefused(@TempDir Path dir)
      throws Exception {
    Files.writeString(dir.resolve("b.yaml"), mapping("x", "moved"));
    serve(dir);
    Files.move(dir.resolve("b.yaml"), dir.resolve("c.yaml"));
    assertThat(reloader.reloadIfChanged()).isTrue();
    assertThat(getparams("x")).contains("moved");

    Files.writeString(dir.resolve("d.yaml"), mapping("y", "one"));
    Files.writeString(dir.resolve("e.yaml"), mapping("y", "two"));
    assertThat(reloader.reloadIfChanged()).isTrue();
    assertThat(getparams("y")).startsWith("404 ");
    assertThat(call("/mappings", "GET"))
        .contains(dir.resolve("d.yaml") + ":1:7 name: duplicate mapping name")
        .contains("(also in " + dir.resolve("e.yaml") + "): served by neither")
        .contains("served by neither");
    assertThat(getparams("x")).contains("moved");
  }

  /** A FIFO among the mapping files (nobody writes it) never holds the reloader. */
  @Test
  void aFifoInTheMappingsDirectoryDoesNotHoldTheReloader(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("a.yaml"), mapping("a", "one"));
    serve(dir);
    Process mkfifo = new ProcessBuilder("mkfifo", dir.resolve("z.yaml").toString()).start();
    assertThat(mkfifo.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
    assertThat(mkfifo.exitValue()).isZero();
    replace(dir.resolve("a.yaml"), mapping("a", "two"));

    assertThat(reloader.reloadIfChanged()).isTrue();

    assertThat(getparams("a")).contains("two");
  }

  private static void mkfifo(Path path) throws Exception {
    Process mkfifo = new ProcessBuilder("mkfifo", path.toString()).inheritIO().start();
    assertThat(mkfifo.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
    assertThat(mkfifo.exitValue()).isZero();
  }

  /** Puts at {@code path} something that exists but is not a regular file. */
  private static String oddFile(Path path, String kind) throws Exception {
    switch (kind) {
      case "fifo" -> mkfifo(path);
      case "devzero" -> Files.createSymbolicLink(path, Path.of("/dev/zero"));
      case "directory" -> Files.createDirectory(path);
      default -> throw new IllegalArgumentException(kind);
    }
    return kind.equals("directory")
        ? "not a regular file (a directory)"
        : "not a regular file (a FIFO, socket or device)";
  }

  /**
   * A mapping file replaced by a FIFO, a symlink to /dev/zero or a directory is a file that does
   * not load, never a removed one: its mapping keeps serving (stale), and a refused newcomer
   * claiming the same name does not take it over with its empty listing (red team C6).
   */
  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(strings = {"fifo", "devzero", "directory"})
  void aMappingFileReplacedByWhatIsNotARegularFileKeepsServing(String kind, @TempDir Path dir)
      throws Exception {
    Path rows = dir.resolve("rows4.yaml");
    Files.writeString(rows, mapping("rows4", "kept"));
    serve(dir);
    Files.writeString(
        dir.resolve("aaa4.yaml"),
        "name: rows4\nfilter: \"false\"\nparameters: {greeting: \"'a'\"}\n");
    assertThat(reloader.reloadIfChanged()).isTrue();
    assertThat(getparams("rows4")).contains("kept");

    try (io.github.appsetmapper.testing.LogCapture logs =
        new io.github.appsetmapper.testing.LogCapture()) {
      Files.delete(rows);
      String why = oddFile(rows, kind);
      assertThat(reloader.reloadIfChanged()).isTrue();

      assertThat(getparams("rows4"))
          .isEqualTo("200 {\"output\":{\"parameters\":[{\"greeting\":\"kept\"}]}}");
      assertThat(call("/mappings", "GET"))
          .contains("\"state\":\"stale\"")
          .contains("\"lastError\":\"" + rows + ":1:1: " + why + "\"");
      assertThat(logs.lines())
          .contains(
              rows
                  + " did not load, its previous version keeps serving rows4: "
                  + rows
                  + ":1:1: "
                  + why)
          .noneMatch(line -> line.contains("is gone"));
      assertThat(metrics.scrape())
          .contains("appset_mapper_mapping_loaded{mapping=\"rows4\"} 0.0")
          .containsPattern("appset_mapper_reloads_total\\{result=\"error\"\\} [1-9]");
    }

    Files.delete(rows);
    assertThat(reloader.reloadIfChanged()).isTrue();
    assertThat(getparams("rows4"))
        .as("once the path is really gone, the newcomer takes the name")
        .isEqualTo("200 {\"output\":{\"parameters\":[]}}");
  }

  /**
   * The plain case (no newcomer for the name), with the mappings given as a directory or as the
   * file itself: whatever is not a regular file now at a served file's path (a FIFO, a symlink to
   * /dev/zero, a directory) keeps the old version serving and says why, in the log and /mappings,
   * one path for every kind (the symlink to /dev/zero once said nothing).
   */
  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.CsvSource({
    "fifo,directory",
    "devzero,directory",
    "directory,directory",
    "fifo,file",
    "devzero,file",
    "directory,file"
  })
  void aServedFileReplacedByWhatIsNotARegularFileSaysSo(
      String kind, String given, @TempDir Path dir) throws Exception {
    Path rows = dir.resolve("rows5.yaml");
    Files.writeString(rows, mapping("rows5", "kept"));
    serve(given.equals("file") ? rows : dir);
    try (io.github.appsetmapper.testing.LogCapture logs =
        new io.github.appsetmapper.testing.LogCapture()) {
      Files.delete(rows);
      String why = oddFile(rows, kind);
      assertThat(reloader.reloadIfChanged()).isTrue();
      assertThat(getparams("rows5"))
          .isEqualTo("200 {\"output\":{\"parameters\":[{\"greeting\":\"kept\"}]}}");
      assertThat(call("/mappings", "GET"))
          .contains("\"state\":\"stale\"")
          .contains("\"lastError\":\"" + rows + ":1:1: " + why + "\"");
      assertThat(logs.lines())
          .contains(
              rows
                  + " did not load, its previous version keeps serving rows5: "
                  + rows
                  + ":1:1: "
                  + why);
    }
  }

  /**
   * A FIFO or a symlink to /dev/zero that never served is a failure named in /mappings and in the
   * log, never silently skipped (red team L1).
   */
  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(strings = {"fifo", "devzero"})
  void whatIsNotARegularFileIsAFailureNamed(String kind, @TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("a.yaml"), mapping("a", "one"));
    serve(dir);
    try (io.github.appsetmapper.testing.LogCapture logs =
        new io.github.appsetmapper.testing.LogCapture()) {
      Path odd = dir.resolve("z.yaml");
      String why = oddFile(odd, kind);
      assertThat(reloader.reloadIfChanged()).isTrue();
      assertThat(call("/mappings", "GET"))
          .contains("\"failures\":[\"" + odd + ":1:1: " + why + "\"]");
      assertThat(logs.lines()).contains(odd + " did not load: " + odd + ":1:1: " + why);
    }
    assertThat(getparams("a")).contains("one");
  }

  /**
   * The serving file renamed while a refused newcomer waits for its name: the renamed file (gone
   * from its old path, its very content at a new one) keeps the name; the newcomer stays refused
   * (red team L3: both were refused, a 404).
   */
  @Test
  void aRenamedFileKeepsItsNameWhileARefusedNewcomerWaits(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("rows3.yaml"), mapping("rows3", "served"));
    serve(dir);
    Files.writeString(
        dir.resolve("aaa.yaml"),
        "name: rows3\nfilter: \"false\"\nparameters: {greeting: \"'a'\"}\n");
    assertThat(reloader.reloadIfChanged()).isTrue();
    assertThat(getparams("rows3")).contains("served");

    try (io.github.appsetmapper.testing.LogCapture logs =
        new io.github.appsetmapper.testing.LogCapture()) {
      Files.move(dir.resolve("rows3.yaml"), dir.resolve("zzz.yaml"));
      assertThat(reloader.reloadIfChanged()).isTrue();

      assertThat(getparams("rows3"))
          .isEqualTo("200 {\"output\":{\"parameters\":[{\"greeting\":\"served\"}]}}");
      assertThat(call("/mappings", "GET"))
          .contains(
              dir.resolve("aaa.yaml")
                  + ":1:7 name: duplicate mapping name 'rows3' (also in "
                  + dir.resolve("zzz.yaml")
                  + "): "
                  + dir.resolve("zzz.yaml")
                  + " serves it and keeps it; this one is refused");
      assertThat(logs.lines())
          .contains(
              "loaded new file " + dir.resolve("zzz.yaml") + ": rows3",
              dir.resolve("rows3.yaml") + " is gone: no longer serving rows3");
    }

    Files.delete(dir.resolve("zzz.yaml"));
    assertThat(reloader.reloadIfChanged()).isTrue();
    assertThat(getparams("rows3"))
        .as("once the renamed file is gone, the newcomer takes the name")
        .isEqualTo("200 {\"output\":{\"parameters\":[]}}");
  }

  /**
   * The "reloaded" and "loaded new file" lines are true when they are written: a getparams sent at
   * the very moment the line is appended (on the reloader's thread, which waits for its answer)
   * gets the new version. It was logged before the registry was swapped in, and with the timer
   * (which loads a change once it held still for one look) the line read as served before it was.
   */
  @Test
  void theLoadedLineIsWrittenOnceTheNewVersionAnswers(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("a.yaml"), mapping("a", "one"));
    serve(dir);
    Map<String, String> answeredAtTheLine = new java.util.concurrent.ConcurrentHashMap<>();
    ch.qos.logback.classic.Logger reload =
        (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger("appset_mapper.reload");
    // Unsynchronized: the server's threads may log while this one waits for their answer.
    ch.qos.logback.core.UnsynchronizedAppenderBase<ch.qos.logback.classic.spi.ILoggingEvent>
        asking =
            new ch.qos.logback.core.UnsynchronizedAppenderBase<>() {
              @Override
              protected void append(ch.qos.logback.classic.spi.ILoggingEvent event) {
                String line = event.getFormattedMessage();
                String name = line.substring(line.lastIndexOf(' ') + 1);
                if (line.startsWith("reloaded ") || line.startsWith("loaded new file ")) {
                  try {
                    answeredAtTheLine.put(line, getparams(name));
                  } catch (Exception e) {
                    answeredAtTheLine.put(line, e.toString());
                  }
                }
              }
            };
    asking.setContext(reload.getLoggerContext());
    asking.start();
    reload.addAppender(asking);
    try {
      replace(dir.resolve("a.yaml"), mapping("a", "two"));
      Files.writeString(dir.resolve("b.yaml"), mapping("b", "bee"));
      assertThat(reloader.reloadIfChanged()).isTrue();
    } finally {
      reload.detachAppender(asking);
    }
    assertThat(answeredAtTheLine)
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                "reloaded " + dir.resolve("a.yaml") + ": a",
                "200 {\"output\":{\"parameters\":[{\"greeting\":\"two\"}]}}",
                "loaded new file " + dir.resolve("b.yaml") + ": b",
                "200 {\"output\":{\"parameters\":[{\"greeting\":\"bee\"}]}}"));
  }
}
