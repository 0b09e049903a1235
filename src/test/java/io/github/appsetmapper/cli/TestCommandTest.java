package io.github.appsetmapper.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.config.MappingSources;
import io.github.appsetmapper.replay.ExchangeFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code appset-mapper test}: one line per case, a diff under each failure, the summary line. */
class TestCommandTest {
  private static final Path SAMPLE = Path.of("samples/pr-digests/pr-digests.yaml");

  /**
   * The project's own mapping tests, run the way a user runs them: every test file under mappings/,
   * samples/ and the golden cases, through the command, all passing.
   */
  @Test
  void everyShippedTestFilePasses() throws Exception {
    int cases = 0;
    for (String root : List.of("mappings", "samples", "src/test/resources/golden")) {
      try (Stream<Path> walk = Files.walk(Path.of(root))) {
        for (Path file : walk.filter(MappingSources::isTestFile).toList()) {
          cases += ExchangeFile.read(file).cases().size();
        }
      }
    }
    CliTest.Result result = CliTest.run("test", "mappings", "samples", "src/test/resources/golden");
    List<String> lines = result.out().lines().toList();
    assertThat(result.exit()).as(result.out()).isZero();
    assertThat(lines.get(lines.size() - 1)).isEqualTo(cases + " passed, 0 failed");
    assertThat(lines.subList(0, lines.size() - 1)).allMatch(line -> line.startsWith("ok   "));
    assertThat(lines).hasSize(cases + 1);
  }

  /**
   * Files run side by side, yet the output is what running them one at a time gives: each file's
   * lines together, the files in the order named (a directory's sorted), whichever finished first.
   */
  @Test
  void filesRunTogetherPrintAsOneAtATimeDid() throws Exception {
    List<Path> files;
    try (Stream<Path> walk = Files.walk(Path.of("mappings"))) {
      files = walk.filter(MappingSources::isTestFile).sorted().toList();
    }
    assertThat(files).hasSizeGreaterThan(TestCommand.runners(files.size()));
    List<String> alone = new java.util.ArrayList<>();
    for (Path file : files) {
      List<String> lines = CliTest.run("test", file.toString()).out().lines().toList();
      alone.addAll(lines.subList(0, lines.size() - 1));
    }
    CliTest.Result together = CliTest.run("test", "mappings");
    List<String> lines = together.out().lines().toList();
    assertThat(together.exit()).as(together.out()).isZero();
    assertThat(lines.subList(0, lines.size() - 1)).containsExactlyElementsOf(alone);
  }

  /** A copy of the pr-digests sample whose test file is edited by {@code edit}. */
  private static Path sample(Path dir, String from, String to) throws Exception {
    Files.copy(SAMPLE, dir.resolve("pr-digests.yaml"));
    String test = Files.readString(Path.of("samples/pr-digests/pr-digests.test.yaml"));
    assertThat(test).contains(from);
    Files.writeString(dir.resolve("pr-digests.test.yaml"), test.replace(from, to));
    return dir.resolve("pr-digests.test.yaml");
  }

  @Nested
  class Failures {
    @Test
    void wrongParametersShowALineDiff(@TempDir Path dir) throws Exception {
      Path test =
          sample(
              dir,
              "digestBack: sha256:a421c39fa337ff80a55094e8c704dd568550e55da8e92d639d4be5ea32ae3344",
              "digestBack: sha256:a421c39fa337ff80a55094e8c704dd568550e55da8e92d639d4be5ea32ae3345");
      CliTest.Result result = CliTest.run("test", test.toString());
      assertThat(result.exit()).isEqualTo(1);
      assertThat(result.out().lines())
          .containsExactly(
              "FAIL " + test + " > both images built for the branch",
              "    parameters differ (- expected, + actual):",
              "        [ {",
              "      -   \"digestBack\" : \"sha256:a421c39fa337ff80a55094e8c704dd568550e55da8e92d639d4be5ea32ae3345\",",
              "      +   \"digestBack\" : \"sha256:a421c39fa337ff80a55094e8c704dd568550e55da8e92d639d4be5ea32ae3344\",",
              "          \"digestFront\" : \"sha256:034009e75e939b5180614ddad68e90c902794ddf9da1c053eb94e2f88653cb0d\"",
              "        } ]",
              "ok   " + test + " > a slash in the branch becomes a dash in the tag",
              "ok   " + test + " > the back image is not built yet, so no Application for now",
              "ok   " + test + " > the registry fails, so Argo CD keeps its Applications",
              "ok   " + test + " > a branch outside the pattern is refused before any call",
              "4 passed, 1 failed");
    }

