package io.github.appsetmapper.cli;

import io.github.appsetmapper.compile.VarValues;
import io.github.appsetmapper.diff.DiffReport;
import io.github.appsetmapper.diff.Gate;
import io.github.appsetmapper.diff.MappingDiff;
import io.github.appsetmapper.diff.run.DiffInput;
import io.github.appsetmapper.diff.run.DiffRun;
import io.github.appsetmapper.json.JsonCodec;
import io.github.appsetmapper.json.JsonRefusal;
import io.github.appsetmapper.secret.Redactor;
import io.github.appsetmapper.text.Plural;
import io.github.appsetmapper.upstream.HttpUpstream;
import io.github.appsetmapper.upstream.UpstreamOptions;
import io.github.appsetmapper.upstream.net.ProxySettings;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code diff OLD NEW}: which Applications a change of mappings would add, remove or change, on the
 * same inputs. Exit 0 no change, 1 changes (or a gate tripped), 2 the diff could not run or an
 * input failed (alike on both sides; under a gate, on either side).
 */
@Command(
    name = "diff",
    mixinStandardHelpOptions = true,
    description = {
      "Compare two versions of mappings on the same inputs: rows added, removed and changed.",
      "Exit 0: no change; 1: changes (with --fail-on/--max-removed: rows removed beyond the"
          + " gate); 2: the diff could not run, or an input failed alike on both sides (under"
          + " a gate: failed on either side)."
    })
final class DiffCommand extends RedactedCommand implements Callable<Integer> {
  /** The run, once made: its redactor is what {@link Main} prints of a failure through. */
  private DiffRun run;

  @Override
  Redactor redactor() {
    return run == null ? super.redactor() : run.redactor();
  }

  static final int CHANGES = 1;
  static final int COULD_NOT_RUN = 2;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Parameters(index = "0", paramLabel = "OLD", description = "The old mapping file or folder.")
  Path before;

  @Parameters(index = "1", paramLabel = "NEW", description = "The new mapping file or folder.")
  Path after;

  @Option(
      names = "--input",
      paramLabel = "KEY=VALUE",
      description = "An input parameter, as a string (repeatable; added to each --input-json).")
  Map<String, String> inputs = new LinkedHashMap<>();

  @Option(
      names = "--input-json",
      paramLabel = "JSON",
      description = "One input as a JSON object (repeatable: each is an input of its own).")
  List<String> inputJson = new ArrayList<>();

  @Option(
      names = "--cases",
      paramLabel = "FILE",
      description =
          "The inputs of a test file's cases (with --replay: each answered by its own recorded"
              + " exchanges).")
  Path cases;

  @Option(
      names = "--app-set",
      paramLabel = "NAME",
      defaultValue = "appset-mapper-diff",
      description =
          "The applicationSetName sent with given inputs, and with the empty input of a mapping"
              + " that requires none (default ${DEFAULT-VALUE}).")
  String appSet;

  @Option(names = "--var", paramLabel = VarOption.LABEL, description = VarOption.DESCRIPTION)
  Map<String, String> vars = Map.of();

  @Option(
      names = "--replay",
      paramLabel = "PATH",
      description =
          "Answer upstream calls from recorded exchanges, offline: a test file, or a folder of"
              + " them, subfolders too (each mapping's x.test.yaml); without inputs, each case of a mapping's test"
              + " file is an input (repeatable).")
  List<Path> replay = new ArrayList<>();

  @Option(
      names = "--format",
      defaultValue = "text",
      description = "text, json or markdown (a pull-request comment); default ${DEFAULT-VALUE}.")
  DiffFormat format;

  @Option(
      names = "--fail-on",
      paramLabel = "removed",
      description =
          "Exit 1 only when a row is removed (an Application would vanish) or a mapping is gone;"
              + " needs a key on every mapping compared.")
  String failOn;

  @Option(
      names = "--max-removed",
      paramLabel = "N%|N",
      description =
          "Exit 1 only when one input loses more rows than this: a percentage of its old rows"
              + " (10%%) or a count; a mapping gone loses all of them (it trips all but 100%%).")
  String maxRemoved;

  @Option(
      names = "--max-rows",
      defaultValue = "50",
      description =
          "Rows listed per input and kind at most; counts are whole (default ${DEFAULT-VALUE}).")
  int maxRows;

  @Override
  public Integer call() {
    PrintWriter out = Terminal.out(spec);
    PrintWriter err = Terminal.err(spec);
    try {
      return diff(out, err);
    } finally {
      out.flush();
      err.flush();
    }
  }

