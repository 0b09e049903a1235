package io.github.appsetmapper.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.StubUpstream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every YAML file the server or the CLI reads (mapping files, test files, their body files) is read
 * within a budget of bytes, code points and size once aliases are expanded, as strict UTF-8: a
 * hostile or huge file is one clear load error, never a heap exhausted or a stack trace (red team
 * C4, and LOW d/e).
 */
class YamlBoundsTest {
  /** Six strings of 100,000 characters behind four levels of six aliases: 778 MB expanded. */
  static String bomb() {
    StringBuilder yaml = new StringBuilder("x0: &a0 [");
    String big = "\"" + "x".repeat(100_000) + "\"";
    yaml.append(String.join(", ", java.util.Collections.nCopies(6, big))).append("]\n");
    for (int level = 1; level <= 4; level++) {
      yaml.append("x").append(level).append(": &a").append(level).append(" [");
      yaml.append(String.join(", ", java.util.Collections.nCopies(6, "*a" + (level - 1))));
      yaml.append("]\n");
    }
    return yaml.toString();
  }

  static String bombMapping() {
    StringBuilder mapping =
        new StringBuilder(
            """
            name: bomb
            list:
              request:
                url: "http://127.0.0.1:1/items"
                method: POST
                body:
            """);
    for (String line : bomb().split("\n")) {
      mapping.append("      ").append(line).append('\n');
    }
    mapping.append(
        """
          items: "$[*]"
        parameters:
          x: item.x
        """);
    return mapping.toString();
  }

  private static final String SMALL =
      """
      name: small
      list:
        request:
          url: "http://127.0.0.1:1/items"
        items: "$[*]"
      parameters:
        x: item.x
      """;

  @Test
  void aMappingThatExpandsBeyondTheBudgetIsOneLoadError(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("bomb.yaml");
    Files.writeString(file, bombMapping());
    CliTest.Result result = CliTest.run("validate", file.toString());
    assertThat(result.exit()).isEqualTo(1);
    assertThat(result.err())
        .isEqualTo(
            file
                + ":1:1 (document): expands to more than 4194304 characters once its aliases are"
                + " expanded (aliases of aliases?)\n");
    CliTest.Result served =
        CliTest.run("serve", "--mappings", file.toString(), "--insecure-no-auth", "--port", "0");
    assertThat(served.exit()).isEqualTo(1);
    assertThat(served.err()).startsWith(file + ":1:1 (document): expands to more than");
  }

  @Test
  void aTestFileThatExpandsBeyondTheBudgetIsOneError(@TempDir Path dir) throws IOException {
    Path test = dir.resolve("bomb.test.yaml");
    StringBuilder yaml = new StringBuilder("mapping: small\nanchors:\n");
    for (String line : bomb().split("\n")) {
      yaml.append("  ").append(line).append('\n');
    }
    yaml.append(
        """
        cases:
          - name: big body
            exchanges:
              - request: {url: "http://127.0.0.1:1/items"}
                response: {body: *a4}
            expect: {parameters: []}
        """);
    Files.writeString(test, yaml);
    Files.writeString(dir.resolve("small.yaml"), SMALL);
    CliTest.Result result = CliTest.run("test", test.toString());
    assertThat(result.out())
        .startsWith(
            "FAIL "
                + test
                + ": cannot read: "
                + test
                + ": expands to more than 33554432 characters once its aliases are expanded"
                + " (aliases of aliases?)\n");
    assertThat(result.exit()).isEqualTo(1);
    // The same file given to --replay is one line too, not a stack trace.
    CliTest.Result replayed =
        CliTest.run("run", dir.resolve("small.yaml").toString(), "--replay", test.toString());
    assertThat(replayed.exit()).isEqualTo(2);
    assertThat(replayed.err())
        .isEqualTo(
            "error: "
                + test
                + ": expands to more than 33554432 characters once its aliases are expanded"
                + " (aliases of aliases?)\n");
  }

  @Test
  void aMappingFileOverItsByteBudgetIsRefusedBeforeItIsParsed(@TempDir Path dir)
      throws IOException {
    Path file = dir.resolve("huge.yaml");
    Files.writeString(file, SMALL + "description: \"" + "é".repeat(4_200_000) + "\"\n");
    CliTest.Result result = CliTest.run("validate", file.toString());
    assertThat(result.exit()).isEqualTo(1);
    assertThat(result.err()).isEqualTo(file + ":1:1: larger than 8 MiB\n");
  }

  @Test
  void aFileNotInUtf8IsNamedWithItsFirstBadByte(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("latin1.yaml");
    Files.write(
        file,
        SMALL
            .replace("name: small", "name: small\ndescription: caf\u00e9")
            .getBytes(StandardCharsets.ISO_8859_1));
    CliTest.Result result = CliTest.run("validate", file.toString());
    assertThat(result.exit()).isEqualTo(1);
    assertThat(result.err())
        .isEqualTo(file + ":1:1: not UTF-8 text (byte 0xE9 at offset 28); save it as UTF-8\n");
    Path test = dir.resolve("latin1.test.yaml");
    Files.write(
        test,
        "mapping: latin1.yaml\ncases:\n  - name: caf\u00e9\n"
            .getBytes(StandardCharsets.ISO_8859_1));
    CliTest.Result tested = CliTest.run("test", test.toString());
    assertThat(tested.out())
        .startsWith(
            "FAIL "
                + test
                + ": cannot read: "
                + test
                + ": not UTF-8 text (byte 0xE9 at offset 41); save it as UTF-8\n");
  }

