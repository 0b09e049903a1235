package io.github.appsetmapper.cli;

import io.github.appsetmapper.compile.VarValues;
import io.github.appsetmapper.config.MappingSources;
import io.github.appsetmapper.replay.MappingTestRun;
import io.github.appsetmapper.runtime.AppRuntime;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code test PATH...}: runs mapping test files in-process against their recorded exchanges, one
 * line per case, a diff under each failure, then {@code N passed, N failed}; exit 0 only when every
 * case passed (and there was at least one).
 */
@Command(
    name = "test",
    mixinStandardHelpOptions = true,
    description = {
      "Run mapping test files (*.test.yaml) offline against their recorded upstream exchanges.",
      "A PATH is a test file, a mapping file (its x.test.yaml beside it is run) or a directory"
          + " (every *.test.yaml under it, recursively)."
    })
final class TestCommand extends RedactedCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Parameters(
      arity = "1..*",
      paramLabel = "PATH",
      description = "Test files, mapping files or directories.")
  List<Path> paths;

  @Option(
      names = "--var",
      paramLabel = VarOption.LABEL,
      description =
          VarOption.DESCRIPTION + " A test file's own vars win: its recorded calls depend on them.")
  Map<String, String> vars = Map.of();

  @Option(
      names = "--case",
      paramLabel = "NAME",
      description =
          "Run only the case of this name (repeatable); the other cases are not run or listed.")
  Set<String> caseNames = new LinkedHashSet<>();

  @Override
  public Integer call() throws java.io.IOException {
    PrintWriter out = Terminal.out(spec);
    PrintWriter err = Terminal.err(spec);
    VarValues given = VarOption.parse(vars, err);
    if (given == null) {
      return ExitCode.USAGE;
    }
    int passed = 0;
    int failed = 0;
    Set<Path> files = new LinkedHashSet<>();
    for (Path path : paths) {
      String problem = collect(path, files);
      if (problem != null) {
        out.println("FAIL " + path + ": " + problem);
        failed++;
      }
    }
    if (!given.isEmpty()) {
      Map<String, Set<String>> declared = new TreeMap<>();
      files.forEach(file -> declared.putAll(MappingTestRun.declaredVars(file)));
      List<String> unknown = given.unknown(declared);
      unknown.forEach(var -> err.println("error: " + VarValues.unknownMessage(var, declared)));
      err.flush();
      if (!unknown.isEmpty()) {
        out.flush();
        return ExitCode.USAGE;
      }
    }
    // Each case runs its own engine over the case's recorded exchanges, on the runtime's pool.
    // Files run side by side on the machine's cores (a catalogue's run is mostly CPU), and their
    // results are printed in the files' order, as one at a time printed them.
    AppRuntime runtime = runtimeBuilder().enrichThreads(8).build();
    ExecutorService runners = Executors.newFixedThreadPool(runners(files.size()), daemon());
    try {
      List<Future<MappingTestRun.FileResult>> running = new ArrayList<>();
      for (Path file : files) {
        running.add(
            runners.submit(() -> MappingTestRun.run(file, runtime.pool(), given, caseNames)));
      }
      for (Future<MappingTestRun.FileResult> next : running) {
        MappingTestRun.FileResult result = result(next);
        print(out, result);
        out.flush();
        passed += result.passed();
        failed += result.failed();
      }
    } finally {
      runners.shutdownNow();
      runtime.close();
    }
    if (passed + failed == 0) {
      out.println("FAIL " + noCase(files));
      failed++;
    }
    out.println(passed + " passed, " + failed + " failed");
    out.flush();
    return failed == 0 ? ExitCode.OK : ExitCode.FAILED;
  }

  /** One runner a core, at most {@link #MAX_RUNNERS}, never more than there are files. */
  static int runners(int files) {
    return Math.max(
        1, Math.min(files, Math.min(MAX_RUNNERS, Runtime.getRuntime().availableProcessors())));
  }

  private static final int MAX_RUNNERS = 4;

  private static java.util.concurrent.ThreadFactory daemon() {
    return task -> {
      Thread thread = new Thread(task, "test-file");
      thread.setDaemon(true);
      return thread;
    };
  }

  /** A file's result; what its run threw is thrown here, as a run on this thread threw it. */
  private static MappingTestRun.FileResult result(Future<MappingTestRun.FileResult> run) {
    try {
      return run.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while test files ran", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException thrown) {
        throw thrown;
      }
      if (e.getCause() instanceof Error thrown) {
        throw thrown;
      }
      throw new IllegalStateException(e.getCause());
    }
  }

  /** Why nothing ran, naming where it looked. */
  private String noCase(Set<Path> files) {
    String where = String.join(", ", files.stream().map(Path::toString).toList());
    if (caseNames.isEmpty()) {
      return "no test case found in " + where;
    }
    return "no test case named "
        + String.join(", ", caseNames.stream().map(n -> "'" + n + "'").toList())
        + " in "
        + where;
  }

  private static void print(PrintWriter out, MappingTestRun.FileResult result) {
    if (!result.problems().isEmpty()) {
      out.println("FAIL " + result.file() + ": " + result.problems().get(0));
      result.problems().stream().skip(1).forEach(line -> out.println("    " + line));
      if (result.cases().isEmpty()) {
        return;
      }
    }
    for (MappingTestRun.CaseResult c : result.cases()) {
      boolean notRun = !result.problems().isEmpty();
      out.println(
          (c.passed() ? "ok   " : "FAIL ")
              + result.file()
              + " > "
              + c.name()
              + (notRun ? " (not run)" : ""));
      c.details().forEach(line -> out.println("    " + line));
    }
  }

  /** Adds the test files a PATH names; returns why it names none, or null. */
  private static String collect(Path path, Set<Path> into) {
    if (Files.isDirectory(path)) {
      List<Path> found;
      try {
        found = MappingSources.testFilesUnder(path);
      } catch (IOException e) {
        return "cannot read: " + e.getMessage();
      }
      if (found.isEmpty()) {
        return "no *.test.yaml under it";
      }
      into.addAll(found);
      return null;
    }
    if (!Files.isRegularFile(path)) {
      return Files.exists(path) ? "not a regular file" : "no such file or directory";
    }
    if (MappingSources.isTestFile(path)) {
      into.add(path);
      return null;
    }
    Path test = MappingTestRun.testFileFor(path);
    if (!Files.isRegularFile(test)) {
      return "no test file beside it (" + test.getFileName() + ")";
    }
    into.add(test);
    return null;
  }
}
