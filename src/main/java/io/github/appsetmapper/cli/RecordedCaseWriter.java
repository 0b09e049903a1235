package io.github.appsetmapper.cli;

import io.github.appsetmapper.compile.CompileOptions;
import io.github.appsetmapper.compile.CompiledMapping;
import io.github.appsetmapper.compile.MappingLoader;
import io.github.appsetmapper.compile.VarValues;
import io.github.appsetmapper.config.YamlLimits;
import io.github.appsetmapper.files.BoundedFiles;
import io.github.appsetmapper.replay.ExchangeFile;
import io.github.appsetmapper.replay.MappingTestRun;
import io.github.appsetmapper.replay.SecretScrubber;
import io.github.appsetmapper.replay.TestFileWriter;
import io.github.appsetmapper.secret.Redactor;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;

/**
 * {@code record}'s writing: the case into the test file (new, or appended), then replayed from the
 * file until it is known to pass; a case that does not is taken out again, the file as before.
 */
final class RecordedCaseWriter {
  private final Path file;
  private final String caseName;

  /** For the case {@code caseName} of the mapping file {@code file}. */
  RecordedCaseWriter(Path file, String caseName) {
    this.file = file;
    this.caseName = caseName;
  }

  /**
   * Writes the case (a new file, or appended), then runs it from the file; a case that does not
   * pass is taken out again, with why.
   */
  int write(
      Path testFile,
      ExchangeFile existing,
      CompiledMapping mapping,
      Map<String, String> standIns,
      TestFileWriter.Case recorded,
      ExecutorService pool,
      PrintWriter stdout,
      PrintWriter err,
      SecretScrubber scrubber)
      throws IOException {
    String before =
        existing == null ? null : BoundedFiles.readText(testFile, YamlLimits.TEST.fileBytes());
    if (existing != null) {
      String problem = varsDiffer(testFile, existing, mapping, standIns);
      if (problem != null) {
        err.println("error: " + problem + "; write to another file with --out");
        return ExitCode.USAGE;
      }
    }
    TestFileWriter.Case marked = recorded.withOptional(timingDependent(recorded));
    TestFileWriter writer = new TestFileWriter(testFile);
    if (!writeCase(writer, testFile, before, mapping, standIns, marked, err)) {
      return ExitCode.USAGE;
    }
    // Replayed several times: an exchange one replay leaves unused depends on timing.
    Set<Integer> unused = new java.util.TreeSet<>();
    MappingTestRun.FileResult check = replays(testFile, pool, unused);
    if (check == null && !unused.isEmpty()) {
      marked = marked.withOptional(unused);
      writer = rewrite(writer, testFile, before);
      writeCase(writer, testFile, before, mapping, standIns, marked, err);
      check = replays(testFile, pool, new java.util.TreeSet<>());
    }
    if (check == null) {
      return ExitCode.OK;
    }
    if (before == null) {
      Files.delete(testFile);
    } else {
      Files.writeString(testFile, before, StandardCharsets.UTF_8);
    }
    for (Path body : writer.bodyFiles()) {
      Files.deleteIfExists(body);
    }
    err.println(
        "error: the recorded case does not pass when run from the file, so it was not kept:");
    check.problems().forEach(line -> err.println("  " + line));
    check.cases().forEach(c -> c.details().forEach(line -> err.println("  " + line)));
    if (check.problems().isEmpty() && check.cases().stream().allMatch(c -> c.details().isEmpty())) {
      err.println("  the case read back from the file did not run as recorded (no detail given)");
    }
    scrubber.notes().forEach(note -> err.println("note: " + note));
    return ExitCode.FAILED;
  }

  /** How often a recorded case is replayed before it is kept. */
  static final int REPLAYS = 6;

  /**
   * The exchanges whose use depends on timing, known from the answer alone: when it is an error,
   * calls made alongside the failing one may or may not be made on replay (the failure cancels what
   * has not started), so every exchange but the first is optional; the error's message, which names
   * the failing call, is still compared exactly.
   */
  private static Set<Integer> timingDependent(TestFileWriter.Case recorded) {
    Set<Integer> out = new java.util.TreeSet<>();
    if (recorded.errorStatus() != null) {
      for (int i = 1; i < recorded.exchanges().size(); i++) {
        out.add(i);
      }
    }
    return out;
  }