  @Test
  void aSecretFileNotInUtf8IsNamedNotAMalformedInput(@TempDir Path dir) throws Exception {
    Path secret = dir.resolve("token");
    Files.write(secret, "caf\u00e9".getBytes(StandardCharsets.ISO_8859_1));
    String yaml =
        """
        name: latin-secret
        vars: {up: {default: "http://unset.invalid"}}
        secrets: {api: {file: "%s", env: LATIN_TOKEN}}
        list:
          request:
            url: "#{vars.up}/items"
            headers: {X-Key: "#{secret.api}"}
          items: "$[*]"
        parameters: {id: item.id}
        """
            .formatted(secret);
    try (StubUpstream stub = new StubUpstream();
        PluginServer plugin =
            PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of(), yaml)) {
      PluginServer.Answer answer = plugin.getparams("latin-secret", "{}");
      assertThat(answer.status()).isEqualTo(500);
      // Both places it was looked for are named (LOW j).
      assertThat(answer.body())
          .isEqualTo(
              "{\"error\":\"mapping 'latin-secret': secret 'api': cannot read file "
                  + secret
                  + ": not UTF-8 text (byte 0xE9 at offset 3); save it as UTF-8, and environment"
                  + " variable LATIN_TOKEN is not set\"}");
      assertThat(stub.calls()).isZero();
    }
  }

  @Test
  void aTrailingDocumentSeparatorIsNoDocument(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("trailing.yaml");
    Files.writeString(file, "---\n" + SMALL + "---\n# the end\n---\n");
    CliTest.Result result = CliTest.run("validate", file.toString());
    assertThat(result.err()).isEmpty();
    assertThat(result.exit()).isZero();
    assertThat(result.out()).contains("ok " + file + " small");
    Path onlySeparators = dir.resolve("empty.yaml");
    Files.writeString(onlySeparators, "---\n---\n");
    CliTest.Result empty = CliTest.run("validate", onlySeparators.toString());
    assertThat(empty.exit()).isEqualTo(1);
    assertThat(empty.err()).isEqualTo(onlySeparators + ":1:1 (file): holds no mapping\n");
  }

  @Test
  void aTestFileWithATrailingSeparatorRuns(@TempDir Path dir) throws IOException {
    Files.writeString(
        dir.resolve("small.yaml"),
        SMALL.replace("url: \"http://127.0.0.1:1/items\"", "url: \"http://up.test/items\""));
    Path test = dir.resolve("small.test.yaml");
    Files.writeString(
        test,
        """
        mapping: small
        cases:
          - name: one row
            exchanges:
              - request: {url: "http://up.test/items"}
                response: {body: [{x: 1}]}
            expect: {parameters: [{x: "1"}]}
        ---
        """);
    CliTest.Result result = CliTest.run("test", test.toString());
    assertThat(result.out()).as(result.err()).endsWith("1 passed, 0 failed\n");
    assertThat(result.exit()).isZero();
  }

  @Test
  void aTokenFileWithAByteOrderMarkAndCrLfAccepts(@TempDir Path dir) throws Exception {
    Path tokens = dir.resolve("tokens");
    Files.writeString(tokens, "\uFEFFfirst-token\r\nsecond-token\r\n");
    Path mapping = dir.resolve("small.yaml");
    Files.writeString(mapping, SMALL);
    try (PluginServer plugin =
        PluginServer.start(
            List.of(mapping),
            Map.of(),
            Map.of(),
            io.github.appsetmapper.server.Tokens.fromFile(tokens))) {
      for (String token : List.of("first-token", "second-token")) {
        PluginServer.Answer answer = plugin.send("GET", "/mappings", null, "Bearer " + token, null);
        assertThat(answer.status()).as(token).isEqualTo(200);
      }
    }
  }

  @Test
  void halfASurrogatePairInAMappingIsALoadError(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("surrogate.yaml");
    Files.writeString(file, SMALL.replace("x: item.x", "x: \"'\\ud800'\""));
    CliTest.Result result = CliTest.run("validate", file.toString());
    assertThat(result.exit()).isEqualTo(1);
    assertThat(result.err())
        .isEqualTo(
            file
                + ":7:6 (text): holds half of a surrogate pair (a \\uD800-\\uDFFF escape alone),"
                + " which is not Unicode text\n");
  }

  /**
   * One recorded body of millions of characters inline: SnakeYAML's time grows with the square of
   * one value's length (10 MB took 39 s, a test file may hold 64 MiB), so a value over 1 Mi
   * characters is refused as the reader reaches it, naming the file and the line, as an upstream
   * YAML answer's is; a body that long belongs in a bodyFile.
   */
  @Test
  void aValueOverOneMiCharactersIsRefusedWithItsLine(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("small.yaml"), SMALL);
    Path test = dir.resolve("small.test.yaml");
    Files.writeString(
        test,
        "cases:\n  - name: one\n    input: {}\n    exchanges:\n"
            + "      - request: {url: \"http://127.0.0.1:1/items\"}\n"
            + "        response: {status: 200, body: \""
            + "x".repeat(2 * 1024 * 1024)
            + "\"}\n    expect: {parameters: []}\n");
    String line =
        test
            + ":6: a value longer than 1048576 characters (YAML reads one value in time that grows"
            + " with the square of its length): put a recorded body this long in a bodyFile";
    CliTest.Result result = CliTest.run("test", test.toString());
    assertThat(result.out()).startsWith("FAIL " + test + ": cannot read: " + line + "\n");
    assertThat(result.exit()).isEqualTo(1);
    CliTest.Result replayed =
        CliTest.run("run", dir.resolve("small.yaml").toString(), "--replay", test.toString());
    assertThat(replayed.exit()).isEqualTo(2);
    assertThat(replayed.err()).isEqualTo("error: " + line + "\n");
  }
}
