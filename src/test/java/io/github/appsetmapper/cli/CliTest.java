package io.github.appsetmapper.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

/** The command line as a user types it: exit codes, stdout and stderr. */
class CliTest {
  private static final String SAMPLE = "samples/pr-digests/pr-digests.yaml";
  private static final String REPLAY = "samples/pr-digests/pr-digests.test.yaml";

  record Result(int exit, String out, String err) {}

  static Result run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = Main.commandLine(args);
    cli.setOut(new PrintWriter(out));
    cli.setErr(new PrintWriter(err));
    int exit = cli.execute(args);
    return new Result(exit, out.toString(), err.toString());
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "serve", "validate", "run", "test", "record", "diff"})
  void everyCommandHasHelp(String command) {
    Result result = command.isEmpty() ? run("--help") : run(command, "--help");
    assertThat(result.exit()).isZero();
    assertThat(result.out())
        .startsWith("Usage: appset-mapper" + (command.isEmpty() ? "" : " " + command));
  }

  @Test
  void noCommandIsAUsageError() {
    Result result = run();
    assertThat(result.exit()).isEqualTo(2);
    assertThat(result.err()).startsWith("name a command: serve, validate, run, test or record");
  }

  @Nested
  class Validate {
    @Test
    void everyShippedMappingLoads() {
      Result result = run("validate", "samples/pr-digests", "mappings");
      assertThat(result.exit()).as(result.err()).isZero();
      assertThat(result.out()).contains("ok " + SAMPLE + " pr-digests").contains("mappings valid");
    }

    @Test
    void oneLinePerErrorAndExitOne(@TempDir Path dir) throws Exception {
      Path file = dir.resolve("broken.yaml");
      Files.writeString(
          file,
          """
          name: Broken_Name
          paramters: {a: "'b'"}
          """);
      Result result = run("validate", file.toString());
      assertThat(result.exit()).isEqualTo(1);
      assertThat(result.err().lines())
          .containsExactly(
              file + ":1:1: missing required key 'parameters'",
              file
                  + ":1:7 name: 'Broken_Name' must be lowercase letters, digits and '-', at most 63 (an RFC 1123 label), e.g. pr-digests",
              file + ":2:1 paramters: unknown key 'paramters'; did you mean 'parameters'?");
    }

    @Test
    void checksTheJsonSchemaToo(@TempDir Path dir) throws Exception {
      Path file = dir.resolve("schema.yaml");
      Files.writeString(
          file,
          """
          name: quoted-limit
          limit: "5"
          parameters: {a: "'b'"}
          sortOrder: up
          """);
      Result result = run("validate", file.toString());
      assertThat(result.exit()).isEqualTo(1);
      // Where the loader found the mistake too, its words are kept; the rest is the schema's.
      assertThat(result.err().lines())
          .containsExactly(
              file + ":2:8 limit: schema: string found, integer expected",
              file + ":4:12 sortOrder: must be one of asc, desc, not 'up'");
    }
  }

  @Nested
  class Run {
    @Test
    void printsTheExactAnswerBody() {
      Result result = run("run", SAMPLE, "--input", "branch=feature-branch-1", "--replay", REPLAY);
      assertThat(result.exit()).as(result.err()).isZero();
      assertThat(result.out())
          .isEqualTo(
              "{\"output\":{\"parameters\":[{\"digestFront\":\"sha256:034009e75e939b5180614ddad68e90c902794ddf9da1c053eb94e2f88653cb0d\","
                  + "\"digestBack\":\"sha256:a421c39fa337ff80a55094e8c704dd568550e55da8e92d639d4be5ea32ae3344\"}]}}"
                  + System.lineSeparator());
    }

    /**
     * A test file's {@code vars} are what its recorded calls were made with: {@code run --replay}
     * takes them as {@code test} does (the same {@code VarValues.under}), so the replayed calls
     * match; a {@code --var} of the same name loses to them, as in {@code test}.
     */
    @Test
    void replayTakesTheTestFilesVars(@TempDir Path dir) throws Exception {
      Path mapping = dir.resolve("rows.yaml");
      Files.writeString(
          mapping,
          "name: rows\nvars: {up: {default: \"http://unset.invalid\"}}\nlist:\n"
              + "  request: {url: \"#{vars.up}/rows\"}\n  items: \"$[*]\"\nparameters: {id: item}\n");
      Path recorded = dir.resolve("rows.test.yaml");
      Files.writeString(
          recorded,
          "mapping: rows\nvars: {up: \"https://recorded.example\"}\ncases:\n"
              + "  - name: one\n    input: {}\n    exchanges:\n"
              + "      - request: {method: GET, url: \"https://recorded.example/rows\"}\n"
              + "        response: {status: 200, body: [1, 2]}\n"
              + "    expect: {parameters: [{id: \"1\"}, {id: \"2\"}]}\n");
      assertThat(run("test", recorded.toString()).exit()).as("the test file is valid").isZero();
      Result result = run("run", mapping.toString(), "--replay", recorded.toString());
      assertThat(result.exit()).as(result.err()).isZero();
      assertThat(result.out())
          .isEqualTo(
              "{\"output\":{\"parameters\":[{\"id\":\"1\"},{\"id\":\"2\"}]}}"
                  + System.lineSeparator());
    }

    /**
     * A test file's vars belong to the mapping it names: replayed for another mapping that declares
     * the same names, they were taken (its answer came from the first mapping's recording), and a
     * var the run's mapping does not declare was reported as a "--var" nobody gave (an outside
     * tester's finds). The other mapping keeps its own values; nothing is reported.
     */
    @Test
    void replayedVarsAreTheNamedMappingsOnly(@TempDir Path dir) throws Exception {
      String shape =
          "name: %s\nvars: {up: {default: \"http://unset.invalid\"}, extra: {default: own}}\n"
              + "list:\n  request: {url: \"#{vars.up}/rows\"}\n  items: \"$[*]\"\n"
              + "parameters: {id: item, e: vars.extra}\n";
      Files.writeString(dir.resolve("ma.yaml"), shape.formatted("ma"));
      Path other = dir.resolve("mb.yaml");
      Files.writeString(other, shape.formatted("mb"));
      Path recorded = dir.resolve("ma.test.yaml");
      Files.writeString(
          recorded,
          "mapping: ma\nvars: {up: \"https://recorded.example\", extra: FROMTEST, nosuch: x}\n"
              + "cases:\n  - name: one\n    input: {}\n    exchanges:\n"
              + "      - request: {method: GET, url: \"https://recorded.example/rows\"}\n"
              + "        response: {status: 200, body: [1]}\n"
              + "    expect: {parameters: [{id: \"1\", e: FROMTEST}]}\n");
      Result own = run("run", dir.resolve("ma.yaml").toString(), "--replay", recorded.toString());
      assertThat(own.exit()).as(own.err()).isZero();
      assertThat(own.out()).contains("\"e\":\"FROMTEST\"");
      // A file naming a mapping not loaded is refused, as `test` refuses it
      // (ReplayMappingNameTest).
      Result result = run("run", other.toString(), "--replay", recorded.toString());
      assertThat(result.err()).doesNotContain("--var");
      assertThat(result.out()).doesNotContain("FROMTEST");
      assertThat(result.err()).contains("no mapping 'ma' in " + other + "; found: mb");
    }

    @Test
    void inputJsonKeepsTypes() {
      Result result = run("run", SAMPLE, "--input-json", "{\"branch\":7}", "--replay", REPLAY);
      assertThat(result.exit()).isEqualTo(4);
      assertThat(result.err())
          .contains(
              "error 502: mapping 'pr-digests': enrich.front HEAD https://registry.example.com/v2/myorg/front/manifests/7: no recorded exchange matches");
    }

    @Test
    void failureIsTheErrorBodyAndAnUpstreamsExitsFour() {
      Result result = run("run", SAMPLE, "--input", "branch=release-1.4", "--replay", REPLAY);
      assertThat(result.exit()).isEqualTo(4);
      String message =
          "mapping 'pr-digests': enrich.front HEAD https://registry.example.com/v2/myorg/front/manifests/release-1.4: answered 503 after 3 attempts";
      assertThat(result.out())
          .isEqualTo("{\"error\":\"" + message + "\"}" + System.lineSeparator());
      assertThat(result.err()).isEqualTo("error 502: " + message + System.lineSeparator());
    }

    @Test
    void explainTellsWhyARowDropped() {
      Result result =
          run("run", SAMPLE, "--input", "branch=feature-branch-2", "--replay", REPLAY, "--explain");
      assertThat(result.exit()).as(result.err()).isZero();
      // A call's time is whatever the machine took (and widens its column): only its place counts.
      assertThat(result.out().replaceAll("\\d+\\.\\dms +", "T.Tms     "))
          .isEqualTo(
              """
              explain pr-digests for applicationSetName 'appset-mapper-run'
              input: {"branch":"feature-branch-2"}

              upstream calls: 6
                step                                 page  status  time      call
                enrich.front                            1  200     T.Tms     HEAD https://registry.example.com/v2/myorg/front/manifests/feature-branch-2
                enrich.front registry challenge         1  401     T.Tms     HEAD https://registry.example.com/v2/myorg/front/manifests/feature-branch-2
                enrich.front registry token request     1  200     T.Tms     GET https://registry.example.com/service/token?service=harbor-registry&scope=repository%3Amyorg%2Ffront%3Apull
                enrich.back                             1  404     T.Tms     HEAD https://registry.example.com/v2/myorg/back/manifests/feature-branch-2
                enrich.back registry challenge          1  401     T.Tms     HEAD https://registry.example.com/v2/myorg/back/manifests/feature-branch-2
                enrich.back registry token request      1  200     T.Tms     GET https://registry.example.com/service/token?service=harbor-registry&scope=repository%3Amyorg%2Fback%3Apull

              rows after each stage (a row is numbered by its place in the list, from 0):
                list          1
                enrich.front  1
                enrich.back   0
                    dropped row 0: onMissing: drop (enrich.back HEAD https://registry.example.com/v2/myorg/back/manifests/feature-branch-2: answered 404)

              parameters: 0 rows

              getparams would answer 200: {"output":{"parameters":[]}}
              """);
    }

    @Test
    void explainAsJsonExitsAsRunWhenGetparamsWouldFail() throws Exception {
      Result result =
          run(
              "run",
              SAMPLE,
              "--input",
              "branch=release-1.4",
              "--replay",
              REPLAY,
              "--explain",
              "--explain-format",
              "json");
      assertThat(result.exit()).isEqualTo(4);
      var report = new com.fasterxml.jackson.databind.ObjectMapper().readTree(result.out());
      assertThat(report.get("explain").asText()).isEqualTo("pr-digests");
      // Registry auth adds its token below the trace: explain shows the header, never its value.
      assertThat(report.get("calls").get(0).get("headers").get("Authorization").asText())
          .isEqualTo("***");
      assertThat(report.get("answer").toString())
          .isEqualTo(
              "{\"status\":502,\"body\":{\"error\":\"mapping 'pr-digests': enrich.front HEAD"
                  + " https://registry.example.com/v2/myorg/front/manifests/release-1.4: answered"
                  + " 503 after 3 attempts\"}}");
      assertThat(result.out()).doesNotContain("demo-registry-token");
    }

    @ParameterizedTest
    @ValueSource(strings = {"1e999999999", "1e2147483647"})
    void aNumberBeyondTheBoundsInInputJsonIsAClearError(String number) {
      Result result =
          run("run", SAMPLE, "--input-json", "{\"branch\":" + number + "}", "--replay", REPLAY);
      assertThat(result.exit()).isEqualTo(2);
      assertThat(result.err())
          .isEqualTo(
              "error: --input-json has a number beyond the bounds (at most 1000 digits and an"
                  + " exponent within \u00b11000) (line 1, column 11)"
                  + System.lineSeparator());
    }

    @Test
    void inputJsonMustBeAnObject() {
      Result result = run("run", SAMPLE, "--input-json", "[1]", "--replay", REPLAY);
      assertThat(result.exit()).isEqualTo(2);
      assertThat(result.err())
          .isEqualTo("error: --input-json must be a JSON object" + System.lineSeparator());
    }

    @Test
    void aNumberBeyondTheBoundsInAMappingIsALoadError(@TempDir Path dir) throws Exception {
      Path file = dir.resolve("big.yaml");
      Files.writeString(
          file,
          """
          name: big
          list:
            request: {method: POST, url: "https://api.example.com/x", body: {n: 1.0e+999999999}}
            items: "$[*]"
          parameters: {x: item}
          """);
      Result result = run("validate", file.toString());
      assertThat(result.exit()).isEqualTo(1);
      assertThat(result.err())
          .contains(
              file
                  + ":3:71 list.request.body.n: the number '1.0e+999999999' is beyond the bounds"
                  + " (at most 1000 digits and an exponent within \u00b11000)");
    }

    @Test
    void badInputIsA400() {
      Result result = run("run", SAMPLE, "--input", "branch=a b", "--replay", REPLAY);
      assertThat(result.exit()).isEqualTo(3);
      assertThat(result.err())
          .isEqualTo(
              "error 400: input 'branch' does not match the pattern [A-Za-z0-9._/-]{1,200}"
                  + System.lineSeparator());
    }
  }

  @Nested
  class Serve {
    @Test
    void refusesToStartWithoutAToken(@TempDir Path dir) {
      Result result =
          run(
              "serve",
              "--mappings",
              SAMPLE,
              "--token-file",
              dir.resolve("none").toString(),
              "--port",
              "0");
      assertThat(result.exit()).isEqualTo(2);
      assertThat(result.err())
          .startsWith(
              "error: no token: APPSET_MAPPER_TOKEN is not set and "
                  + dir.resolve("none")
                  + " does not exist");
    }

    @Test
    void refusesToStartWithABrokenMapping(@TempDir Path dir) throws Exception {
      Path token = dir.resolve("token");
      Files.writeString(token, "t0ken-value\n");
      Path broken = dir.resolve("broken.yaml");
      Files.writeString(broken, "name: x\nparameters: {a: \"T(java.lang.Runtime)\"}\n");
      Result result =
          run(
              "serve",
              "--mappings",
              broken.toString(),
              "--token-file",
              token.toString(),
              "--port",
              "0");
      assertThat(result.exit()).isEqualTo(1);
      assertThat(result.err())
          .isEqualTo(
              broken
                  + ":2:17 parameters.a: type references (T(...)) are not allowed (in 'T(java.lang.Runtime)')"
                  + System.lineSeparator());
    }
  }
}
