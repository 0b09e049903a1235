package io.github.appsetmapper.replay;

import io.github.appsetmapper.compile.CompileOptions;
import io.github.appsetmapper.compile.CompiledMapping;
import io.github.appsetmapper.compile.MappingLoader;
import io.github.appsetmapper.compile.VarValues;
import io.github.appsetmapper.engine.Engine;
import io.github.appsetmapper.engine.Invocation;
import io.github.appsetmapper.expr.Equality;
import io.github.appsetmapper.json.JsonCodec;
import io.github.appsetmapper.json.JsonRefusal;
import io.github.appsetmapper.secret.Redactor;
import io.github.appsetmapper.server.ErrorAnswer;
import io.github.appsetmapper.server.ErrorAnswers;
import io.github.appsetmapper.text.Plural;
import io.github.appsetmapper.upstream.call.UpstreamRequest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;

/**
 * Runs the cases of one mapping test file in-process: the mapping beside it (or in its folder)
 * compiled with the file's vars and secret values, each case executed by the real engine against a
 * {@link RecordingUpstream} of the case's exchanges, its answer compared with the expected one.
 * What failed is described in lines a person can act on: the call nothing matched and the recorded
 * exchange closest to it, the expected calls not made, a line diff of the answers.
 */
public final class MappingTestRun {
  /** One case: its name, whether it passed, and why not. */
  /**
   * A case's result; {@code unused} holds the positions of its exchanges no call used this run,
   * optional ones included ({@code record} marks those whose use depends on timing).
   */
  public record CaseResult(
      String name, boolean passed, List<String> details, List<Integer> unused) {
    public CaseResult(String name, boolean passed, List<String> details) {
      this(name, passed, details, List.of());
    }
  }

  /**
   * A test file: its cases, or {@code problems} when it could not run at all (unreadable, the
   * mapping does not load); then every case counts as failed, at least one.
   */
  public record FileResult(Path file, List<CaseResult> cases, List<String> problems) {
    public int failed() {
      if (!problems.isEmpty()) {
        return Math.max(1, cases.size());
      }
      return (int) cases.stream().filter(c -> !c.passed()).count();
    }

    public int passed() {
      return problems.isEmpty() ? cases.size() - failed() : 0;
    }
  }

  private MappingTestRun() {}

  /** The mapping file a test file tests: {@code x.test.yaml} tests {@code x.yaml}. */
  public static Path mappingFileFor(Path testFile) {
    String name = testFile.getFileName().toString();
    String mapping = name.replaceFirst("\\.test\\.(ya?ml)$", ".$1");
    return testFile.resolveSibling(mapping);
  }

  /** The test file of a mapping file: {@code x.yaml} is tested by {@code x.test.yaml}. */
  public static Path testFileFor(Path mappingFile) {
    String name = mappingFile.getFileName().toString();
    return mappingFile.resolveSibling(name.replaceFirst("\\.(ya?ml)$", ".test.$1"));
  }

  public static FileResult run(Path testFile, ExecutorService pool) {
    return run(testFile, pool, VarValues.NONE);
  }

  /**
   * The vars each mapping a test file tests declares, by mapping name (for an unknown {@code
   * --var}); empty when the file or the mapping cannot be read (running it says why).
   */
  public static Map<String, Set<String>> declaredVars(Path testFile) {
    Path beside = mappingFileFor(testFile);
    Path source = Files.isRegularFile(beside) ? beside : testFile.toAbsolutePath().getParent();
    return MappingLoader.load(
            List.of(source), new CompileOptions(Map.of(), name -> null, new Redactor()))
        .declared();
  }

  /**
   * Runs a test file; {@code given} ({@code --var}) sets vars that the test file leaves unset: the
   * file's own {@code vars} win, its recorded calls depend on them.
   */
  public static FileResult run(Path testFile, ExecutorService pool, VarValues given) {
    return run(testFile, pool, given, Set.of());
  }

