package io.github.appsetmapper.cli;

import io.github.appsetmapper.compile.CompileOptions;
import io.github.appsetmapper.compile.CompiledMapping;
import io.github.appsetmapper.compile.MappingLoader;
import io.github.appsetmapper.compile.VarValues;
import io.github.appsetmapper.config.YamlLimits;
import io.github.appsetmapper.engine.Engine;
import io.github.appsetmapper.engine.Invocation;
import io.github.appsetmapper.files.BoundedFiles;
import io.github.appsetmapper.json.JsonCodec;
import io.github.appsetmapper.json.JsonRefusal;
import io.github.appsetmapper.replay.CapturingUpstream;
import io.github.appsetmapper.replay.ExchangeFile;
import io.github.appsetmapper.replay.MappingTestRun;
import io.github.appsetmapper.replay.SecretScrubber;
import io.github.appsetmapper.replay.TestFileWriter;
import io.github.appsetmapper.runtime.AppRuntime;
import io.github.appsetmapper.secret.Redactor;
import io.github.appsetmapper.secret.SecretUnavailableException;
import io.github.appsetmapper.server.ErrorAnswer;
import io.github.appsetmapper.server.ErrorAnswers;
import io.github.appsetmapper.text.Plural;
import io.github.appsetmapper.upstream.HttpUpstream;
import io.github.appsetmapper.upstream.UpstreamOptions;
import io.github.appsetmapper.upstream.net.ProxySettings;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

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
final class RecordCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Parameters(index = "0", paramLabel = "FILE", description = "The mapping file.")
  Path file;

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
      names = "--mapping",
      paramLabel = "NAME",
      description = "Which mapping, when the file holds several.")
  String mappingName;

  @Option(
      names = "--input",
      paramLabel = "KEY=VALUE",
      description = "An input parameter, as a string (repeatable).")
  Map<String, String> inputs = new LinkedHashMap<>();

  @Option(
      names = "--input-json",
      paramLabel = "JSON",
      description = "Input parameters as a JSON object (typed values).")
  String inputJson;

  @Option(
      names = "--app-set",
      paramLabel = "NAME",
      defaultValue = "test",
      description = "The applicationSetName sent (default ${DEFAULT-VALUE}).")
  String appSet;

  @Option(names = "--var", paramLabel = VarOption.LABEL, description = VarOption.DESCRIPTION)
  Map<String, String> vars = Map.of();

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
    VarValues given = VarOption.parse(vars, err);
    if (given == null) {
      return ExitCode.USAGE;
    }
    Map<String, Object> input = input(err);
    if (input == null) {
      return ExitCode.USAGE;
    }
    Path testFile = out != null ? out : MappingTestRun.testFileFor(file);
    if (!io.github.appsetmapper.config.MappingSources.isTestFile(testFile)
        || !folder(testFile).equals(folder(file))) {
      err.println(
          "error: --out must name a *.test.yaml in the mapping's folder ("
              + folder(file)
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
    CapturingUpstream upstream = new CapturingUpstream(new HttpUpstream(options()));
    try (AppRuntime runtime =
        AppRuntime.builder().vars(given).transport(upstream).enrichThreads(16).build()) {
      Redactor redactor = runtime.redactor();
      ExecutorService pool = runtime.pool();
      MappingLoader.Result loaded = runtime.load(List.of(file));
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
      CompiledMapping mapping = pick(loaded.mappings(), err);
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
      Map<String, String> live = liveSecrets(mapping, err);
      if (live == null) {
        return ExitCode.FAILED;
      }
      Map<String, String> standIns = standIns(live, existing);
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
          write(testFile, existing, mapping, standIns, recorded, pool, stdout, err, scrubber);
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

  /**
   * Writes the case (a new file, or appended), then runs it from the file; a case that does not
   * pass is taken out again, with why.
   */
  private int write(
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

  /**
   * Each declared secret's stand-in: the existing file's, else {@code recorded-NAME}; for a PEM
   * private key (a GitHub App's) a key made for the test, since the mapping must sign with it.
   */
  private static Map<String, String> standIns(Map<String, String> live, ExchangeFile existing)
      throws java.security.GeneralSecurityException {
    Map<String, String> out = new TreeMap<>();
    for (Map.Entry<String, String> secret : live.entrySet()) {
      String fromFile = existing == null ? null : existing.secrets().get(secret.getKey());
      if (fromFile != null) {
        out.put(secret.getKey(), fromFile);
      } else if (secret.getValue().contains("PRIVATE KEY-----")) {
        out.put(secret.getKey(), testKey());
      } else {
        out.put(secret.getKey(), "recorded-" + secret.getKey());
      }
    }
    return out;
  }

  /** A new RSA private key as PKCS#8 PEM: it signs nothing but a test's requests. */
  private static String testKey() throws java.security.GeneralSecurityException {
    java.security.KeyPairGenerator generator = java.security.KeyPairGenerator.getInstance("RSA");
    generator.initialize(2048);
    String base64 =
        java.util.Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
            .encodeToString(generator.generateKeyPair().getPrivate().getEncoded());
    return "-----BEGIN PRIVATE KEY-----\n" + base64 + "\n-----END PRIVATE KEY-----\n";
  }

  /** Each declared secret's live value; null (said on err) when one cannot be read. */
  private static Map<String, String> liveSecrets(CompiledMapping mapping, PrintWriter err) {
    Map<String, String> out = new TreeMap<>();
    for (String name : mapping.secrets().keySet()) {
      String value;
      try {
        value = mapping.secrets().get(name).value();
      } catch (SecretUnavailableException e) {
        err.println("error: secret " + name + ": " + e.getMessage());
        return null;
      }
      if (value.length() < 4) {
        err.println(
            "error: secret "
                + name
                + " is shorter than 4 characters, too short to tell apart from the data it"
                + " would be replaced in");
        return null;
      }
      out.put(name, value);
    }
    return out;
  }

  private ExchangeFile readExisting(Path testFile, PrintWriter err) {
    try {
      return ExchangeFile.read(testFile);
    } catch (IOException | RuntimeException e) {
      err.println("error: cannot append to " + testFile + ": " + e.getMessage());
      return null;
    }
  }

  @SuppressWarnings("unchecked")
  private Map<String, Object> input(PrintWriter err) {
    Map<String, Object> parameters = new LinkedHashMap<>();
    if (inputJson != null) {
      Object read;
      try {
        read = JsonCodec.read(inputJson);
      } catch (JsonRefusal e) {
        err.println("error: --input-json " + e.located());
        return null;
      }
      if (!(read instanceof Map<?, ?> typed)) {
        err.println("error: --input-json must be a JSON object");
        return null;
      }
      parameters.putAll((Map<String, Object>) typed);
    }
    parameters.putAll(inputs);
    return parameters;
  }

  private CompiledMapping pick(List<CompiledMapping> mappings, PrintWriter err) {
    CompiledMapping picked =
        mappingName != null
            ? mappings.stream().filter(m -> m.name().equals(mappingName)).findFirst().orElse(null)
            : mappings.size() == 1 ? mappings.get(0) : null;
    if (picked == null) {
      err.println(
          "error: "
              + (mappingName == null
                  ? file + " holds several mappings; name one with --mapping"
                  : file + " holds no mapping '" + mappingName + "'")
              + " (it holds: "
              + String.join(", ", mappings.stream().map(CompiledMapping::name).toList())
              + ")");
    }
    return picked;
  }

  private static Path folder(Path path) {
    Path parent = path.toAbsolutePath().normalize().getParent();
    return parent == null ? Path.of("/") : parent;
  }

  /** The defaults `run` uses, with proxies from the environment. */
  private static UpstreamOptions options() throws IOException {
    try {
      return UpstreamOptions.defaults(16, HttpUpstream.DEFAULT_MAX_BODY_BYTES)
          .withProxies(ProxySettings.fromEnvironment(System::getenv));
    } catch (IllegalArgumentException e) {
      throw new IOException(e.getMessage());
    }
  }
}
