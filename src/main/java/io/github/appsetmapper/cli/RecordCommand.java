package io.github.appsetmapper.cli;

import io.github.appsetmapper.compile.CompiledMapping;
import io.github.appsetmapper.compile.MappingLoader;
import io.github.appsetmapper.compile.VarValues;
import io.github.appsetmapper.engine.Engine;
import io.github.appsetmapper.engine.Invocation;
import io.github.appsetmapper.json.JsonCodec;
import io.github.appsetmapper.json.JsonRefusal;
import io.github.appsetmapper.replay.CapturingUpstream;
import io.github.appsetmapper.replay.ExchangeFile;
import io.github.appsetmapper.replay.MappingTestRun;
import io.github.appsetmapper.replay.SecretScrubber;
import io.github.appsetmapper.replay.TestFileWriter;
import io.github.appsetmapper.runtime.AppRuntime;
import io.github.appsetmapper.secret.Redactor;
import io.github.appsetmapper.server.ErrorAnswer;
import io.github.appsetmapper.server.ErrorAnswers;
import io.github.appsetmapper.text.Plural;
import io.github.appsetmapper.upstream.HttpUpstream;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code record FILE --case NAME}: runs a mapping once against its real upstreams, as {@code run}
 * does, and writes the run into a test file as a case: every upstream call with its answer, and the
 * answer as what the case expects. Every secret is replaced before anything is written ({@link
 * SecretScrubber}); the case is then run from the file, and kept only when it passes.
 */
@Command(
    name = "record",
    mixinStandardHelpOptions = true,
    description = {
      "Run a mapping once against its real upstreams and write the run into a test file as a"
          + " case, every secret replaced; the case is kept only when it passes from the file.",
      "Secrets and vars are read as `run` reads them (files, environment, --var)."
    })