  /**
   * Runs the cases of a test file named in {@code caseNames} (every case when it is empty); a file
   * without any case fails, one without a case of those names gives no result.
   */
  public static FileResult run(
      Path testFile, ExecutorService pool, VarValues given, Set<String> caseNames) {
    ExchangeFile whole;
    try {
      whole = ExchangeFile.read(testFile);
    } catch (ExchangeFile.SchemaMismatch e) {
      return new FileResult(testFile, List.of(), e.lines());
    } catch (IOException | RuntimeException e) {
      return new FileResult(testFile, List.of(), List.of("cannot read: " + e.getMessage()));
    }
    if (whole.cases().isEmpty()) {
      return new FileResult(
          testFile, List.of(), List.of("no test case in it; add one under 'cases'"));
    }
    ExchangeFile file = whole.only(caseNames);
    if (file.cases().isEmpty()) {
      return new FileResult(testFile, List.of(), List.of());
    }
    Path beside = mappingFileFor(testFile);
    Path source = Files.isRegularFile(beside) ? beside : testFile.toAbsolutePath().getParent();
    Redactor redactor = new Redactor();
    // The environment is not read: a test gives the same answer on every machine.
    MappingLoader.Result loaded =
        MappingLoader.load(
            List.of(source),
            new CompileOptions(given.under(file.vars()), name -> null, redactor, file.secrets()));
    List<String> problems = new ArrayList<>();
    if (!loaded.ok()) {
      problems.add("the mapping does not load:");
      loaded.varErrors().forEach(p -> problems.add("  " + p));
      loaded.problems().forEach(p -> problems.add("  " + p));
      return notRun(file, problems);
    }
    CompiledMapping mapping = pick(file, loaded.mappings(), source, problems);
    if (mapping == null) {
      return notRun(file, problems);
    }
    TreeSet<String> missing = new TreeSet<>(mapping.secrets().keySet());
    missing.removeAll(file.secrets().keySet());
    if (!missing.isEmpty()) {
      problems.add(
          "mapping '"
              + mapping.name()
              + "' reads secret(s) "
              + String.join(", ", missing)
              + " that the test file does not give under 'secrets'; tests never read real"
              + " secrets");
      return notRun(file, problems);
    }
    ErrorAnswers errors = new ErrorAnswers(redactor);
    List<CaseResult> results = new ArrayList<>();
    for (ReplayCase c : file.cases()) {
      results.add(runCase(mapping, c, pool, redactor, errors));
    }
    return new FileResult(testFile, List.copyOf(results), List.of());
  }

  private static FileResult notRun(ExchangeFile file, List<String> problems) {
    List<CaseResult> cases = new ArrayList<>();
    file.cases().forEach(c -> cases.add(new CaseResult(c.name(), false, List.of())));
    return new FileResult(file.path(), List.copyOf(cases), List.copyOf(problems));
  }

  private static CompiledMapping pick(
      ExchangeFile file, List<CompiledMapping> mappings, Path source, List<String> problems) {
    List<String> names = mappings.stream().map(CompiledMapping::name).toList();
    String notTesting = file.notTesting(names, source);
    if (notTesting != null) {
      problems.add(notTesting);
      return null;
    }
    return mappings.get(names.indexOf(file.tested(names)));
  }

  private static CaseResult runCase(
      CompiledMapping mapping,
      ReplayCase c,
      ExecutorService pool,
      Redactor redactor,
      ErrorAnswers errors) {
    RecordingUpstream upstream = new RecordingUpstream(c.exchanges());
    Engine engine = Engine.builder().transport(upstream).pool(pool).redactor(redactor).build();
    Answer actual;
    try {
      Invocation invocation = new Invocation(c.applicationSetName(), roundTrip(c.input()));
      if (c.baseline() != null) {
        engine.seedBaseline(mapping, invocation, c.baseline());
      }
      actual = Answer.of(engine.execute(mapping, invocation));
    } catch (Exception | StackOverflowError failure) {
      ErrorAnswer answer = errors.map(failure);
      actual = new Answer(answer.status(), null, answer.message());
    }
    List<String> details = new ArrayList<>();
    if (c.baseline() != null && mapping.maxDrop() == null) {
      // A case that looks as if it tested the guard and tests nothing.
      details.add(
          "baseline: "
              + c.baseline()
              + " is given, but mapping '"
              + mapping.name()
              + "' has no maxDrop: remove it, or give the mapping maxDrop");
    }
    for (RecordingUpstream.Unexpected call : upstream.unexpected()) {
      details.addAll(unexpected(call, c.exchanges()));
    }
    for (RecordedExchange missing : upstream.unused()) {
      if (missing.optional()) {
        continue; // made or not as timing has it: alongside a call that failed
      }
      details.add("expected call not made: " + missing.method() + " " + missing.url());
    }
    details.addAll(compare(c, actual));
    return new CaseResult(
        c.name(), details.isEmpty(), List.copyOf(details), upstream.unusedIndexes());
  }

  /** Input as the server would see it after JSON: read by the codec, as GetParamsParser does. */
  @SuppressWarnings("unchecked")
  private static Map<String, Object> roundTrip(Map<String, Object> input) throws JsonRefusal {
    return (Map<String, Object>) JsonCodec.read(JsonCodec.writeBytes(input));
  }

  /** What the case answered: parameters (status 200) or an error status and message. */
  private record Answer(int status, List<Map<String, Object>> parameters, String message) {
    static Answer of(List<Map<String, Object>> parameters) {
      return new Answer(200, parameters, null);
    }
  }

