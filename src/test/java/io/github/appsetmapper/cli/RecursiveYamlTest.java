package io.github.appsetmapper.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.appsetmapper.config.MappingSchema;
import io.github.appsetmapper.replay.ExchangeFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A YAML alias that contains itself is a load error everywhere a file is read (validate, serve, the
 * schema check, test files), never a stack overflow.
 */
class RecursiveYamlTest {
  private static final String BODY =
      """
      name: bad
      list:
        request:
          url: "http://127.0.0.1:1/items"
          method: POST
          body: &r {a: *r}
        items: "$[*]"
      parameters:
        x: item.x
      """;
  private static final String MERGE =
      """
      name: merge
      list:
        request:
          url: "http://127.0.0.1:1/items"
          headers:
            <<: &m [*m, *m]
        items: "$[*]"
      parameters:
        x: item.x
      """;
  private static final String BRANCHING =
      """
      name: branching
      list:
        request:
          url: "http://127.0.0.1:1/items"
          method: POST
          body: &r [*r, *r, {a: *r}]
        items: "$[*]"
      parameters:
        x: item.x
      """;

  @Test
  void validateNamesTheProblem(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("bad.yaml");
    Files.writeString(file, BODY);
    CliTest.Result result = CliTest.run("validate", file.toString());
    assertThat(result.exit()).isEqualTo(1);
    assertThat(result.err())
        .isEqualTo(
            file
                + ":6:11 list.request.body"
                + ".a".repeat(65)
                + ": nested deeper than 64 levels (an alias that contains itself?)\n");
  }

  @Test
  void mergesAndBranchingAliasesEndToo(@TempDir Path dir) throws IOException {
    Path merge = dir.resolve("merge.yaml");
    Files.writeString(merge, MERGE);
    Path branching = dir.resolve("branching.yaml");
    Files.writeString(branching, BRANCHING);
    // A merge of a list that holds itself merges nothing, once.
    CliTest.Result merged = CliTest.run("validate", merge.toString());
    assertThat(merged.exit()).as(merged.err()).isZero();
    assertThat(merged.out()).contains("ok " + merge + " merge");
    CliTest.Result result = CliTest.run("validate", branching.toString());
    assertThat(result.exit()).isEqualTo(1);
    assertThat(result.err())
        .contains(
            branching
                + ":6:11 list.request.body"
                + "[0]".repeat(65)
                + ": nested deeper than 64 levels (an alias that contains itself?)");
  }

  @Test
  void theSchemaCheckEndsOnItsOwn() {
    assertThat(MappingSchema.check("bad.yaml", BODY)).isEmpty();
    assertThat(MappingSchema.check("branching.yaml", BRANCHING)).isEmpty();
  }

  @Test
  void aTestFileWithOneIsRefused(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("bad.test.yaml");
    Files.writeString(file, "cases: &c [{name: x, input: *c}]\n");
    assertThatThrownBy(() -> ExchangeFile.read(file))
        .isInstanceOf(IOException.class)
        .hasMessage(file + ": nested deeper than 64 levels (an alias that contains itself?)");
  }
}