final class RecordCommand extends RedactedCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @CommandLine.Mixin MappingRunOptions run = new MappingRunOptions();

  @Option(
      names = "--case",
      required = true,
      paramLabel = "NAME",
      description = "The name of the case to write (new in the test file).")
  String caseName;

  @Option(
      names = "--out",
      paramLabel = "TEST_FILE",
      description =
          "The test file to write or append to, in the mapping's folder (default: x.test.yaml"
              + " beside the mapping x.yaml).")
  Path out;

  @Option(
      names = "--app-set",
      paramLabel = "NAME",
      defaultValue = "test",
      description = "The applicationSetName sent (default ${DEFAULT-VALUE}).")
  String appSet;

  @Override
  public Integer call() throws Exception {
    PrintWriter stdout = Terminal.out(spec);
    PrintWriter err = Terminal.err(spec);
    if (AppSetOption.refused(appSet, err)) {
      return ExitCode.USAGE;
    }
    try {
      return record(stdout, err);
    } finally {
      stdout.flush();
      err.flush();
    }
  }

  private int record(PrintWriter stdout, PrintWriter err) throws Exception {
    VarValues given = VarOption.parse(run.vars, err);
    if (given == null) {
      return ExitCode.USAGE;
    }
    Map<String, Object> input = run.input(err);
    if (input == null) {
      return ExitCode.USAGE;
    }
    if (caseName != null
        && !io.github.appsetmapper.text.Printable.escape(caseName).equals(caseName)) {
      // `test` names a case on one line: a control or invisible character would not read back.
      err.println(
          "error: --case '"
              + io.github.appsetmapper.text.Printable.escape(caseName)
              + "' holds a control or invisible character; name the case in printable text");
      return ExitCode.USAGE;
    }
    Path testFile = out != null ? out : MappingTestRun.testFileFor(run.file);
    if (!io.github.appsetmapper.config.MappingSources.isTestFile(testFile)
        || !folder(testFile).equals(folder(run.file))) {
      err.println(
          "error: --out must name a *.test.yaml in the mapping's folder ("
              + folder(run.file)
              + "): a test file finds its mapping beside it");
      return ExitCode.USAGE;
    }
    ExchangeFile existing = Files.exists(testFile) ? readExisting(testFile, err) : null;
    if (Files.exists(testFile) && existing == null) {
      return ExitCode.FAILED;
    }
    if (existing != null && existing.cases().stream().anyMatch(c -> c.name().equals(caseName))) {
      err.println("error: " + testFile + " already has a case named '" + caseName + "'");
      return ExitCode.USAGE;
    }
    CapturingUpstream upstream =
        new CapturingUpstream(new HttpUpstream(MappingRunOptions.httpOptions()));
    try (AppRuntime runtime =
        runtimeBuilder().vars(given).transport(upstream).enrichThreads(16).build()) {
      Redactor redactor = runtime.redactor();
      ExecutorService pool = runtime.pool();
      MappingLoader.Result loaded = runtime.load(List.of(run.file));
      boolean varsRefused = VarOption.refused(loaded, err, true);
      if (!loaded.problems().isEmpty()) {
        ProblemPrinter.print(err, loaded.problems());
      }
      if (varsRefused) {
        return ExitCode.USAGE;
      }
      if (!loaded.ok()) {
        return ExitCode.FAILED;
      }
      CompiledMapping mapping = run.pick(loaded.mappings(), err);
      if (mapping == null) {
        return ExitCode.USAGE;
      }
      if (existing != null
          && existing.mapping() != null
          && !existing.mapping().equals(mapping.name())) {
        err.println(
            "error: "
                + testFile
                + " tests mapping '"
                + existing.mapping()
                + "', not '"
                + mapping.name()
                + "'; write to another file with --out");
        return ExitCode.USAGE;
      }
      Map<String, String> live = RecordedSecrets.liveSecrets(mapping, err);
      if (live == null) {
        return ExitCode.FAILED;
      }
      Map<String, String> standIns = RecordedSecrets.standIns(live, existing);
      Map<String, String> secretValues = new LinkedHashMap<>();
      live.forEach((name, value) -> secretValues.put(value, standIns.get(name)));
      Engine engine = runtime.engine();
      List<Map<String, Object>> parameters = null;
      ErrorAnswer error = null;
      try {
        parameters = engine.execute(mapping, new Invocation(appSet, input));
      } catch (Exception failure) {
        error = new ErrorAnswers(redactor).map(failure);
      }
      List<CapturingUpstream.Captured> calls = upstream.captured();
      List<CapturingUpstream.Captured> failed =
          calls.stream().filter(c -> c.response() == null).toList();
      if (!failed.isEmpty()) {
        err.println(
            "error: a call got no answer, and a test file records answers only; nothing was"
                + " written:");
        failed.forEach(c -> err.println("  " + redactor.redact(c.failure())));
        return ExitCode.FAILED;
      }
      SecretScrubber scrubber = SecretScrubber.of(calls, secretValues, redactor);
      TestFileWriter.Case recorded = recordedCase(scrubber, calls, input, parameters, error);
      int written =
          new RecordedCaseWriter(run.file, caseName)
              .write(testFile, existing, mapping, standIns, recorded, pool, stdout, err, scrubber);
      if (written != ExitCode.OK) {
        return written;
      }
      stdout.println(
          "recorded case '"
              + caseName
              + "' into "
              + testFile
              + ": "
              + Plural.of(calls.size(), "upstream call")
              + "; the mapping answered "
              + (error == null
                  ? Plural.of(parameters.size(), "parameter map")
                  : error.status() + ": " + scrubber.answer(error.message())));
      scrubber.notes().forEach(note -> err.println("note: " + note));
      return ExitCode.OK;
    }
  }

  @SuppressWarnings("unchecked")
  private TestFileWriter.Case recordedCase(
      SecretScrubber scrubber,
      List<CapturingUpstream.Captured> calls,
      Map<String, Object> input,
      List<Map<String, Object>> parameters,
      ErrorAnswer error)
      throws JsonRefusal {
    List<Map<String, Object>> expected =
        parameters == null
            ? null
            : (List<Map<String, Object>>)
                scrubber.answer(JsonCodec.read(JsonCodec.writeBytes(parameters)));
    return new TestFileWriter.Case(
        caseName,
        appSet,
        (Map<String, Object>) scrubber.answer(input),
        scrubber.exchanges(calls),
        expected,
        error == null ? null : error.status(),
        error == null ? null : (String) scrubber.answer(error.message()));
  }

  private ExchangeFile readExisting(Path testFile, PrintWriter err) {
    try {
      return ExchangeFile.read(testFile);
    } catch (IOException | RuntimeException e) {
      err.println("error: cannot append to " + testFile + ": " + e.getMessage());
      return null;
    }
  }

  private static Path folder(Path path) {
    Path parent = path.toAbsolutePath().normalize().getParent();
    return parent == null ? Path.of("/") : parent;
  }
}
