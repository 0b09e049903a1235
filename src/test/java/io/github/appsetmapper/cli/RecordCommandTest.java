package io.github.appsetmapper.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.replay.ExchangeFile;
import io.github.appsetmapper.testing.StubUpstream;
import io.github.appsetmapper.testing.StubUpstream.Reply;
import io.github.appsetmapper.testing.TestPki;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code appset-mapper record} against real upstream stubs on port 0: the run becomes a test file
 * that passes, with no secret, no token and no signed request left in it.
 */
class RecordCommandTest {
  private static final String CLIENT_SECRET = "live-client-secret-9f8e7d6c";
  private static final String ACCESS_TOKEN = "live-access-token-5a4b3c2d1e";
  private static final String REFRESH_TOKEN = "live-refresh-token-0a1b2c3d";
  private static final String API_KEY = "live-api-key-7777aaaa";

  /** An inventory behind OAuth2 (a form token request) that also wants an API key in the query. */
  private static StubUpstream inventory() {
    StubUpstream stub = new StubUpstream();
    stub.on(
        "POST /token",
        r ->
            r.bodyText().contains("client_secret=" + CLIENT_SECRET)
                ? Reply.json(
                    200,
                    "{\"access_token\":\""
                        + ACCESS_TOKEN
                        + "\",\"refresh_token\":\""
                        + REFRESH_TOKEN
                        + "\",\"token_type\":\"Bearer\",\"expires_in\":300}")
                : Reply.json(401, "{\"error\":\"invalid_client\"}"));
    stub.on(
        "GET /clusters",
        r ->
            ("Bearer " + ACCESS_TOKEN).equals(r.header("Authorization"))
                    && r.rawUri().contains("key=" + API_KEY)
                ? Reply.json(
                        200,
                        "{\"items\":[{\"name\":\"prod-eu-1\",\"region\":\"eu\"},"
                            + "{\"name\":\"prod-us-1\",\"region\":\"us\"}]}")
                    .withHeader("X-Request-Id", "abc")
                    .withHeader("Set-Cookie", "session=" + ACCESS_TOKEN)
                : Reply.json(401, "{\"message\":\"no\"}"));
    return stub;
  }

  private static Path mapping(Path dir, String api) throws Exception {
    Files.writeString(dir.resolve("client-secret"), CLIENT_SECRET + "\n");
    Files.writeString(dir.resolve("api-key"), API_KEY);
    Path mapping = dir.resolve("inventory.yaml");
    Files.writeString(
        mapping,
        """
        name: inventory
        input:
          region: {required: true}
        vars:
          api: {default: "%s"}
        secrets:
          client: {file: %s}
          key: {file: %s}
        list:
          request:
            url: "#{vars.api}/clusters"
            query: {key: "#{secret.key}", region: "#{input.region}"}
            auth:
              oauth2:
                tokenUrl: "#{vars.api}/token"
                clientId: appset-mapper
                clientSecret: {secret: client}
                clientAuth: body
          items: "$.items[*]"
        filter: item.region == input.region
        parameters:
          name: item.name
        """
            .formatted(api, dir.resolve("client-secret"), dir.resolve("api-key")));
    return mapping;
  }

