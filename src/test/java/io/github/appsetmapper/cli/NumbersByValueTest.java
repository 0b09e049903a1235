package io.github.appsetmapper.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.testing.StubUpstream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code test}, {@code diff} (and shadow, through the same row comparison) compare numbers by
 * value, as {@code ==} does: a difference in the 17th digit is one, a {@code 350224384} beside a
 * {@code 350224384.0} is none.
 */
class NumbersByValueTest {
  private static final String MAPPING =
      """
      name: rows
      keepTypes: true
      list:
        request: {url: "https://api.example.com/rows"}
        items: "$[*]"
      parameters: {id: item.id, size: %s, ratio: item.ratio}
      """;

  private static final String CASE =
      "- name: exact\n"
          + "  exchanges:\n"
          + "  - request: {url: \"https://api.example.com/rows\"}\n"
          + "    response: {body: [{id: 1, size: 350224384, ratio: 12.5}]}\n"
          + "  expect:\n"
          + "    parameters:\n"
          + "    - {id: 1, size: 350224384, ratio: %s}\n";

  private static CliTest.Result test(Path dir, String ratio) throws Exception {
    Files.writeString(dir.resolve("rows.yaml"), MAPPING.formatted("item.size"));
    Path test = dir.resolve("rows.test.yaml");
    Files.writeString(test, "cases:\n" + CASE.formatted(ratio));
    return CliTest.run("test", test.toString());
  }

  @Test
  void testTellsDecimalsApartByTheirValueNotTheirDouble(@TempDir Path dir) throws Exception {
    CliTest.Result near = test(dir, "12.50000000000000001");
    assertThat(near.out()).as(near.err()).endsWith("0 passed, 1 failed\n");
    assertThat(near.out()).contains("12.50000000000000001");
    CliTest.Result same = test(dir, "12.500");
    assertThat(same.out()).as(same.err()).endsWith("1 passed, 0 failed\n");
  }

  @Test
  void diffSeesNoChangeInTheSameNumberOfAnotherType(@TempDir Path dir) throws Exception {
    try (StubUpstream stub = new StubUpstream()) {
      stub.on(
          "GET /rows",
          StubUpstream.Reply.json(200, "[{\"id\":1,\"size\":350224384,\"ratio\":12.5}]"));
      String mapping =
          MAPPING.replace("https://api.example.com", stub.url()).replace("keepTypes", "%s");
      for (String keyed : new String[] {"key: id\nkeepTypes", "keepTypes"}) {
        Path old = dir.resolve("old.yaml");
        Path neu = dir.resolve("new.yaml");
        Files.writeString(old, mapping.formatted(keyed, "item.size"));
        Files.writeString(neu, mapping.formatted(keyed, "item.size * 1.0"));
        CliTest.Result same = CliTest.run("diff", old.toString(), neu.toString());
        assertThat(same.exit()).as(keyed + ": " + same.out() + same.err()).isZero();

        Files.writeString(neu, mapping.formatted(keyed, "item.size + 1"));
        CliTest.Result changed = CliTest.run("diff", old.toString(), neu.toString());
        assertThat(changed.exit()).as(keyed + ": " + changed.out() + changed.err()).isEqualTo(1);
        assertThat(changed.out()).contains("350224385");
      }
    }
  }
}
