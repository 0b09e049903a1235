package io.github.appsetmapper.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The test-file fields that let a case test what the engine does: {@code baseline} (the previous
 * answer's row count, for {@code maxDrop}), {@code optional} exchanges, and a body written as data
 * served as JSON. Through the real CLI.
 */
class TestFileFieldsTest {
  private static final String MAPPING =
      """
      name: rows
      maxDrop: 1
      list:
        request: {url: "https://api.example.com/rows"}
        items: "$[*]"
      enrich:
        type:
          request: {url: "https://api.example.com/rows/#{item.id}"}
          value: "response.headers['Content-Type']"
      parameters: {id: item.id, type: type}
      """;

  private static final String EXCHANGES =
      "  exchanges:\n"
          + "  - request: {url: \"https://api.example.com/rows\"}\n"
          + "    response: {body: [{id: 1}, {id: 2}]}\n"
          + "  - request: {url: \"https://api.example.com/rows/1\"}\n"
          + "    response: {body: {id: 1}}\n"
          + "  - request: {url: \"https://api.example.com/rows/2\"}\n"
          + "    response: {headers: {content-type: text/x-mine}, body: {id: 2}}\n";

  private static final String PARAMETERS =
      "  expect:\n"
          + "    parameters:\n"
          + "    - {id: \"1\", type: application/json}\n"
          + "    - {id: \"2\", type: text/x-mine}\n";

  private static CliTest.Result test(Path dir, String cases) throws Exception {
    Files.writeString(dir.resolve("rows.yaml"), MAPPING);
    Path test = dir.resolve("rows.test.yaml");
    Files.writeString(test, "cases:\n" + cases);
    return CliTest.run("test", test.toString());
  }

  @Test
  void aBaselineMakesMaxDropTestable(@TempDir Path dir) throws Exception {
    CliTest.Result result =
        test(
            dir,
            "- name: within maxDrop\n  baseline: 3\n"
                + EXCHANGES
                + PARAMETERS
                + "- name: past maxDrop\n  baseline: 4\n"
                + EXCHANGES
                + "  expect:\n    error:\n      status: 502\n      message: \"mapping 'rows': the"
                + " answer has 2 rows, 2 fewer than the last good answer (4), more than maxDrop (1)"
                + " allows; refused so that Argo CD keeps its Applications. If the drop is wanted:"
                + " POST /mappings/rows/guard/reset\"\n");
    assertThat(result.out()).as(result.err()).endsWith("2 passed, 0 failed\n");
  }

  @Test
  void aBaselineOnAMappingWithoutMaxDropFailsTheCase(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("rows.yaml"), MAPPING.replace("maxDrop: 1\n", ""));
    Path test = dir.resolve("rows.test.yaml");
    Files.writeString(test, "cases:\n- name: guard?\n  baseline: 3\n" + EXCHANGES + PARAMETERS);
    CliTest.Result result = CliTest.run("test", test.toString());
    assertThat(result.out())
        .contains(
            "baseline: 3 is given, but mapping 'rows' has no maxDrop: remove it, or give the"
                + " mapping maxDrop")
        .endsWith("0 passed, 1 failed\n");
  }

  @Test
  void anOptionalExchangeMayGoUnusedAndAnotherMayNot(@TempDir Path dir) throws Exception {
    String extra =
        "  - request: {url: \"https://api.example.com/rows/3\"}\n"
            + "    response: {body: {id: 3}}\n";
    CliTest.Result optional =
        test(
            dir,
            "- name: optional\n"
                + EXCHANGES
                + extra.replace("  - request", "  - optional: true\n    request")
                + PARAMETERS);
    assertThat(optional.out()).as(optional.err()).endsWith("1 passed, 0 failed\n");
    CliTest.Result required = test(dir, "- name: required\n" + EXCHANGES + extra + PARAMETERS);
    assertThat(required.out())
        .contains("expected call not made: GET https://api.example.com/rows/3")
        .endsWith("0 passed, 1 failed\n");
  }
}