    @Test
    void anUnexpectedCallNamesTheClosestRecordedExchangeAndTheMissingOnes(@TempDir Path dir)
        throws Exception {
      Path test = sample(dir, "front/manifests/feature-login", "front/manifests/feature-logon");
      List<String> lines = CliTest.run("test", test.toString()).out().lines().toList();
      assertThat(lines.subList(1, 9))
          .containsExactly(
              "FAIL " + test + " > a slash in the branch becomes a dash in the tag",
              "    unexpected call: HEAD https://registry.example.com/v2/myorg/front/manifests/feature-login",
              "      closest recorded exchange: HEAD https://registry.example.com/v2/myorg/front/manifests/feature-logon",
              "        url: expected https://registry.example.com/v2/myorg/front/manifests/feature-logon",
              "             got      https://registry.example.com/v2/myorg/front/manifests/feature-login",
              "        header Authorization: expected 'Bearer demo-pull-token-front', got none",
              "    expected call not made: HEAD https://registry.example.com/v2/myorg/front/manifests/feature-logon",
              "    expected call not made: HEAD https://registry.example.com/v2/myorg/front/manifests/feature-logon");
      assertThat(lines)
          .contains(
              "    expected parameters, got error 502: mapping 'pr-digests': enrich.front HEAD"
                  + " https://registry.example.com/v2/myorg/front/manifests/feature-login: no recorded"
                  + " exchange matches");
    }

    @Test
    void aHeaderThatDiffersIsNamed(@TempDir Path dir) throws Exception {
      // The challenge exchange moves away: the call without a token meets only the exchange that
      // expects one.
      Path test =
          sample(
              dir,
              "url: https://registry.example.com/v2/myorg/front/manifests/feature-login}",
              "url: https://registry.example.com/v2/myorg/front/manifests/feature-logon}");
      List<String> lines = CliTest.run("test", test.toString()).out().lines().toList();
      assertThat(lines.subList(1, 6))
          .containsExactly(
              "FAIL " + test + " > a slash in the branch becomes a dash in the tag",
              "    unexpected call: HEAD https://registry.example.com/v2/myorg/front/manifests/feature-login",
              "      closest recorded exchange: HEAD https://registry.example.com/v2/myorg/front/manifests/feature-login",
              "        header Authorization: expected 'Bearer demo-pull-token-front', got none",
              "    expected call not made: HEAD https://registry.example.com/v2/myorg/front/manifests/feature-login");
    }

    @Test
    void aMissingCallFailsEvenWhenTheAnswerIsRight(@TempDir Path dir) throws Exception {
      Path test =
          sample(
              dir,
              "    exchanges: []\n",
              "    exchanges:\n"
                  + "      - request: {method: GET, url: https://registry.example.com/v2/}\n"
                  + "        response: {status: 200}\n");
      List<String> lines = CliTest.run("test", test.toString()).out().lines().toList();
      assertThat(lines.subList(lines.size() - 3, lines.size()))
          .containsExactly(
              "FAIL " + test + " > a branch outside the pattern is refused before any call",
              "    expected call not made: GET https://registry.example.com/v2/",
              "4 passed, 1 failed");
    }

    @Test
    void aDifferentErrorMessageIsPointedAt(@TempDir Path dir) throws Exception {
      Path test =
          sample(
              dir,
              "release-1.4: answered 503 after 3 attempts\"",
              "release-1.4: answered 500 after 3 attempts\"");
      List<String> lines = CliTest.run("test", test.toString()).out().lines().toList();
      String prefix =
          "mapping 'pr-digests': enrich.front HEAD"
              + " https://registry.example.com/v2/myorg/front/manifests/release-1.4: answered 50";
      assertThat(lines.subList(3, 8))
          .containsExactly(
              "FAIL " + test + " > the registry fails, so Argo CD keeps its Applications",
              "    error message differs (- expected, + actual):",
              "      - " + prefix + "0 after 3 attempts",
              "      + " + prefix + "3 after 3 attempts",
              "        " + " ".repeat(prefix.length()) + "^");
    }

