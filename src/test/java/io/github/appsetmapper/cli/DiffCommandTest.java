package io.github.appsetmapper.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.config.MappingSources;
import io.github.appsetmapper.json.JsonCodec;
import io.github.appsetmapper.replay.MappingTestRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code appset-mapper diff}, offline over {@code --replay}: the catalogue's and the sample's own
 * recorded inputs, a mapping against itself, a tightened filter, a renamed parameter, the gates,
 * the three formats, and what the output never shows.
 */
class DiffCommandTest {
  private static final Path PULLS = Path.of("mappings/github-pulls.yaml");
  private static final Path PULLS_TEST = Path.of("mappings/github-pulls.test.yaml");

  /** Every mapping file of mappings/ and samples/ that has a test file beside it. */
  private static List<Path> mappingsWithTests() throws Exception {
    List<Path> out = new ArrayList<>();
    for (String root : List.of("mappings", "samples")) {
      try (Stream<Path> walk = Files.walk(Path.of(root))) {
        walk.filter(p -> MappingSources.isMappingFile(p) && Files.isRegularFile(p))
            .filter(p -> Files.isRegularFile(MappingTestRun.testFileFor(p)))
            .sorted()
            .forEach(out::add);
      }
    }
    return out;
  }

  @Test
  void everyShippedMappingAgainstItselfIsNoChange() throws Exception {
    List<Path> mappings = mappingsWithTests();
    assertThat(mappings).hasSizeGreaterThan(10);
    for (Path mapping : mappings) {
      Path test = MappingTestRun.testFileFor(mapping);
      CliTest.Result result =
          CliTest.run(
              "diff",
              mapping.toString(),
              mapping.toString(),
              "--replay",
              test.toString(),
              "--format",
              "json");
      assertThat(result.exit()).as(mapping + "\n" + result.out() + result.err()).isZero();
      Map<?, ?> json = (Map<?, ?>) JsonCodec.read(result.out());
      assertThat(json.get("changed")).isEqualTo(false);
      Map<?, ?> counts = (Map<?, ?>) json.get("counts");
      assertThat(((Number) counts.get("inputs")).intValue()).as(mapping.toString()).isPositive();
    }
  }

  @Test
  void theCatalogueFolderAgainstItselfIsNoChange() {
    CliTest.Result result = CliTest.run("diff", "mappings", "mappings", "--replay", "mappings");
    assertThat(result.exit()).as(result.out() + result.err()).isZero();
    assertThat(result.out()).endsWith("no change\n").doesNotContain("no input");
  }

  private static Path edited(Path dir, String name, String from, String to) throws Exception {
    String text = Files.readString(PULLS);
    assertThat(text).contains(from);
    Path out = dir.resolve(name);
    Files.writeString(out, text.replace(from, to));
    return out;
  }

  @Test
  void aTightenedFilterReportsExactlyTheRemovedRows(@TempDir Path dir) throws Exception {
    Path keyed =
        edited(dir, "old.yaml", "sortBy: item.number\n", "sortBy: item.number\nkey: number\n");
    Path tightened =
        edited(dir, "new.yaml", "sortBy: item.number\n", "sortBy: item.number\nkey: number\n");
    Files.writeString(
        tightened,
        Files.readString(tightened)
            .replace(
                "filter: \"input.labels.isEmpty() or item.labels.![name].containsAll(input.labels)\"",
                "filter: \"(input.labels.isEmpty() or item.labels.![name].containsAll(input.labels))"
                    + " and item.number % 2 == 0\""));
    CliTest.Result result =
        CliTest.run(
            "diff",
            keyed.toString(),
            tightened.toString(),
            "--replay",
            PULLS_TEST.toString(),
            "--format",
            "json");
    assertThat(result.exit()).as(result.out() + result.err()).isEqualTo(1);
    Map<?, ?> json = (Map<?, ?>) JsonCodec.read(result.out());
    Map<?, ?> mapping = (Map<?, ?>) ((List<?>) json.get("mappings")).get(0);
    for (Object one : (List<?>) mapping.get("inputs")) {
      Map<?, ?> input = (Map<?, ?>) one;
      Map<?, ?> before = (Map<?, ?>) input.get("before");
      if (before.get("rows") == null) {
        continue;
      }
      List<?> removed = (List<?>) input.get("removed");
      // Exactly the odd pull requests, nothing added or changed.
      assertThat(removed)
          .allSatisfy(
              row ->
                  assertThat(Integer.parseInt((String) ((Map<?, ?>) row).get("number")) % 2)
                      .isEqualTo(1));
      assertThat((List<?>) input.get("added")).isEmpty();
      assertThat((List<?>) input.get("changedRows")).isEmpty();
      int after = ((Number) ((Map<?, ?>) input.get("after")).get("rows")).intValue();
      assertThat(((Number) before.get("rows")).intValue()).isEqualTo(after + removed.size());
    }
    assertThat(((Number) ((Map<?, ?>) json.get("counts")).get("removed")).intValue()).isPositive();
  }

  @Test
  void aRenamedParameterReportsChangesParameterByParameter(@TempDir Path dir) throws Exception {
    Path old =
        edited(dir, "old.yaml", "sortBy: item.number\n", "sortBy: item.number\nkey: number\n");
    Path renamed =
        edited(dir, "new.yaml", "sortBy: item.number\n", "sortBy: item.number\nkey: number\n");
    Files.writeString(
        renamed, Files.readString(renamed).replace("  author: \"#default", "  user: \"#default"));
    CliTest.Result result =
        CliTest.run("diff", old.toString(), renamed.toString(), "--replay", PULLS_TEST.toString());
    assertThat(result.exit()).as(result.out() + result.err()).isEqualTo(1);
    assertThat(result.out())
        .contains("author: ")
        .contains(" -> (absent)")
        .contains("user: (absent) -> ")
        .contains(" 0 added, 0 removed, ");
  }
}
