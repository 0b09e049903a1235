package io.github.appsetmapper.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.json.JsonCodec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An input that fails alike on both sides was "no change" (exit 0): a CI job gating a mapping
 * change passed although nothing was compared for it (an upstream down, a recording that no longer
 * matches). It is now an error of its own (its line, its count) and exit 2, as when the diff cannot
 * run, unless a test case expects that very error. An error on one side only stays a change.
 */
class DiffErrorsTest {
  private static final String MAPPING =
      "name: m\n%s"
          + "list:\n  request: {url: \"https://rows.example/rows\"}\n  items: \"$[*]\"\n"
          + "parameters: {id: item}\n";
  private static final String REQUIRED = "input: {n: {type: string, required: true}}\n";

  private static Path write(Path dir, String name, String text) throws Exception {
    Path file = dir.resolve(name);
    Files.writeString(file, text);
    return file;
  }

  private static Path cases(Path dir, String expect) throws Exception {
    return write(
        dir,
        "m.test.yaml",
        "mapping: m\ncases:\n  - name: no input\n    input: {}\n    exchanges:\n"
            + "      - request: {method: GET, url: \"https://rows.example/rows\"}\n"
            + "        response: {status: 200, body: [1]}\n        optional: true\n"
            + "    expect: "
            + expect
            + "\n");
  }

  private static Map<?, ?> counts(CliTest.Result result) throws Exception {
    return (Map<?, ?>) ((Map<?, ?>) JsonCodec.read(result.out())).get("counts");
  }

  @Test
  void anInputFailingAlikeIsAnErrorAndExitsTwo(@TempDir Path dir) throws Exception {
    Path mapping = write(dir, "m.yaml", MAPPING.formatted(REQUIRED));
    Path test = cases(dir, "{parameters: [{id: \"1\"}]}");
    CliTest.Result text =
        CliTest.run("diff", mapping.toString(), mapping.toString(), "--replay", test.toString());
    assertThat(text.exit()).as(text.out() + text.err()).isEqualTo(2);
    assertThat(text.out())
        .contains(
            "  ! no input: error 400: input 'n' is required -> error 400: input 'n' is required"
                + " (both sides fail alike: not compared)")
        .contains("0 changed, 0 error changes, 1 error\n");
    assertThat(text.err()).contains("1 input failed alike on both sides");
    CliTest.Result json =
        CliTest.run(
            "diff",
            mapping.toString(),
            mapping.toString(),
            "--replay",
            test.toString(),
            "--format",
            "json");
    assertThat(json.exit()).isEqualTo(2);
    assertThat(counts(json).get("errors")).isEqualTo(1);
    CliTest.Result given =
        CliTest.run("diff", mapping.toString(), mapping.toString(), "--input-json", "{}");
    assertThat(given.exit()).as(given.out() + given.err()).isEqualTo(2);
    // A gate on removed rows cannot judge an input never compared either.
    CliTest.Result gated =
        CliTest.run(
            "diff",
            mapping.toString(),
            mapping.toString(),
            "--input-json",
            "{}",
            "--max-removed",
            "10%");
    assertThat(gated.exit()).as(gated.out() + gated.err()).isEqualTo(2);
  }

  @Test
  void theErrorATestCaseExpectsIsItsAnswer(@TempDir Path dir) throws Exception {
    Path mapping = write(dir, "m.yaml", MAPPING.formatted(REQUIRED));
    Path test = cases(dir, "{error: {status: 400, message: \"input 'n' is required\"}}");
    CliTest.Result result =
        CliTest.run(
            "diff",
            mapping.toString(),
            mapping.toString(),
            "--replay",
            test.toString(),
            "--format",
            "json");
    assertThat(result.exit()).as(result.out() + result.err()).isZero();
    assertThat(counts(result).get("errors")).isEqualTo(0);
  }

  @Test
  void anErrorOnOneSideOnlyIsAChange(@TempDir Path dir) throws Exception {
    Path old = write(dir, "old.yaml", MAPPING.formatted(REQUIRED));
    Path now = write(dir, "m.yaml", MAPPING.formatted(""));
    Path test = cases(dir, "{parameters: [{id: \"1\"}]}");
    CliTest.Result result =
        CliTest.run(
            "diff",
            old.toString(),
            now.toString(),
            "--replay",
            test.toString(),
            "--format",
            "json");
    assertThat(result.exit()).as(result.out() + result.err()).isEqualTo(1);
    assertThat(counts(result).get("errors")).isEqualTo(0);
    assertThat(counts(result).get("errorChanges")).isEqualTo(1);
  }
}