  private static List<String> compare(ReplayCase c, Answer actual) {
    List<String> out = new ArrayList<>();
    if (c.expectParameters() != null) {
      if (actual.parameters() == null) {
        out.add("expected parameters, got error " + actual.status() + ": " + actual.message());
        return out;
      }
      if (!sameJson(c.expectParameters(), actual.parameters())) {
        out.add("parameters differ (- expected, + actual):");
        LineDiff.diff(pretty(c.expectParameters()), pretty(actual.parameters()))
            .forEach(line -> out.add("  " + line));
      }
      return out;
    }
    if (actual.parameters() != null) {
      out.add(
          "expected error "
              + c.expectStatus()
              + (c.expectMessage() == null ? "" : ": " + c.expectMessage())
              + ", got 200 with "
              + Plural.of(actual.parameters().size(), "parameter map")
              + ":");
      pretty(actual.parameters()).forEach(line -> out.add("  " + line));
      return out;
    }
    if (c.expectStatus() != actual.status()) {
      out.add("error status: expected " + c.expectStatus() + ", got " + actual.status());
    }
    if (c.expectMessage() != null && !c.expectMessage().equals(actual.message())) {
      out.add("error message differs (- expected, + actual):");
      out.add("  - " + c.expectMessage());
      out.add("  + " + actual.message());
      out.add("    " + " ".repeat(firstDifference(c.expectMessage(), actual.message())) + "^");
    }
    return out;
  }

  private static int firstDifference(String a, String b) {
    int i = 0;
    while (i < a.length() && i < b.length() && a.charAt(i) == b.charAt(i)) {
      i++;
    }
    return i;
  }

  /** Both as their JSON text reads back (keys as text), then by {@link Equality}'s rule. */
  private static boolean sameJson(Object expected, Object actual) {
    try {
      return Equality.same(
          JsonCodec.read(JsonCodec.writeBytes(expected)),
          JsonCodec.read(JsonCodec.writeBytes(actual)));
    } catch (JsonRefusal e) {
      return false;
    }
  }

  private static List<String> pretty(Object value) {
    try {
      Object plain = JsonCodec.read(JsonCodec.writeBytes(value));
      return JsonCodec.writePretty(plain, true).lines().toList();
    } catch (JsonRefusal e) {
      return List.of(String.valueOf(value));
    }
  }

  /** An unexpected call, and how the closest recorded exchange of the case differs from it. */
  private static List<String> unexpected(
      RecordingUpstream.Unexpected call, List<RecordedExchange> exchanges) {
    UpstreamRequest request = call.request();
    List<String> out = new ArrayList<>();
    if (call.repeatOf() != null) {
      out.add("call made again (each recorded exchange answers one call): " + request.describe());
      return out;
    }
    out.add("unexpected call: " + request.describe());
    RecordedExchange closest = closest(request, exchanges);
    if (closest == null) {
      out.add("  the case records no exchange; add one under 'exchanges'");
      return out;
    }
    out.add("  closest recorded exchange: " + closest.method() + " " + closest.url());
    if (!closest.method().equalsIgnoreCase(request.method())) {
      out.add("    method: expected " + closest.method() + ", got " + request.method());
    }
    String url = request.uri().toString();
    if (!QueryString.base(closest.url()).equals(QueryString.base(url))) {
      out.add("    url: expected " + closest.url());
      out.add("         got      " + url);
    } else if (!QueryString.sameUrl(closest.url(), url)) {
      out.addAll(queryDifference(QueryString.pairs(closest.url()), QueryString.pairs(url)));
    }
    for (Map.Entry<String, String> header : closest.headers().entrySet()) {
      String got = request.headers().first(header.getKey());
      if (!header.getValue().equals(got)) {
        out.add(
            "    header "
                + header.getKey()
                + ": expected '"
                + header.getValue()
                + "', got "
                + (got == null ? "none" : "'" + got + "'"));
      }
    }
    if (!ExchangeMatcher.bodyMatches(closest, request.body())) {
      String got = request.body() == null ? "no body" : ExchangeMatcher.text(request.body());
      String expected =
          closest.form() != null
              ? "the form " + String.join("&", ExchangeMatcher.formPairs(closest.form()))
              : closest.body() instanceof String text ? text : JsonCodec.write(closest.body());
      out.add("    body: expected " + expected);
      out.add("          got      " + got);
    }
    return out;
  }

  /** The query parameters one URL has and the other lacks (their order never matters). */
  private static List<String> queryDifference(List<String> expected, List<String> actual) {
    List<String> missing = new ArrayList<>(expected);
    actual.forEach(missing::remove);
    List<String> unexpected = new ArrayList<>(actual);
    expected.forEach(unexpected::remove);
    List<String> out = new ArrayList<>();
    if (!missing.isEmpty()) {
      out.add("    query: missing " + String.join(", ", missing));
    }
    if (!unexpected.isEmpty()) {
      out.add("    query: not recorded " + String.join(", ", unexpected));
    }
    return out;
  }

  private static RecordedExchange closest(UpstreamRequest request, List<RecordedExchange> all) {
    RecordedExchange best = null;
    long bestScore = -1;
    String url = request.uri().toString();
    for (RecordedExchange e : all) {
      long score = QueryString.sameUrl(e.url(), url) ? 500_000 : firstDifference(e.url(), url);
      if (e.method().equalsIgnoreCase(request.method())) {
        score += 1_000_000;
      }
      if (score > bestScore) {
        best = e;
        bestScore = score;
      }
    }
    return best;
  }
}