  private static List<String> everyFileUnder(Path dir) throws Exception {
    try (Stream<Path> walk = Files.walk(dir)) {
      return walk.filter(Files::isRegularFile)
          .filter(p -> !p.getFileName().toString().equals("client-secret"))
          .filter(p -> !p.getFileName().toString().equals("api-key"))
          .map(
              p -> {
                try {
                  return p + "\n" + Files.readString(p, StandardCharsets.ISO_8859_1);
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
              })
          .toList();
    }
  }

  @Test
  void aLiveRunBecomesAPassingCaseWithEverySecretReplaced(@TempDir Path dir) throws Exception {
    try (StubUpstream stub = inventory()) {
      Path mapping = mapping(dir, stub.url());
      CliTest.Result result =
          CliTest.run(
              "record", mapping.toString(), "--case", "the eu clusters", "--input", "region=eu");
      Path test = dir.resolve("inventory.test.yaml");
      assertThat(result.exit()).as(result.err()).isZero();
      assertThat(result.out())
          .isEqualTo(
              "recorded case 'the eu clusters' into "
                  + test
                  + ": 2 upstream calls; the mapping answered 1 parameter map\n");
      assertThat(stub.calls()).isEqualTo(2);

      String written = Files.readString(test);
      for (String secret : List.of(CLIENT_SECRET, ACCESS_TOKEN, REFRESH_TOKEN, API_KEY)) {
        assertThat(everyFileUnder(dir)).noneMatch(text -> text.contains(secret));
      }
      assertThat(written)
          .contains("client: recorded-client")
          .contains("key: recorded-key")
          .contains("client_secret: recorded-client")
          .contains("\"access_token\" : \"recorded-token-1\"")
          .contains("\"refresh_token\" : \"recorded-token-2\"")
          .contains("Authorization: Bearer recorded-token-1")
          .contains("key=recorded-key")
          .doesNotContain("Set-Cookie")
          .contains("X-Request-Id: abc");
      assertThat(ExchangeFile.read(test).cases()).hasSize(1);

      CliTest.Result replay = CliTest.run("test", test.toString());
      assertThat(replay.out())
          .isEqualTo("ok   " + test + " > the eu clusters\n1 passed, 0 failed\n");
    }
  }

  @Test
  void aSecondCaseIsAppendedAndBothPass(@TempDir Path dir) throws Exception {
    try (StubUpstream stub = inventory()) {
      Path mapping = mapping(dir, stub.url());
      assertThat(
              CliTest.run("record", mapping.toString(), "--case", "eu", "--input", "region=eu")
                  .exit())
          .isZero();
      Path test = dir.resolve("inventory.test.yaml");
      String first = Files.readString(test);
      CliTest.Result second =
          CliTest.run(
              "record", mapping.toString(), "--case", "nothing in asia", "--input", "region=ap");
      assertThat(second.exit()).as(second.err()).isZero();
      assertThat(Files.readString(test)).startsWith(first);
      assertThat(CliTest.run("test", test.toString()).out())
          .isEqualTo(
              "ok   " + test + " > eu\nok   " + test + " > nothing in asia\n2 passed, 0 failed\n");

      CliTest.Result again =
          CliTest.run("record", mapping.toString(), "--case", "eu", "--input", "region=eu");
      assertThat(again.exit()).isEqualTo(2);
      assertThat(again.err()).isEqualTo("error: " + test + " already has a case named 'eu'\n");
      assertThat(stub.calls()).as("no call made for a refused case").isEqualTo(4);
    }
  }

  @Test
  void outNamesAnotherTestFileOfTheMappingsFolderOnly(@TempDir Path dir) throws Exception {
    try (StubUpstream stub = inventory()) {
      Path mapping = mapping(dir, stub.url());
      Path live = dir.resolve("inventory-live.test.yaml");
      CliTest.Result result =
          CliTest.run(
              "record",
              mapping.toString(),
              "--case",
              "eu",
              "--input",
              "region=eu",
              "--out",
              live.toString());
      assertThat(result.exit()).as(result.err()).isZero();
      assertThat(CliTest.run("test", live.toString()).out()).endsWith("1 passed, 0 failed\n");

      Path elsewhere = dir.resolve("sub/inventory.test.yaml");
      CliTest.Result refused =
          CliTest.run("record", mapping.toString(), "--case", "eu", "--out", elsewhere.toString());
      assertThat(refused.exit()).isEqualTo(2);
      assertThat(refused.err())
          .isEqualTo(
              "error: --out must name a *.test.yaml in the mapping's folder ("
                  + dir
                  + "): a test file finds its mapping beside it\n");
      assertThat(stub.calls()).isEqualTo(2);
    }
  }

  @Test
  void anErrorAnswerIsRecordedAsTheExpectedError(@TempDir Path dir) throws Exception {
    try (StubUpstream stub = new StubUpstream()) {
      stub.on("POST /token", Reply.json(401, "{\"error\":\"invalid_client\"}"));
      Path mapping = mapping(dir, stub.url());
      CliTest.Result result =
          CliTest.run("record", mapping.toString(), "--case", "refused", "--input", "region=eu");
      assertThat(result.exit()).as(result.err()).isZero();
      assertThat(result.out())
          .endsWith(
              "the mapping answered 502: mapping 'inventory': list GET "
                  + stub.url()
                  + "/clusters?key=***&region=eu: oauth2 token request POST "
                  + stub.url()
                  + "/token: answered 401 (invalid_client)\n");
      Path test = dir.resolve("inventory.test.yaml");
      assertThat(everyFileUnder(dir)).noneMatch(text -> text.contains(CLIENT_SECRET));
      assertThat(CliTest.run("test", test.toString()).exit()).isZero();
    }
  }

  @Test
  void aCallWithoutAnswerWritesNothing(@TempDir Path dir) throws Exception {
    String gone;
    try (StubUpstream stub = new StubUpstream()) {
      gone = stub.url();
    }
    Path mapping = mapping(dir, gone);
    CliTest.Result result =
        CliTest.run("record", mapping.toString(), "--case", "down", "--input", "region=eu");
    assertThat(result.exit()).isEqualTo(1);
    assertThat(result.err())
        .startsWith(
            "error: a call got no answer, and a test file records answers only; nothing was"
                + " written:\n  POST "
                + gone
                + "/token: ");
    assertThat(dir.resolve("inventory.test.yaml")).doesNotExist();
  }

  @Test
  void aGithubAppRunKeepsNoKeyNoJwtAndNoToken(@TempDir Path dir) throws Exception {
    KeyPair key = TestPki.rsa();
    String pem = TestPki.pem(key.getPrivate());
    Files.writeString(dir.resolve("app.pem"), pem);
    try (StubUpstream github = new StubUpstream()) {
      github.on(
          "POST /app/installations/99/access_tokens",
          r ->
              Reply.json(
                  201,
                  "{\"token\":\"ghs_liveInstallationToken1234\",\"expires_at\":\""
                      + Instant.now().plusSeconds(3600)
                      + "\",\"permissions\":{\"contents\":\"read\"}}"));
      github.on(
          "GET /installation/repositories",
          Reply.json(
              200,
              "{\"total_count\":1,\"repositories\":[{\"full_name\":\"octocat/Hello-World\"}]}"));
      Path mapping = dir.resolve("gh.yaml");
      Files.writeString(
          mapping,
          """
          name: gh
          vars: {api: {default: "%s"}}
          secrets: {app: {file: %s}}
          defaults:
            auth:
              githubApp: {appId: 123456, installationId: "99", privateKey: {secret: app}, apiUrl: "#{vars.api}"}
          list:
            request: {url: "#{vars.api}/installation/repositories"}
            items: "$.repositories[*]"
          parameters: {repo: item.full_name}
          """
              .formatted(github.url(), dir.resolve("app.pem")));
      CliTest.Result result = CliTest.run("record", mapping.toString(), "--case", "repos");
      assertThat(result.exit()).as(result.err()).isZero();
      String jwt = github.received().get(0).header("Authorization").substring("Bearer ".length());
      Path test = dir.resolve("gh.test.yaml");
      String written = Files.readString(test);
      String keyBody = pem.lines().filter(l -> !l.startsWith("-----")).findFirst().orElseThrow();
      assertThat(written)
          .doesNotContain(jwt)
          .doesNotContain(jwt.substring(0, jwt.indexOf('.')) + "." + jwt.split("\\.")[1])
          .doesNotContain("ghs_liveInstallationToken1234")
          .doesNotContain(keyBody)
          .contains("-----BEGIN PRIVATE KEY-----")
          .contains("\"expires_at\" : \"2099-12-31T23:59:59Z\"");
      assertThat(result.err())
          .contains(
              "note: POST /app/installations/99/access_tokens: header Authorization holds a"
                  + " credential made for this one call");
      assertThat(CliTest.run("test", test.toString()).out()).endsWith("1 passed, 0 failed\n");
    }
  }

  @Test
  void aRegistryTokenFlowKeepsNeitherThePasswordNorTheToken(@TempDir Path dir) throws Exception {
    String password = "live-robot-password-31337";
    String token = "live-registry-pull-token-abcdef";
    Files.writeString(dir.resolve("registry-password"), password);
    try (StubUpstream registry = new StubUpstream()) {
      String basic =
          "Basic "
              + java.util.Base64.getEncoder()
                  .encodeToString(("robot$ci:" + password).getBytes(StandardCharsets.UTF_8));
      registry.on(
          "HEAD /v2/myorg/app/manifests/v1.2",
          r ->
              ("Bearer " + token).equals(r.header("Authorization"))
                  ? Reply.status(200).withHeader("Docker-Content-Digest", "sha256:0123abcd")
                  : Reply.json(401, "{\"errors\":[{\"code\":\"UNAUTHORIZED\"}]}")
                      .withHeader(
                          "Www-Authenticate",
                          "Bearer realm=\""
                              + registry.url()
                              + "/service/token\",service=\"harbor-registry\","
                              + "scope=\"repository:myorg/app:pull\""));
      registry.on(
          "GET /service/token",
          r ->
              basic.equals(r.header("Authorization"))
                  ? Reply.json(
                      200,
                      "{\"token\":\""
                          + token
                          + "\",\"access_token\":\""
                          + token
                          + "\",\"expires_in\":1800}")
                  : Reply.json(401, "{}"));
      Path mapping = dir.resolve("digest.yaml");
      Files.writeString(
          mapping,
          """
          name: digest
          vars: {registry: {default: "%s"}}
          secrets: {registry: {file: %s}}
          enrich:
            digest:
              request:
                method: HEAD
                url: "#{vars.registry}/v2/myorg/app/manifests/v1.2"
                auth: {registry: {username: "robot$ci", password: {secret: registry}}}
              value: "response.headers['Docker-Content-Digest']"
          parameters: {digest: digest}
          """
              .formatted(registry.url(), dir.resolve("registry-password")));
      CliTest.Result result = CliTest.run("record", mapping.toString(), "--case", "v1.2");
      assertThat(result.exit()).as(result.err()).isZero();
      assertThat(result.out()).contains(": 3 upstream calls; the mapping answered 1 parameter");
      String written = Files.readString(dir.resolve("digest.test.yaml"));
      assertThat(written)
          .doesNotContain(password)
          .doesNotContain(token)
          .doesNotContain(basic.substring("Basic ".length()))
          .contains(
              "Authorization: Basic "
                  + java.util.Base64.getEncoder()
                      .encodeToString(
                          "robot$ci:recorded-registry".getBytes(StandardCharsets.UTF_8)))
          .contains("Authorization: Bearer recorded-token-1");
      assertThat(CliTest.run("test", dir.resolve("digest.test.yaml").toString()).out())
          .endsWith("1 passed, 0 failed\n");
    }
  }
}