    @Test
    void anErrorExpectedButParametersAnswered(@TempDir Path dir) throws Exception {
      Path test =
          sample(
              dir,
              "    expect:\n      parameters: []\n",
              "    expect:\n      error: {status: 502, message: nope}\n");
      List<String> lines = CliTest.run("test", test.toString()).out().lines().toList();
      assertThat(lines.subList(2, 5))
          .containsExactly(
              "FAIL " + test + " > the back image is not built yet, so no Application for now",
              "    expected error 502: nope, got 200 with 0 parameter maps:",
              "      [ ]");
    }

    @Test
    void aMappingThatDoesNotLoadFailsEveryCase(@TempDir Path dir) throws Exception {
      Path test = sample(dir, "mapping: pr-digests", "mapping: pr-digests");
      Files.writeString(
          dir.resolve("pr-digests.yaml"),
          Files.readString(SAMPLE).replace("digestBack: back", "digestBack: bakc"));
      List<String> lines = CliTest.run("test", dir.toString()).out().lines().toList();
      assertThat(lines.get(0)).isEqualTo("FAIL " + test + ": the mapping does not load:");
      assertThat(lines.get(1))
          .startsWith("      " + dir.resolve("pr-digests.yaml") + ":45:15 parameters.digestBack: ");
      assertThat(lines.get(2))
          .isEqualTo("FAIL " + test + " > both images built for the branch (not run)");
      assertThat(lines.get(lines.size() - 1)).isEqualTo("0 passed, 5 failed");
    }

    /** YAML's .inf and .nan are no JSON numbers: the file is refused, as before exact decimals. */
    @Test
    void anInfinityOrNanIsAClearError(@TempDir Path dir) throws Exception {
      for (String value : new String[] {".inf", "-.Inf", ".NaN"}) {
        Path test =
            sample(dir, "input: {branch: feature-branch-1}", "input: {branch: " + value + "}");
        CliTest.Result result = CliTest.run("test", test.toString());
        assertThat(result.out().lines())
            .startsWith(
                "FAIL "
                    + test
                    + ": cannot read: "
                    + test
                    + ": holds "
                    + value
                    + ", which is no number JSON can hold");
        assertThat(result.exit()).isEqualTo(1);
        Files.delete(test);
        Files.delete(dir.resolve("pr-digests.yaml"));
      }
    }

    @Test
    void aNumberBeyondTheBoundsIsAClearError(@TempDir Path dir) throws Exception {
      Path test =
          sample(dir, "input: {branch: feature-branch-1}", "input: {branch: 1.0e+999999999}");
      CliTest.Result result = CliTest.run("test", test.toString());
      assertThat(result.out().lines())
          .startsWith(
              "FAIL "
                  + test
                  + ": cannot read: "
                  + test
                  + ": holds a number beyond the bounds (at most 1000 digits and an exponent"
                  + " within \u00b11000): 1.0e+999999999");
      assertThat(result.exit()).isEqualTo(1);
    }

    @Test
    void testsNeverReadRealSecrets(@TempDir Path dir) throws Exception {
      Path test = sample(dir, "secrets:\n  registry: demo-registry-token\n", "");
      CliTest.Result result = CliTest.run("test", test.toString());
      assertThat(result.out().lines())
          .startsWith(
              "FAIL "
                  + test
                  + ": mapping 'pr-digests' reads secret(s) registry that the test file does not"
                  + " give under 'secrets'; tests never read real secrets");
      assertThat(result.exit()).isEqualTo(1);
    }
  }

  @Nested
  class Paths {
    @Test
    void aMappingFileRunsTheTestFileBesideIt() {
      CliTest.Result result = CliTest.run("test", SAMPLE.toString());
      assertThat(result.exit()).isZero();
      assertThat(result.out())
          .startsWith("ok   samples/pr-digests/pr-digests.test.yaml > both images built")
          .endsWith("5 passed, 0 failed" + System.lineSeparator());
    }

    @Test
    void aDirectoryIsSearchedRecursivelyAndEachFileRunsOnce() {
      CliTest.Result result =
          CliTest.run("test", "samples", "samples/pr-digests/pr-digests.test.yaml");
      assertThat(result.exit()).isZero();
      assertThat(result.out()).endsWith("5 passed, 0 failed" + System.lineSeparator());
    }

