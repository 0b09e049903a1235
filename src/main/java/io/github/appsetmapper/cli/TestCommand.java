package io.github.appsetmapper.cli;

import io.github.appsetmapper.compile.VarValues;
import io.github.appsetmapper.config.MappingSources;
import io.github.appsetmapper.replay.MappingTestRun;
import io.github.appsetmapper.runtime.AppRuntime;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Callable;
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
final class TestCommand implements Callable<Integer> {
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
    AppRuntime runtime = AppRuntime.builder().enrichThreads(8).build();
    try {
      for (Path file : files) {
        MappingTestRun.FileResult result =
            MappingTestRun.run(file, runtime.pool(), given, caseNames);
        print(out, result);
        passed += result.passed();
        failed += result.failed();
      }
    } finally {
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