  private int diff(PrintWriter out, PrintWriter err) {
    VarValues given = VarOption.parse(vars, err);
    if (given == null) {
      return ExitCode.USAGE;
    }
    if (failOn != null && !failOn.equals("removed")) {
      err.println("error: --fail-on takes 'removed', not '" + failOn + "'");
      return COULD_NOT_RUN;
    }
    Gate gate = failOn != null ? new Gate(true, null, null) : Gate.NONE;
    if (maxRemoved != null) {
      gate = Gate.maxRemoved(maxRemoved, failOn != null);
      if (gate == null) {
        err.println(
            "error: --max-removed must be a percentage from 0% to 100% (10%) or a count, not '"
                + maxRemoved
                + "'");
        return COULD_NOT_RUN;
      }
    }
    if (maxRows < 1) {
      err.println("error: --max-rows must be at least 1");
      return COULD_NOT_RUN;
    }
    List<DiffInput> diffInputs;
    try {
      diffInputs = inputs();
    } catch (IllegalArgumentException e) {
      err.println("error: " + e.getMessage());
      return COULD_NOT_RUN;
    } catch (DiffRun.Refused e) {
      e.lines().forEach(line -> err.println("error: " + line));
      return COULD_NOT_RUN;
    }
    run =
        new DiffRun(
            new DiffRun.Settings(
                List.of(before),
                List.of(after),
                given,
                diffInputs,
                List.copyOf(replay),
                System::getenv,
                () ->
                    new HttpUpstream(
                        UpstreamOptions.defaults(16, HttpUpstream.DEFAULT_MAX_BODY_BYTES)
                            .withProxies(ProxySettings.fromEnvironment(System::getenv))),
                appSet));
    DiffReport report;
    try {
      report = run.run();
    } catch (DiffRun.Refused e) {
      e.lines().forEach(line -> err.println("error: " + run.redactor().redact(line)));
      return COULD_NOT_RUN;
    } catch (java.io.IOException | RuntimeException e) {
      err.println("error: the diff could not run: " + run.redactor().redact(String.valueOf(e)));
      return COULD_NOT_RUN;
    }
    if (gate.failOnRemoved()) {
      List<String> keyless =
          report.mappings().stream()
              .filter(m -> m.presence() != MappingDiff.Presence.ADDED && m.key().isEmpty())
              .map(MappingDiff::name)
              .toList();
      if (!keyless.isEmpty()) {
        err.println(
            "error: --fail-on removed needs a key to tell a removed row from a changed one;"
                + " add 'key:' to "
                + String.join(", ", keyless));
        return COULD_NOT_RUN;
      }
    }
    out.print(format.render(report, run.redactor()::redact, maxRows));
    if (report.inputs() == 0 && report.mappings().stream().noneMatch(MappingDiff::changed)) {
      err.println(
          "error: nothing was compared: give --input, --input-json or --cases, or --replay with"
              + " the mappings' test files");
      return COULD_NOT_RUN;
    }
    List<String> trips = gate.active() ? gate.trips(report, run.redactor()::redact) : List.of();
    trips.forEach(line -> err.println("gate: " + run.redactor().redact(line)));
    boolean failed = false;
    if (report.errors() > 0) {
      // Nothing was compared for them: neither "no change" nor a gate can vouch for them.
      err.println(
          "error: "
              + Plural.of(report.errors(), "input")
              + " failed alike on both sides and could not be compared");
      failed = true;
    }
    int uncounted = gate.active() ? Gate.uncounted(report) : 0;
    if (uncounted > 0) {
      // A failed side has no rows to count: the gate can neither trip nor pass on it.
      err.println(
          "error: "
              + Plural.of(uncounted, "input")
              + " answered an error on a side (one side only, or different errors on both):"
              + " the gate cannot count the rows removed");
      failed = true;
    }
    if (failed) {
      return COULD_NOT_RUN;
    }
    if (gate.active()) {
      return trips.isEmpty() ? ExitCode.OK : CHANGES;
    }
    return report.changed() ? CHANGES : ExitCode.OK;
  }

  @SuppressWarnings("unchecked")
  private List<DiffInput> inputs() throws DiffRun.Refused {
    List<DiffInput> out = new ArrayList<>();
    for (String json : inputJson) {
      Object read;
      try {
        read = JsonCodec.read(json);
      } catch (JsonRefusal e) {
        throw new IllegalArgumentException("--input-json " + e.located());
      }
      if (!(read instanceof Map<?, ?> typed)) {
        throw new IllegalArgumentException("--input-json must be a JSON object");
      }
      Map<String, Object> input = new LinkedHashMap<>((Map<String, Object>) typed);
      input.putAll(inputs);
      out.add(new DiffInput(JsonCodec.write(input), appSet, input, null));
    }
    if (inputJson.isEmpty() && !inputs.isEmpty()) {
      Map<String, Object> input = new LinkedHashMap<>(inputs);
      out.add(new DiffInput(JsonCodec.write(input), appSet, input, null));
    }
    if (cases != null) {
      out.addAll(DiffRun.cases(cases, !replay.isEmpty()));
    }
    return out;
  }
}