    @Test
    void aMappingWithoutATestFileOrAMissingPathFails(@TempDir Path dir) throws Exception {
      Path mapping = dir.resolve("lonely.yaml");
      Files.copy(SAMPLE, mapping);
      CliTest.Result result =
          CliTest.run("test", mapping.toString(), dir.resolve("nope").toString());
      assertThat(result.exit()).isEqualTo(1);
      assertThat(result.out().lines())
          .containsExactly(
              "FAIL " + mapping + ": no test file beside it (lonely.test.yaml)",
              "FAIL " + dir.resolve("nope") + ": no such file or directory",
              "0 passed, 2 failed");
    }

    @Test
    void noTestCaseAtAllIsAFailure(@TempDir Path dir) throws Exception {
      Files.writeString(dir.resolve("empty.test.yaml"), "secrets: {registry: x}\ncases: []\n");
      Files.copy(SAMPLE, dir.resolve("empty.yaml"));
      CliTest.Result result = CliTest.run("test", dir.toString());
      assertThat(result.exit()).isEqualTo(1);
      assertThat(result.out().lines())
          .containsExactly(
              "FAIL "
                  + dir.resolve("empty.test.yaml")
                  + ": no test case in it; add one under 'cases'",
              "0 passed, 1 failed");
    }
  }

  /** A mapping whose token comes from an OAuth2 client-credentials grant: a form body. */
  private static final String OAUTH_MAPPING =
      """
      name: inventory
      vars:
        api: {default: "https://inventory.example.com"}
        idp: {default: "https://login.example.com"}
      secrets:
        client: {env: CLIENT_SECRET}
      list:
        request:
          url: "#{vars.api}/clusters"
          query: {env: prod, region: eu, tier: gold}
          auth:
            oauth2:
              tokenUrl: "#{vars.idp}/token"
              clientId: appset-mapper
              clientSecret: {secret: client}
              clientAuth: body
              scopes: [inventory.read, inventory.list]
              params: {audience: "https://inventory.example.com"}
        items: "$.items[*]"
      parameters:
        name: item.name
      """;

  private static final String OAUTH_TEST =
      """
      secrets: {client: demo-client-secret}
      cases:
        - name: a token, then the clusters
          exchanges:
            - request:
                method: POST
                url: https://login.example.com/token
                form:
                  scope: inventory.read inventory.list
                  client_secret: demo-client-secret
                  audience: https://inventory.example.com
                  grant_type: client_credentials
                  client_id: appset-mapper
              response:
                body: {access_token: demo-access-token, token_type: Bearer, expires_in: 300}
            - request:
                url: https://inventory.example.com/clusters?tier=gold&env=prod&region=eu
                headers: {Authorization: Bearer demo-access-token}
              response:
                body: {items: [{name: prod-eu-1}]}
          expect:
            parameters: [{name: prod-eu-1}]
        - name: nothing in the inventory
          exchanges:
            - request:
                method: POST
                url: https://login.example.com/token
                form: {grant_type: client_credentials, client_id: appset-mapper,
                       client_secret: demo-client-secret, scope: inventory.read inventory.list,
                       audience: https://inventory.example.com}
              response:
                body: {access_token: demo-access-token-2, expires_in: 300}
            - request:
                url: https://inventory.example.com/clusters?region=eu&tier=gold&env=prod
                headers: {Authorization: Bearer demo-access-token-2}
              response:
                body: {items: []}
          expect:
            parameters: []
      """;

  private static Path oauth(Path dir, String from, String to) throws Exception {
    Files.writeString(dir.resolve("inventory.yaml"), OAUTH_MAPPING);
    assertThat(OAUTH_TEST).contains(from);
    Files.writeString(dir.resolve("inventory.test.yaml"), OAUTH_TEST.replace(from, to));
    return dir.resolve("inventory.test.yaml");
  }

