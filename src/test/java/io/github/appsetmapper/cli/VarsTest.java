package io.github.appsetmapper.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.cli.CliTest.Result;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code --var} on every command: bare for every mapping that declares the name while they agree on
 * what it is, qualified ({@code MAPPING.NAME}) for one; refused, with exit 2 and one line, when the
 * mappings disagree, when no mapping declares it, or when it is malformed.
 */
class VarsTest {
  private static final String GITHUB = "mappings/github-pulls.yaml";
  private static final String ACTIONS = "mappings/github-actions-success.yaml";
  private static final String GITLAB = "mappings/gitlab-merge-requests.yaml";
  private static final String AMBIGUOUS =
      "error: --var api is ambiguous: the mappings that declare 'api' disagree on what it is"
          + " (github-pulls reads $GITHUB_API_URL; gitlab-merge-requests reads $GITLAB_API_URL);"
          + " give each its own with --var MAPPING.api=VALUE, e.g. --var github-pulls.api=...";

  private static Result run(String... args) {
    return CliTest.run(args);
  }

  @Nested
  class Validate {
    @Test
    void aBareVarTheMappingsDisagreeOnIsRefused() {
      Result result = run("validate", GITHUB, GITLAB, "--var", "api=https://ghe.example.com");
      assertThat(result.exit()).isEqualTo(2);
      assertThat(result.err().lines()).containsExactly(AMBIGUOUS);
    }

    @Test
    void aBareVarTheMappingsAgreeOnSetsAll() {
      Result result =
          run("validate", GITHUB, ACTIONS, "--var", "api=https://ghe.example.com/api/v3");
      assertThat(result.exit()).as(result.err()).isZero();
      assertThat(result.out()).endsWith("2 mappings valid" + System.lineSeparator());
    }

    @Test
    void qualifiedVarsGiveEachItsOwn() {
      Result result =
          run(
              "validate",
              GITHUB,
              GITLAB,
              "--var",
              "github-pulls.api=https://ghe.example.com/api/v3",
              "--var",
              "gitlab-merge-requests.api=https://gitlab.example.com/api/v4");
      assertThat(result.exit()).as(result.err()).isZero();
    }

    @ParameterizedTest
    @ValueSource(
        strings = {
          "nope=1|--var nope: no loaded mapping declares it (declared: api)",
          "github-pulls.nope=1|--var github-pulls.nope: mapping 'github-pulls' declares no var"
              + " 'nope' (it declares: api)",
          "gitlab.api=1|--var gitlab.api: no mapping 'gitlab' is loaded (loaded: github-pulls)",
          "a.b.c=1|--var a.b.c=...: give NAME=VALUE (every mapping that declares NAME) or"
              + " MAPPING.NAME=VALUE (one mapping)"
        })
    void anUnknownOrMalformedVarIsRefused(String case_) {
      String[] parts = case_.split("\\|");
      Result result = run("validate", GITHUB, "--var", parts[0]);
      assertThat(result.exit()).isEqualTo(2);
      assertThat(result.err().lines()).containsExactly("error: " + parts[1]);
    }
  }

  @Nested
  class RunAndTest {
    @Test
    void runRefusesAnUnknownVar() {
      Result result =
          run(
              "run",
              "samples/pr-digests/pr-digests.yaml",
              "--input",
              "branch=main",
              "--var",
              "regsitry=https://r.example.com");
      assertThat(result.exit()).isEqualTo(2);
      assertThat(result.err().lines())
          .containsExactly(
              "error: --var regsitry: no loaded mapping declares it (declared: registry,"
                  + " registryUser, repository)");
    }

    @Test
    void testRefusesAnUnknownVarBeforeRunningAnything() {
      Result result = run("test", GITHUB, "--var", "nope=1");
      assertThat(result.exit()).isEqualTo(2);
      assertThat(result.err().lines())
          .containsExactly("error: --var nope: no loaded mapping declares it (declared: api)");
      assertThat(result.out()).doesNotContain("passed");
    }

    @Test
    void aTestFilesOwnVarsWinOverTheCommandLine() {
      Result result = run("test", GITHUB, "--var", "github-pulls.api=https://elsewhere.example");
      assertThat(result.exit()).as(result.out()).isZero();
    }

    @Test
    void runTellsWhichMappingsAFileHolds(@TempDir Path dir) throws Exception {
      Path file = dir.resolve("two.yaml");
      Files.writeString(
          file,
          """
          name: one
          parameters: {a: "'1'"}
          ---
          name: two
          parameters: {a: "'2'"}
          """);
      Result several = run("run", file.toString());
      assertThat(several.exit()).isEqualTo(2);
      assertThat(several.err().lines())
          .containsExactly(
              "error: "
                  + file
                  + " holds several mappings; name one with --mapping (it holds:"
                  + " one, two)");
      Result missing = run("run", file.toString(), "--mapping", "three");
      assertThat(missing.exit()).isEqualTo(2);
      assertThat(missing.err().lines())
          .containsExactly("error: " + file + " holds no mapping 'three' (it holds: one, two)");
      Result json = run("run", file.toString(), "--mapping", "one", "--input-json", "[1");
      assertThat(json.exit()).isEqualTo(2);
      assertThat(json.err()).startsWith("error: --input-json ").doesNotContain("Exception");
    }
  }

  /** A generous bound only so that a serve that did start (the old behaviour) fails, not hangs. */
  @Test
  @Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void serveRefusesToStartOnAnAmbiguousVar() {
    Result result =
        run(
            "serve",
            "--mappings",
            GITHUB,
            "--mappings",
            GITLAB,
            "--var",
            "api=http://127.0.0.1:1",
            "--insecure-no-auth",
            "--port",
            "0");
    assertThat(result.exit()).isEqualTo(2);
    assertThat(result.err().lines()).containsExactly(AMBIGUOUS);
  }
}
