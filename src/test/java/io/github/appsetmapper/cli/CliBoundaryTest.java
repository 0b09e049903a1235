package io.github.appsetmapper.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.boundary.HostileUpstreams;
import io.github.appsetmapper.boundary.HostileUpstreams.Hostile;
import io.github.appsetmapper.boundary.Promises;
import io.github.appsetmapper.testing.LogCapture;
import io.github.appsetmapper.testing.StubUpstream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 21's boundary suite, CLI side: hostile upstream behaviours crossed with {@code run}, {@code
 * run --explain} (text and JSON), {@code record}, {@code test} on what was recorded, and {@code
 * diff}. The promises: exit 0 only with the complete rows, no secret in any derived form in stdout,
 * stderr, the log, or any file written. The commands run one after another (picocli state is per
 * call, but the JVM's stdout is not), on a subset of the server suite's table: every kind of
 * behaviour, and the echo forms that differ most.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CliBoundaryTest {
  private static final Set<String> CASES =
      Set.of(
          "ok",
          "truncated-json",
          "html-200",
          "deep-10k",
          "body-50mb",
          "gzip-bomb",
          "hang",
          "connection-reset",
          "control-characters",
          "duplicate-keys",
          "null-list",
          "bad-utf8");

  private StubUpstream stub;
  private LogCapture logs;
  private Path dir;
  private Path mapping;
  private final List<Hostile> cases = new ArrayList<>();

  @BeforeAll
  void start(@TempDir Path dir) throws Exception {
    this.dir = dir;
    logs = new LogCapture();
    List<Hostile> all = HostileUpstreams.all();
    stub = new StubUpstream();
    HostileUpstreams.install(stub, all);
    for (Hostile c : all) {
      boolean echo = c.name().startsWith("echo");
      // The echo forms that differ most: raw, base64 of user:secret, percent-encoded twice,
      // JSON inside JSON, lower-cased (SecretForms' order: 0, 14, 7, 9, 24).
      boolean chosenEcho =
          echo
              && Set.of("echo0", "echo7", "echo9", "echo14", "echo24")
                  .contains(c.name().split("-")[0]);
      if (CASES.contains(c.name()) || chosenEcho) {
        cases.add(c);
      }
    }
    Path secret = dir.resolve("api-key");
    Files.writeString(secret, HostileUpstreams.SECRET);
    mapping = dir.resolve("hostile.yaml");
    Files.writeString(mapping, HostileUpstreams.mapping(secret, "2s"));
  }

  @AfterAll
  void stop() {
    try {
      Promises.noSecret("the log of the CLI commands", String.join("\n", logs.rendered()));
    } finally {
      HostileUpstreams.RELEASE.countDown();
      logs.close();
      stub.close();
    }
  }

  private CliTest.Result run(String... args) {
    return CliTest.run(args);
  }

  private static String all(CliTest.Result result) {
    return result.out() + "\n" + result.err();
  }

  @TestFactory
  Stream<DynamicTest> everyCommandKeepsThePromises() {
    List<DynamicTest> tests = new ArrayList<>();
    String up = "up=" + stub.url();
    for (Hostile c : cases) {
      String input = "case=" + c.name();
      tests.add(
          DynamicTest.dynamicTest(
              "run x " + c,
              () -> {
                CliTest.Result result =
                    run("run", mapping.toString(), "--input", input, "--var", up);
                Promises.noSecret("run " + c, all(result));
                Promises.noShort2xx("run " + c, c, result.exit() == 0 ? 200 : 502, result.out());
              }));
      for (String format : List.of("text", "json")) {
        tests.add(
            DynamicTest.dynamicTest(
                "run --explain " + format + " x " + c,
                () -> {
                  CliTest.Result result =
                      run(
                          "run",
                          mapping.toString(),
                          "--input",
                          input,
                          "--var",
                          up,
                          "--explain",
                          "--explain-format",
                          format);
                  Promises.noSecret("run --explain " + format + " " + c, all(result));
                  if (result.exit() == 0) {
                    assertThat(c.rows() != null || c.count() >= 0)
                        .as("run --explain " + c + " exit 0 where only an error is right")
                        .isTrue();
                  }
                }));
      }
      tests.add(
          DynamicTest.dynamicTest(
              "record, then test and diff x " + c,
              () -> {
                Path out = dir.resolve(c.name() + ".test.yaml");
                CliTest.Result recorded =
                    run(
                        "record",
                        mapping.toString(),
                        "--case",
                        c.name(),
                        "--input",
                        input,
                        "--var",
                        up,
                        "--out",
                        out.toString());
                Promises.noSecret("record " + c, all(recorded));
                if (Files.exists(out)) {
                  Promises.noSecret(
                      "the file record wrote for " + c,
                      new String(Files.readAllBytes(out), StandardCharsets.ISO_8859_1));
                  CliTest.Result replayed = run("test", out.toString(), "--var", up);
                  Promises.noSecret("test " + c, all(replayed));
                }
                CliTest.Result diff =
                    run(
                        "diff",
                        mapping.toString(),
                        mapping.toString(),
                        "--input",
                        input,
                        "--var",
                        up,
                        "--format",
                        "json");
                Promises.noSecret("diff " + c, all(diff));
                // Two sides failing alike are "no change" (documented); what diff may never do is
                // show rows for a side whose upstream gave no complete answer.
                com.fasterxml.jackson.databind.JsonNode side =
                    new com.fasterxml.jackson.databind.ObjectMapper()
                        .readTree(diff.out())
                        .path("mappings")
                        .path(0)
                        .path("inputs")
                        .path(0);
                for (String which : List.of("before", "after")) {
                  int status = side.path(which).path("status").asInt(200);
                  if (c.rows() == null && c.count() < 0) {
                    assertThat(status)
                        .as("diff " + c + ": the " + which + " side is an error: " + all(diff))
                        .isGreaterThanOrEqualTo(400);
                  }
                }
              }));
    }
    return tests.stream();
  }

  /** Input no one should give, to every command that takes input: refused, never a crash. */
  @TestFactory
  Stream<DynamicTest> hostileInputIsRefusedNotACrash() {
    String up = "up=" + stub.url();
    java.util.Map<String, List<String>> inputs = new java.util.LinkedHashMap<>();
    inputs.put(
        "deep JSON (10k)",
        List.of("--input-json", "{\"case\":" + "[".repeat(10_000) + "]".repeat(10_000) + "}"));
    inputs.put(
        "huge JSON (2 MiB)", List.of("--input-json", "{\"case\":\"" + "a".repeat(2 << 20) + "\"}"));
    inputs.put("not JSON", List.of("--input-json", "{{{"));
    inputs.put("a list", List.of("--input-json", "[]"));
    inputs.put("case an object", List.of("--input-json", "{\"case\":{\"a\":1}}"));
    inputs.put("case a path", List.of("--input", "case=../../v2/_catalog?n=1"));
    inputs.put("case with ESC and NUL", List.of("--input", "case=a\u001b[2J\u0000b"));
    List<DynamicTest> tests = new ArrayList<>();
    for (String command : List.of("run", "record", "diff")) {
      for (java.util.Map.Entry<String, List<String>> input : inputs.entrySet()) {
        tests.add(
            DynamicTest.dynamicTest(
                command + " x " + input.getKey(),
                () -> {
                  List<String> args = new ArrayList<>(List.of(command, mapping.toString()));
                  if (command.equals("diff")) {
                    args.add(mapping.toString());
                  }
                  if (command.equals("record")) {
                    args.addAll(
                        List.of(
                            "--case",
                            input.getKey(),
                            "--out",
                            dir.resolve("in-" + Math.abs(input.getKey().hashCode()) + ".test.yaml")
                                .toString()));
                  }
                  args.addAll(input.getValue());
                  args.addAll(List.of("--var", up));
                  CliTest.Result result = run(args.toArray(String[]::new));
                  String where = command + " " + input.getKey();
                  if (command.equals("run")) {
                    assertThat(result.exit())
                        .as(where + ": " + Promises.cut(all(result)))
                        .isNotZero();
                  } else {
                    // record keeps a refused input as a case; diff calls two refusals alike "no
                    // change" (documented). Either way the refusal shows, as a 400.
                    assertThat(result.exit() != 0 || all(result).contains("400"))
                        .as(where + ": refused: " + Promises.cut(all(result)))
                        .isTrue();
                  }
                  assertThat(all(result))
                      .as(where + ": one clear line, no stack trace, no raw control character")
                      .doesNotContain("\tat ", "Exception", "\u001b", "\u0000");
                  Promises.noSecret(where, all(result));
                }));
      }
    }
    return tests.stream();
  }

  @Test
  void textExplainEscapesUpstreamControlCharacters() {
    CliTest.Result result =
        run(
            "run",
            mapping.toString(),
            "--input",
            "case=control-characters",
            "--var",
            "up=" + stub.url(),
            "--explain",
            "--explain-format",
            "text");
    assertThat(all(result)).doesNotContain("\u001b", "\r", "\u0000", "\u202e");
  }
}