  /**
   * Replays the case {@link #REPLAYS} times from the file, adding to {@code unused} the exchanges
   * any replay left unused; null when every replay passed but for unused exchanges, else the
   * failing result.
   */
  private MappingTestRun.FileResult replays(
      Path testFile, ExecutorService pool, Set<Integer> unused) throws IOException {
    for (int i = 0; i < REPLAYS; i++) {
      MappingTestRun.FileResult check =
          MappingTestRun.run(testFile, pool, VarValues.NONE, Set.of(caseName));
      if (!check.problems().isEmpty() || check.cases().size() != 1) {
        return check;
      }
      MappingTestRun.CaseResult result = check.cases().get(0);
      if (!result.details().stream().allMatch(d -> d.startsWith("expected call not made: "))) {
        return check;
      }
      unused.addAll(result.unused());
      if (!result.passed() && result.unused().isEmpty()) {
        return check;
      }
    }
    return null;
  }

  /** Writes the case into the test file (a new file, or appended to {@code before}). */
  private boolean writeCase(
      TestFileWriter writer,
      Path testFile,
      String before,
      CompiledMapping mapping,
      Map<String, String> standIns,
      TestFileWriter.Case recorded,
      PrintWriter err)
      throws IOException {
    String text;
    if (before == null) {
      text =
          writer.newFile(
              "# Recorded by `appset-mapper record "
                  + file.getFileName()
                  + "`: every secret is a stand-in (secrets below), every token"
                  + " recorded-token-N.\n# Review the recorded bodies before committing them.\n",
              mapping.name(),
              new TreeMap<>(mapping.vars()),
              new TreeMap<>(standIns),
              recorded);
    } else {
      text = writer.appended(before, recorded);
      if (text == null) {
        err.println(
            "error: "
                + testFile
                + " does not end with a block list of cases, so the case cannot be appended to"
                + " it; write to another file with --out");
        return false;
      }
    }
    if (testFile.toAbsolutePath().getParent() != null) {
      Files.createDirectories(testFile.toAbsolutePath().getParent());
    }
    Files.writeString(testFile, text, StandardCharsets.UTF_8);
    return true;
  }

  /** Puts the file back as it was before the case, for writing it again. */
  private static TestFileWriter rewrite(TestFileWriter writer, Path testFile, String before)
      throws IOException {
    for (Path body : writer.bodyFiles()) {
      Files.deleteIfExists(body);
    }
    if (before == null) {
      Files.deleteIfExists(testFile);
    } else {
      Files.writeString(testFile, before, StandardCharsets.UTF_8);
    }
    return new TestFileWriter(testFile);
  }

  /**
   * Why the existing file's cases run with other vars than this run had (the case's calls depend on
   * them), or null. The file's vars are what a test runs with; a var it leaves out keeps its
   * default.
   */
  private static String varsDiffer(
      Path testFile, ExchangeFile existing, CompiledMapping live, Map<String, String> standIns) {
    MappingLoader.Result replay =
        MappingLoader.load(
            List.of(
                MappingTestRun.mappingFileFor(testFile).toFile().isFile()
                    ? MappingTestRun.mappingFileFor(testFile)
                    : testFile.toAbsolutePath().getParent()),
            new CompileOptions(
                VarValues.NONE.under(existing.vars()), name -> null, new Redactor(), standIns));
    CompiledMapping replayed =
        replay.mappings().stream()
            .filter(m -> m.name().equals(live.name()))
            .findFirst()
            .orElse(null);
    if (replayed == null) {
      return testFile + " does not load mapping '" + live.name() + "' with its own vars";
    }
    for (Map.Entry<String, String> var : new TreeMap<>(live.vars()).entrySet()) {
      String inFile = replayed.vars().get(var.getKey());
      if (!var.getValue().equals(inFile)) {
        return testFile
            + " runs its cases with var "
            + var.getKey()
            + " = "
            + inFile
            + ", this run had "
            + var.getValue();
      }
    }
    return null;
  }
}
