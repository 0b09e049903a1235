package io.github.appsetmapper.diff.run;

import io.github.appsetmapper.compile.CompiledMapping;
import io.github.appsetmapper.compile.InputRule;
import io.github.appsetmapper.compile.MappingLoader;
import io.github.appsetmapper.compile.VarValues;
import io.github.appsetmapper.config.MappingSources;
import io.github.appsetmapper.config.Problem;
import io.github.appsetmapper.diff.DiffReport;
import io.github.appsetmapper.diff.InputDiff;
import io.github.appsetmapper.diff.MappingDiff;
import io.github.appsetmapper.diff.Outcome;
import io.github.appsetmapper.diff.run.Pairing.Pair;
import io.github.appsetmapper.engine.Invocation;
import io.github.appsetmapper.json.JsonCodec;
import io.github.appsetmapper.json.JsonRefusal;
import io.github.appsetmapper.replay.ExchangeFile;
import io.github.appsetmapper.replay.ReplayCase;
import io.github.appsetmapper.replay.ReplayUpstream;
import io.github.appsetmapper.runtime.AppRuntime;
import io.github.appsetmapper.secret.Redactor;
import io.github.appsetmapper.server.ErrorAnswer;
import io.github.appsetmapper.server.ErrorAnswers;
import io.github.appsetmapper.upstream.call.Upstream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * {@code appset-mapper diff}: the old and the new version of some mappings run on the same inputs,
 * each side on an engine of its own (its own cache and {@code maxDrop} baselines) from an {@link
 * AppRuntime}, both over one {@link OnceUpstream}, so each upstream call is made once and both see
 * the same answer. Inputs are given ({@code --input}, {@code --input-json}, a test file's cases) or
 * come with their recorded exchanges ({@code --replay}: each case answers from its own exchanges,
 * offline). Mappings pair by name; a mapping only on one side is added or removed, and one whose
 * file name is the same on both sides under another name is renamed.
 */
public final class DiffRun {
  /** What the diff could not do at all (exit 2): a side that does not load, an unreadable file. */
  public static final class Refused extends Exception {
    private final List<String> lines;

    Refused(List<String> lines) {
      super(String.join("\n", lines));
      this.lines = List.copyOf(lines);
    }

    public List<String> lines() {
      return lines;
    }
  }

  /**
   * How to run: where calls go, the vars, the inputs, and the applicationSetName sent with an input
   * made up here (the empty input of a mapping that requires none).
   */
  public record Settings(
      List<Path> before,
      List<Path> after,
      VarValues vars,
      List<DiffInput> inputs,
      List<Path> replay,
      Function<String, String> environment,
      java.util.function.Supplier<Upstream> network,
      String applicationSetName) {}

  private final Settings settings;
  private final Redactor redactor = new Redactor();

  public DiffRun(Settings settings) {
    this.settings = settings;
  }

  /** The one redactor of the run: every secret either side read; outputs go through it. */
  public Redactor redactor() {
    return redactor;
  }

  public DiffReport run() throws Refused, IOException {
    List<ExchangeFile> recorded = new ArrayList<>();
    for (Path file : testFiles(settings.replay())) {
      recorded.add(read(file));
    }
    // Inputs given run against the network, or against every recorded exchange of the files.
    List<DiffInput> given = settings.inputs();
    List<MappingDiff> out = new ArrayList<>();
    // Pairing needs names only: replaying, every test file's vars stand in for the environment.
    ExchangeFile pairing = recorded.isEmpty() ? null : merged(recorded);
    List<Pair> pairs =
        Pairing.pairs(load(settings.before(), pairing), load(settings.after(), pairing));
    for (Pair pair : pairs) {
      List<InputDiff> inputs = new ArrayList<>();
      String note = null;
      if (pair.before() != null && pair.after() != null) {
        ExchangeFile file = Pairing.fileFor(pair, recorded, pairs, describe(settings.after()));
        if (!given.isEmpty()) {
          inputs.addAll(runGiven(pair, given, file, recorded));
        } else if (file != null) {
          inputs.addAll(runCases(pair, file));
        } else if (settings.replay().isEmpty() && requiresNoInput(pair)) {
          // Nothing to ask it: the empty input is what Argo CD sends such a mapping.
          DiffInput empty =
              new DiffInput(
                  "{} (no input required)", settings.applicationSetName(), Map.of(), null);
          inputs.addAll(runGiven(pair, List.of(empty), null, recorded));
        } else {
          note = "no input: give --input, --input-json or --cases, or --replay with its test file";
        }
      }
      CompiledMapping named = pair.after() != null ? pair.after() : pair.before();
      out.add(
          new MappingDiff(
              named.name(),
              pair.presence() == MappingDiff.Presence.RENAMED ? pair.before().name() : null,
              pair.presence(),
              key(pair),
              List.copyOf(inputs),
              note));
    }
    return new DiffReport(
        describe(settings.before()), describe(settings.after()), List.copyOf(out));
  }

  private static ExchangeFile merged(List<ExchangeFile> files) {
    Map<String, String> vars = new LinkedHashMap<>();
    Map<String, String> secrets = new LinkedHashMap<>();
    files.forEach(f -> vars.putAll(f.vars()));
    files.forEach(f -> secrets.putAll(f.secrets()));
    return new ExchangeFile(files.get(0).path(), null, vars, secrets, List.of());
  }

  static String describe(List<Path> paths) {
    return String.join(", ", paths.stream().map(Path::toString).toList());
  }

  /** Neither side declares a required input: the empty input is a whole one for both. */
  private static boolean requiresNoInput(Pair pair) {
    return pair.before().inputs().values().stream().noneMatch(InputRule::required)
        && pair.after().inputs().values().stream().noneMatch(InputRule::required);
  }

  /** The new version's key, else the old one's: rows are matched the way the change says. */
  private static List<String> key(Pair pair) {
    if (pair.after() != null && !pair.after().key().isEmpty()) {
      return pair.after().key();
    }
    return pair.before() == null ? List.of() : pair.before().key();
  }

  /** Loads a side with the run's vars (and a test file's, which win); refuses when it fails. */
  private MappingLoader.Result load(List<Path> paths, ExchangeFile file) throws Refused {
    VarValues vars = file == null ? settings.vars() : settings.vars().under(file.vars());
    try (AppRuntime runtime =
        AppRuntime.builder()
            .vars(vars)
            .redactor(redactor)
            .environment(file == null ? settings.environment() : name -> null)
            .secretValues(file == null ? Map.of() : file.secrets())
            .enrichThreads(1)
            .build()) {
      MappingLoader.Result loaded = runtime.load(paths);
      if (!loaded.ok()) {
        List<String> lines = new ArrayList<>();
        lines.add(describe(paths) + " does not load:");
        loaded.varErrors().forEach(e -> lines.add("  " + e));
        for (Problem p : loaded.problems()) {
          lines.add("  " + p);
        }
        throw new Refused(lines);
      }
      return loaded;
    } catch (IOException e) {
      throw new Refused(List.of("cannot start: " + e.getMessage()));
    }
  }

  /** Each case of the test file, on its own recorded exchanges. */
  private List<InputDiff> runCases(Pair pair, ExchangeFile file) throws Refused, IOException {
    List<InputDiff> out = new ArrayList<>();
    Pair compiled = recompile(pair, file);
    for (ReplayCase c : file.cases()) {
      DiffInput input = DiffInput.of(c, true);
      out.add(runOne(compiled, input, new ReplayUpstream(c.exchanges())));
    }
    return out;
  }

  /**
   * The given inputs: against every recorded exchange of the pair's test file when there is one,
   * else against the network.
   */
  private List<InputDiff> runGiven(
      Pair pair, List<DiffInput> given, ExchangeFile file, List<ExchangeFile> recorded)
      throws Refused, IOException {
    boolean replaying = !settings.replay().isEmpty();
    if (replaying && file == null) {
      throw new Refused(
          List.of(
              "no test file under --replay records mapping '"
                  + pair.after().name()
                  + "' (found: "
                  + String.join(", ", recorded.stream().map(f -> f.path().toString()).toList())
                  + ")"));
    }
    Pair compiled = file == null ? pair : recompile(pair, file);
    List<InputDiff> out = new ArrayList<>();
    try (Upstream transport =
        file == null ? settings.network().get() : new ReplayUpstream(file.allExchanges())) {
      OnceUpstream once = new OnceUpstream(transport);
      for (DiffInput input : given) {
        if (input.exchanges() != null) {
          out.add(runOne(compiled, input, new ReplayUpstream(input.exchanges())));
        } else {
          out.add(runOne(compiled, input, once));
        }
      }
    }
    return out;
  }

  /** The pair compiled with a test file's vars and secret values, as the file was recorded. */
  private Pair recompile(Pair pair, ExchangeFile file) throws Refused {
    CompiledMapping before = pick(load(settings.before(), file), pair.before().name());
    CompiledMapping after = pick(load(settings.after(), file), pair.after().name());
    return new Pair(before, after, pair.presence());
  }

  private static CompiledMapping pick(MappingLoader.Result loaded, String name) {
    return loaded.mappings().stream().filter(m -> m.name().equals(name)).findFirst().orElseThrow();
  }

  /** Both sides on one input, over one shared transport: each side an engine of its own. */
  private InputDiff runOne(Pair pair, DiffInput input, Upstream transport)
      throws Refused, IOException {
    Upstream once = transport instanceof OnceUpstream shared ? shared : new OnceUpstream(transport);
    Outcome before = side(pair.before(), input, once);
    Outcome after = side(pair.after(), input, once);
    InputDiff diff =
        InputDiff.of(
                input.label(), input.applicationSetName(), input.input(), key(pair), before, after)
            .expecting(input.expected());
    return pair.presence() == MappingDiff.Presence.RENAMED
        ? diff.renamed(pair.before().name(), pair.after().name())
        : diff;
  }

  private Outcome side(CompiledMapping mapping, DiffInput input, Upstream transport)
      throws Refused {
    try (AppRuntime runtime =
        AppRuntime.builder().transport(transport).redactor(redactor).enrichThreads(8).build()) {
      Invocation invocation = new Invocation(input.applicationSetName(), roundTrip(input.input()));
      return Outcome.rows(runtime.engine().execute(mapping, invocation));
    } catch (IOException e) {
      throw new Refused(List.of("cannot start: " + e.getMessage()));
    } catch (Exception | StackOverflowError failure) {
      ErrorAnswer answer = new ErrorAnswers(redactor).map(failure);
      return Outcome.failed(answer.status(), answer.message());
    }
  }

  /** Input as the server sees it after JSON (numbers, nesting), as a getparams body gives it. */
  @SuppressWarnings("unchecked")
  private static Map<String, Object> roundTrip(Map<String, Object> input) throws JsonRefusal {
    return (Map<String, Object>) JsonCodec.read(JsonCodec.writeBytes(input));
  }

  /** The test files --replay names: files as given, a folder's as {@code test} finds them. */
  private static List<Path> testFiles(List<Path> paths) throws Refused {
    List<Path> out = new ArrayList<>();
    for (Path path : paths) {
      if (Files.isDirectory(path)) {
        try {
          out.addAll(MappingSources.testFilesUnder(path));
        } catch (IOException e) {
          throw new Refused(List.of("--replay " + path + ": " + e.getMessage()));
        }
      } else if (Files.isRegularFile(path)) {
        out.add(path);
      } else {
        throw new Refused(
            List.of(
                "--replay "
                    + path
                    + (Files.exists(path)
                        ? ": not a regular file"
                        : ": no such file or directory")));
      }
    }
    return out;
  }

  private static ExchangeFile read(Path file) throws Refused {
    try {
      return ExchangeFile.read(file);
    } catch (IOException | RuntimeException e) {
      throw new Refused(List.of("--replay " + file + ": cannot read: " + e.getMessage()));
    }
  }

  /**
   * The cases of a test file as inputs ({@code --cases}): with their own recorded exchanges when
   * {@code recorded}, else for the network.
   */
  public static List<DiffInput> cases(Path testFile, boolean recorded) throws Refused {
    List<DiffInput> out = new ArrayList<>();
    for (ReplayCase c : read(testFile).cases()) {
      out.add(DiffInput.of(c, recorded));
    }
    return out;
  }
}