  @Nested
  class Matching {
    @Test
    void queryParametersAndFormFieldsMatchInAnyOrder(@TempDir Path dir) throws Exception {
      Path test = oauth(dir, "", "");
      CliTest.Result result = CliTest.run("test", test.toString());
      assertThat(result.out().lines())
          .containsExactly(
              "ok   " + test + " > a token, then the clusters",
              "ok   " + test + " > nothing in the inventory",
              "2 passed, 0 failed");
      assertThat(result.exit()).isZero();
    }

    @Test
    void theRecordedQueryOfTheSampleMatchesInAnotherOrder(@TempDir Path dir) throws Exception {
      Path test =
          sample(
              dir,
              "url: https://registry.example.com/service/token?service=harbor-registry&scope=repository%3Amyorg%2Ffront%3Apull",
              "url: https://registry.example.com/service/token?scope=repository%3Amyorg%2Ffront%3Apull&service=harbor-registry");
      assertThat(CliTest.run("test", test.toString()).out()).endsWith("5 passed, 0 failed\n");
    }

    @Test
    void aFormFieldThatDiffersIsShown(@TempDir Path dir) throws Exception {
      Path test = oauth(dir, "client_id: appset-mapper\n", "client_id: appset-mapper-old\n");
      List<String> lines = CliTest.run("test", test.toString()).out().lines().toList();
      assertThat(lines.subList(0, 6))
          .containsExactly(
              "FAIL " + test + " > a token, then the clusters",
              "    unexpected call: POST https://login.example.com/token",
              "      closest recorded exchange: POST https://login.example.com/token",
              "        body: expected the form audience=https://inventory.example.com"
                  + "&client_id=appset-mapper-old&client_secret=demo-client-secret"
                  + "&grant_type=client_credentials&scope=inventory.read inventory.list",
              "              got      grant_type=client_credentials&scope=inventory.read+inventory.list"
                  + "&audience=https%3A%2F%2Finventory.example.com&client_id=appset-mapper"
                  + "&client_secret=demo-client-secret",
              "    expected call not made: POST https://login.example.com/token");
    }

    @Test
    void aQueryParameterThatDiffersIsNamed(@TempDir Path dir) throws Exception {
      Path test = oauth(dir, "clusters?tier=gold&env=prod", "clusters?tier=silver&env=prod");
      List<String> lines = CliTest.run("test", test.toString()).out().lines().toList();
      assertThat(lines.subList(0, 5))
          .containsExactly(
              "FAIL " + test + " > a token, then the clusters",
              "    unexpected call: GET https://inventory.example.com/clusters?env=prod&region=eu&tier=gold",
              "      closest recorded exchange: GET https://inventory.example.com/clusters?tier=silver&env=prod&region=eu",
              "        query: missing tier=silver",
              "        query: not recorded tier=gold");
    }
  }

  @Nested
  class Selecting {
    @Test
    void caseRunsOnlyTheCasesNamed(@TempDir Path dir) throws Exception {
      Path test = oauth(dir, "", "");
      CliTest.Result result =
          CliTest.run("test", "--case", "nothing in the inventory", test.toString());
      assertThat(result.out().lines())
          .containsExactly("ok   " + test + " > nothing in the inventory", "1 passed, 0 failed");
      assertThat(result.exit()).isZero();
    }

    @Test
    void aCaseNameFoundNowhereFailsNamingTheFiles(@TempDir Path dir) throws Exception {
      Path test = oauth(dir, "", "");
      CliTest.Result result = CliTest.run("test", "--case", "nothing", dir.toString());
      assertThat(result.out().lines())
          .containsExactly("FAIL no test case named 'nothing' in " + test, "0 passed, 1 failed");
      assertThat(result.exit()).isEqualTo(1);
    }
  }

  @Nested
  class Schema {
    @Test
    void aMisspelledKeyIsNamedWithItsLine(@TempDir Path dir) throws Exception {
      Path test =
          oauth(
              dir,
              "headers: {Authorization: Bearer demo-access-token}",
              "header: {Authorization: Bearer demo-access-token}");
      CliTest.Result result = CliTest.run("test", test.toString());
      assertThat(result.out().lines().toList())
          .startsWith(
              "FAIL "
                  + test
                  + ": does not match the test-file schema (schema/mapping-test-v1.schema.json):",
              "      "
                  + test
                  + ":18:11 cases[0].exchanges[1].request.header: schema: unknown key 'header'");
      assertThat(result.exit()).isEqualTo(1);
    }
  }
}
