package io.github.appsetmapper.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Outside testers' finds in {@code diff}: a renamed mapping's error quoted its old name on one side
 * and its new one on the other, so the same failure was "different errors on both" (exit 2 under a
 * gate); {@code --replay DIR} read only the folder's top level where {@code test} walks subfolders;
 * {@code --max-removed} alone passed a mapping gone (all its Applications).
 */
class DiffRenameGateTest {
  private static final String MAPPING =
      "name: %s\nkey: id\n"
          + "list:\n  request: {url: \"https://rows.example/rows\"}\n  items: \"$[*]\"\n"
          + "parameters: {id: item}\n";

  /**
   * Two cases: one answering rows, one whose upstream answers 503 (an error naming the mapping).
   */
  private static final String CASES =
      "mapping: %s\ncases:\n"
          + "  - name: rows\n    input: {}\n    exchanges:\n"
          + "      - request: {method: GET, url: \"https://rows.example/rows\"}\n"
          + "        response: {status: 200, body: [1, 2]}\n"
          + "    expect: {parameters: [{id: \"1\"}, {id: \"2\"}]}\n"
          + "  - name: upstream down\n    input: {}\n    exchanges:\n"
          + "      - request: {method: GET, url: \"https://rows.example/rows\"}\n"
          + "        response: {status: 404, body: {}}\n"
          + "    expect: {error: {status: 502}}\n";

  private static Path sides(Path dir, String oldName, String newName) throws Exception {
    Path old = Files.createDirectories(dir.resolve("old"));
    Path now = Files.createDirectories(dir.resolve("new"));
    Files.writeString(old.resolve("m.yaml"), MAPPING.formatted(oldName));
    Files.writeString(now.resolve("m.yaml"), MAPPING.formatted(newName));
    return dir;
  }

  @ParameterizedTest
  @ValueSource(strings = {"--fail-on=removed", "--max-removed=0", "--max-removed=10%"})
  void aRenamedMappingsErrorIsTheSameErrorUnderItsNewName(String gate, @TempDir Path dir)
      throws Exception {
    sides(dir, "old-name", "new-name");
    Path test = Files.writeString(dir.resolve("new/m.test.yaml"), CASES.formatted("new-name"));
    CliTest.Result result =
        CliTest.run(
            "diff",
            dir.resolve("old").toString(),
            dir.resolve("new").toString(),
            "--replay",
            test.toString(),
            gate);
    assertThat(result.out())
        .contains("error 502: mapping 'old-name': list GET https://rows.example/rows: answered 404")
        .contains("error 502: mapping 'new-name': list GET https://rows.example/rows: answered 404")
        .contains("renamed from old-name");
    // The gate passes: no row is removed, and the one error is the same on both sides.
    assertThat(result.err()).isEmpty();
    assertThat(result.exit()).as(result.out()).isZero();
    // Without a gate the rename itself is the change.
    CliTest.Result plain =
        CliTest.run(
            "diff",
            dir.resolve("old").toString(),
            dir.resolve("new").toString(),
            "--replay",
            test.toString());
    assertThat(plain.exit()).as(plain.out() + plain.err()).isEqualTo(1);
    assertThat(plain.err()).isEmpty();
  }

  @Test
  void anotherErrorUnderARenameIsStillADifferentFailure(@TempDir Path dir) throws Exception {
    sides(dir, "old-name", "new-name");
    Files.writeString(
        dir.resolve("new/m.yaml"),
        MAPPING.formatted("new-name").replace("rows.example/rows", "rows.example/other"));
    Path test = Files.writeString(dir.resolve("new/m.test.yaml"), CASES.formatted("new-name"));
    CliTest.Result result =
        CliTest.run(
            "diff",
            dir.resolve("old").toString(),
            dir.resolve("new").toString(),
            "--replay",
            test.toString(),
            "--fail-on=removed");
    assertThat(result.exit()).as(result.out() + result.err()).isEqualTo(2);
    assertThat(result.err()).contains("different errors on both");
  }

  @Test
  void replayAFolderFindsTestFilesInSubfoldersAsTestDoes(@TempDir Path dir) throws Exception {
    Path mappings = Files.createDirectories(dir.resolve("mappings"));
    Files.writeString(mappings.resolve("m.yaml"), MAPPING.formatted("m"));
    Path tests = Files.createDirectories(dir.resolve("tests/team-a"));
    Files.writeString(tests.resolve("m.test.yaml"), CASES.formatted("m"));
    Path hidden = Files.createDirectories(dir.resolve("tests/..data"));
    Files.writeString(hidden.resolve("m.test.yaml"), "not: [a test file");
    CliTest.Result tested = CliTest.run("test", dir.resolve("tests").toString());
    assertThat(tested.out()).contains("tests/team-a/m.test.yaml > rows");
    CliTest.Result result =
        CliTest.run(
            "diff",
            mappings.toString(),
            mappings.toString(),
            "--replay",
            dir.resolve("tests").toString());
    assertThat(result.err()).isEmpty();
    assertThat(result.exit()).as(result.out()).isZero();
    assertThat(result.out()).contains("rows: 2 rows -> 2 rows").contains("upstream down");
  }

  @ParameterizedTest
  @ValueSource(strings = {"0", "5", "0%", "99%"})
  void maxRemovedAloneTripsOnAMappingGone(String max, @TempDir Path dir) throws Exception {
    Path old = Files.createDirectories(dir.resolve("old"));
    Path now = Files.createDirectories(dir.resolve("new"));
    Files.writeString(old.resolve("m.yaml"), MAPPING.formatted("m"));
    Files.writeString(old.resolve("gone.yaml"), "name: gone\nparameters: {a: \"'1'\"}\n");
    Files.writeString(now.resolve("m.yaml"), MAPPING.formatted("m"));
    Files.writeString(now.resolve("m.test.yaml"), CASES.formatted("m"));
    CliTest.Result result =
        CliTest.run(
            "diff",
            old.toString(),
            now.toString(),
            "--replay",
            now.toString(),
            "--max-removed",
            max);
    assertThat(result.err()).isEqualTo("gate: mapping gone is removed\n");
    assertThat(result.exit()).as(result.out()).isEqualTo(1);
    // 100% is "more than all of them": a mapping gone does not trip it.
    CliTest.Result all =
        CliTest.run(
            "diff",
            old.toString(),
            now.toString(),
            "--replay",
            now.toString(),
            "--max-removed",
            "100%");
    assertThat(all.err()).isEmpty();
    assertThat(all.exit()).as(all.out()).isZero();
  }
}
