package io.github.appsetmapper.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code diff --replay} paired test files with mappings by a matching of its own: a file naming no
 * mapping went to every mapping of the file it is named after, and the single test file of a single
 * pair was taken whatever mapping it named, its vars then going to several mappings or to none,
 * which {@code test}, {@code run --replay} and {@code serve --replay} refuse. It now pairs by their
 * rule ({@code ExchangeFile.notTesting}), refusing with its line; what the rule allows pairs as
 * before.
 */
class DiffPairingTest {
  private static final String SHAPE =
      "name: %s\nkey: id\nvars: {up: {default: \"http://unset.invalid\"}, extra: {default: own}}\n"
          + "list:\n  request: {url: \"#{vars.up}/rows\"}\n  items: \"$[*]\"\n"
          + "parameters: {id: item, e: vars.extra}\n";

  private static String testFile(String mappingLine) {
    return mappingLine
        + "vars: {up: \"https://recorded.example\", extra: FROMTEST}\n"
        + "cases:\n  - name: one\n    input: {}\n    exchanges:\n"
        + "      - request: {method: GET, url: \"https://recorded.example/rows\"}\n"
        + "        response: {status: 200, body: [1]}\n"
        + "    expect: {parameters: [{id: \"1\", e: FROMTEST}]}\n";
  }

  private static CliTest.Result diff(Path old, Path now, Path replay) {
    return CliTest.run("diff", old.toString(), now.toString(), "--replay", replay.toString());
  }

  @Test
  void aFileNamingNoneBesideAFileOfTwoMappingsIsRefusedWithTestsLine(@TempDir Path dir)
      throws Exception {
    Path old = Files.createDirectories(dir.resolve("old"));
    Path now = Files.createDirectories(dir.resolve("new"));
    for (Path side : new Path[] {old, now}) {
      Files.writeString(
          side.resolve("x.yaml"), SHAPE.formatted("ma") + "---\n" + SHAPE.formatted("mb"));
    }
    Path test = Files.writeString(now.resolve("x.test.yaml"), testFile(""));
    CliTest.Result result = diff(old, now, test);
    assertThat(result.exit()).as(result.out() + result.err()).isEqualTo(2);
    assertThat(result.err())
        .isEqualTo(
            "error: --replay "
                + test
                + ": "
                + now.resolve("x.yaml")
                + " holds 2 mappings; name one with 'mapping:' in the test file\n");
  }

  @Test
  void theSingleFileOfASinglePairNamingAnotherMappingIsRefused(@TempDir Path dir) throws Exception {
    Path old = Files.writeString(dir.resolve("old.yaml"), SHAPE.formatted("ma"));
    Path now = Files.writeString(dir.resolve("new.yaml"), SHAPE.formatted("ma"));
    Path test = Files.writeString(dir.resolve("t.test.yaml"), testFile("mapping: zz\n"));
    CliTest.Result result = diff(old, now, test);
    assertThat(result.exit()).as(result.out() + result.err()).isEqualTo(2);
    assertThat(result.err())
        .isEqualTo("error: --replay " + test + ": no mapping 'zz' in " + now + "; found: ma\n");
  }

  @Test
  void whatTheRuleAllowsPairsAsBefore(@TempDir Path dir) throws Exception {
    // The single file of a single pair, naming none; a file named after the mapping's; a file
    // naming the old name of a renamed mapping: each replayed with its vars.
    Path old = Files.writeString(dir.resolve("old.yaml"), SHAPE.formatted("ma"));
    Path now = Files.writeString(dir.resolve("new.yaml"), SHAPE.formatted("ma"));
    Path any = Files.writeString(dir.resolve("any.test.yaml"), testFile(""));
    assertThat(diff(old, now, any).exit()).isZero();
    Path a = Files.createDirectories(dir.resolve("a"));
    Path b = Files.createDirectories(dir.resolve("b"));
    for (Path side : new Path[] {a, b}) {
      Files.writeString(side.resolve("x.yaml"), SHAPE.formatted("mx"));
      Files.writeString(side.resolve("y.yaml"), SHAPE.formatted("my"));
    }
    Files.writeString(b.resolve("x.test.yaml"), testFile(""));
    Files.writeString(b.resolve("y.test.yaml"), testFile("mapping: my\n"));
    CliTest.Result both = diff(a, b, b);
    assertThat(both.exit()).as(both.out() + both.err()).isZero();
    assertThat(both.out()).contains("2 mappings, 2 inputs");
    Path renamed = Files.writeString(dir.resolve("renamed.yaml"), SHAPE.formatted("mz"));
    Path byOldName = Files.writeString(dir.resolve("o.test.yaml"), testFile("mapping: ma\n"));
    CliTest.Result rename = diff(old, renamed, byOldName);
    // Replayed by the old name's file; a rename is a change (the old name's URL answers 404).
    assertThat(rename.exit()).as(rename.out() + rename.err()).isEqualTo(1);
    assertThat(rename.out()).contains("mapping mz: renamed from ma").contains("1 row -> 1 row");
  }
}
