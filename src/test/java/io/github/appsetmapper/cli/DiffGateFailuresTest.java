package io.github.appsetmapper.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A gate counts the rows an input removes; a side that answered an error has no rows to count. Both
 * sides failing with different messages passed every gate (exit 0, an outside tester's find), as
 * did one side failing: each is now exit 2 with one line, under every gate flag, as an input
 * failing alike on both sides already was. Without a gate they stay changes (exit 1).
 */
class DiffGateFailuresTest {
  private static final String MAPPING =
      "name: m\nkey: id\n%s"
          + "list:\n  request: {url: \"https://rows.example/rows\"}\n  items: \"$[*]\"\n"
          + "parameters: {id: item}\n";
  private static final String NEEDS_N = "input: {n: {type: string, required: true}}\n";
  private static final String NEEDS_K = "input: {k: {type: string, required: true}}\n";
  private static final String LINE =
      "error: 1 input answered an error on a side (one side only, or different errors on both):"
          + " the gate cannot count the rows removed\n";

  private static Path write(Path dir, String name, String text) throws Exception {
    Path file = dir.resolve(name);
    Files.writeString(file, text);
    return file;
  }

  private static Path cases(Path dir) throws Exception {
    return write(
        dir,
        "m.test.yaml",
        "mapping: m\ncases:\n  - name: no input\n    input: {}\n    exchanges:\n"
            + "      - request: {method: GET, url: \"https://rows.example/rows\"}\n"
            + "        response: {status: 200, body: [1]}\n        optional: true\n"
            + "    expect: {parameters: [{id: \"1\"}]}\n");
  }

  private static CliTest.Result diff(Path old, Path now, Path test, String... gate) {
    List<String> args = new ArrayList<>(List.of("diff", old.toString(), now.toString()));
    args.addAll(List.of("--replay", test.toString()));
    args.addAll(List.of(gate));
    return CliTest.run(args.toArray(String[]::new));
  }

  @ParameterizedTest
  @ValueSource(strings = {"--fail-on=removed", "--max-removed=0", "--max-removed=0%"})
  void differentErrorsOnBothSidesFailTheGate(String gate, @TempDir Path dir) throws Exception {
    Path old = write(dir, "old.yaml", MAPPING.formatted(NEEDS_N));
    Path now = write(dir, "m.yaml", MAPPING.formatted(NEEDS_K));
    CliTest.Result result = diff(old, now, cases(dir), gate);
    assertThat(result.out())
        .contains("error 400: input 'n' is required -> error 400: input 'k' is required");
    assertThat(result.exit()).as(result.out() + result.err()).isEqualTo(2);
    assertThat(result.err()).isEqualTo(LINE);
  }

  @ParameterizedTest
  @ValueSource(strings = {"--fail-on=removed", "--max-removed=0", "--max-removed=100%"})
  void anErrorOnTheNewSideFailsTheGate(String gate, @TempDir Path dir) throws Exception {
    Path old = write(dir, "old.yaml", MAPPING.formatted(""));
    Path now = write(dir, "m.yaml", MAPPING.formatted(NEEDS_N));
    CliTest.Result result = diff(old, now, cases(dir), gate);
    assertThat(result.exit()).as(result.out() + result.err()).isEqualTo(2);
    assertThat(result.err()).isEqualTo(LINE);
  }

  @ParameterizedTest
  @ValueSource(strings = {"--fail-on=removed", "--max-removed=0", "--max-removed=0%"})
  void anErrorOnTheOldSideFailsTheGate(String gate, @TempDir Path dir) throws Exception {
    Path old = write(dir, "old.yaml", MAPPING.formatted(NEEDS_N));
    Path now = write(dir, "m.yaml", MAPPING.formatted(""));
    CliTest.Result result = diff(old, now, cases(dir), gate);
    assertThat(result.exit()).as(result.out() + result.err()).isEqualTo(2);
    assertThat(result.err()).isEqualTo(LINE);
  }

  @Test
  void bothGateFlagsAndAFailureAlikeSayBoth(@TempDir Path dir) throws Exception {
    String both = "input: {n: {type: string, required: %s}, k: {type: string, required: %s}}\n";
    Path old = write(dir, "old.yaml", MAPPING.formatted(both.formatted(true, false)));
    Path now = write(dir, "m.yaml", MAPPING.formatted(both.formatted(false, true)));
    Path test =
        write(
            dir,
            "m.test.yaml",
            "mapping: m\ncases:\n  - name: a\n    input: {}\n    exchanges: []\n"
                + "    expect: {parameters: []}\n"
                + "  - name: b\n    input: {n: x, k: y}\n    exchanges: []\n"
                + "    expect: {parameters: []}\n");
    CliTest.Result result = diff(old, now, test, "--fail-on=removed", "--max-removed=10%");
    // a: different errors; b: both sides fail alike on the missing recording.
    assertThat(result.exit()).as(result.out() + result.err()).isEqualTo(2);
    assertThat(result.err())
        .as(result.out())
        .isEqualTo("error: 1 input failed alike on both sides and could not be compared\n" + LINE);
  }

  @Test
  void withoutAGateTheyAreChanges(@TempDir Path dir) throws Exception {
    Path old = write(dir, "old.yaml", MAPPING.formatted(NEEDS_N));
    Path now = write(dir, "m.yaml", MAPPING.formatted(NEEDS_K));
    CliTest.Result result = diff(old, now, cases(dir));
    assertThat(result.exit()).as(result.out() + result.err()).isEqualTo(1);
    assertThat(result.err()).isEmpty();
  }
}
