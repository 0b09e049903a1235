package io.github.appsetmapper.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.appsetmapper.testing.LogCapture;
import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.PluginServer.Answer;
import io.github.appsetmapper.testing.StubUpstream;
import io.github.appsetmapper.testing.StubUpstream.Reply;
import io.github.appsetmapper.testing.TestPki;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.Signature;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** oauth2, login and githubApp over real HTTP: fetched once, shared, refreshed once on a 401. */
class TokenAuthTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  private static String rows(int n) {
    StringBuilder out = new StringBuilder("[");
    for (int i = 1; i <= n; i++) {
      out.append(i > 1 ? "," : "").append("{\"id\":").append(i).append('}');
    }
    return out.append("]").toString();
  }

  /** An API that accepts only the current token, and counts what it saw. */
  private static Reply protectedAnswer(StubUpstream.Received r, String token, String body) {
    String header = r.header("Authorization");
    return ("Bearer " + token).equals(header)
        ? Reply.json(200, body)
        : Reply.json(401, "{\"message\":\"Bad credentials\"}");
  }

  @Nested
  class OAuth2 {
    private static final String YAML =
        """
        name: inv
        concurrency: 8
        vars: {up: {default: "http://unset.invalid"}}
        secrets: {client: {env: CLIENT_SECRET}}
        defaults:
          auth:
            oauth2:
              tokenUrl: "#{vars.up}/oauth/token"
              clientId: appset-mapper
              clientSecret: {secret: client}
              scopes: [inventory.read, apps]
              params: {audience: inventory}
        list:
          request: {url: "#{vars.up}/items"}
          items: "$[*]"
        enrich:
          detail:
            request: {url: "#{vars.up}/items/#{item.id}"}
            select: "$.name"
        parameters: {id: item.id, name: detail}
        """;

    @Test
    void oneTokenServesEveryCallAndEveryAnswerUntilItExpires() throws Exception {
      try (StubUpstream stub = new StubUpstream();
          LogCapture logs = new LogCapture()) {
        AtomicInteger issued = new AtomicInteger();
        stub.on(
            "POST /oauth/token",
            r -> {
              issued.incrementAndGet();
              return Reply.json(
                      200,
                      "{\"access_token\":\"tok-abc-123\",\"token_type\":\"Bearer\",\"expires_in\":3600}")
                  .delayed(100);
            });
        stub.on("GET /items", r -> protectedAnswer(r, "tok-abc-123", rows(8)));
        stub.otherwise(
            r ->
                protectedAnswer(
                    r, "tok-abc-123", "{\"name\":\"n" + r.rawUri().replaceAll("\\D", "") + "\"}"));
        try (PluginServer plugin =
            PluginServer.withYaml(
                dir, Map.of("up", stub.url()), Map.of("CLIENT_SECRET", "s3cr3t-client"), YAML)) {
          Answer first = plugin.getparams("inv", "{}");
          assertThat(first.status()).as(first.body()).isEqualTo(200);
          assertThat(first.body()).contains("{\"id\":\"8\",\"name\":\"n8\"}");
          assertThat(plugin.getparams("inv", "{}").status()).isEqualTo(200);
          assertThat(issued.get()).isEqualTo(1);
        }
        StubUpstream.Received token =
            stub.received().stream()
                .filter(r -> r.rawUri().equals("/oauth/token"))
                .findFirst()
                .get();
        assertThat(token.header("Content-Type")).isEqualTo("application/x-www-form-urlencoded");
        assertThat(token.header("Authorization"))
            .isEqualTo(
                "Basic "
                    + Base64.getEncoder()
                        .encodeToString(
                            "appset-mapper:s3cr3t-client".getBytes(StandardCharsets.UTF_8)));
        assertThat(token.bodyText())
            .isEqualTo(
                "grant_type=client_credentials&scope=inventory.read+apps&audience=inventory");
        assertThat(String.join("\n", logs.lines())).doesNotContain("tok-abc-123", "s3cr3t-client");
      }
    }

    @Test
    void concurrentCallsShareOneFetchAndOneRefreshAfterA401() {
      // Auth on the enrich step only: its 8 rows need the token at the same moment.
      String yaml =
          """
          name: inv
          concurrency: 8
          vars: {up: {default: "http://unset.invalid"}}
          secrets: {client: {env: CLIENT_SECRET}}
          list:
            request: {url: "#{vars.up}/items"}
            items: "$[*]"
          enrich:
            detail:
              request:
                url: "#{vars.up}/items/#{item.id}"
                auth:
                  oauth2:
                    tokenUrl: "#{vars.up}/oauth/token"
                    clientId: appset-mapper
                    clientSecret: {secret: client}
              select: "$.name"
          parameters: {id: item.id, name: detail}
          """;
      try (StubUpstream stub = new StubUpstream()) {
        AtomicInteger issued = new AtomicInteger();
        String[] current = {"tok-1"};
        stub.on(
            "POST /oauth/token",
            r -> {
              int n = issued.incrementAndGet();
              return Reply.json(200, "{\"access_token\":\"tok-" + n + "\",\"expires_in\":3600}")
                  .delayed(200);
            });
        stub.on("GET /items", Reply.json(200, rows(8)));
        stub.otherwise(r -> protectedAnswer(r, current[0], "{\"name\":\"x\"}").delayed(50));
        try (PluginServer plugin =
            PluginServer.withYaml(
                dir, Map.of("up", stub.url()), Map.of("CLIENT_SECRET", "s3cr3t-client"), yaml)) {
          assertThat(plugin.getparams("inv", "{}").status()).isEqualTo(200);
          assertThat(issued.get()).as("one fetch for 8 calls at once").isEqualTo(1);
          // The upstream revokes tok-1 (rotation): the 8 enrich calls get 401 together.
          current[0] = "tok-2";
          Answer answer = plugin.getparams("inv", "{}");
          assertThat(answer.status()).as(answer.body()).isEqualTo(200);
          assertThat(issued.get()).as("one refresh for 8 refused calls").isEqualTo(2);
          assertThat(stub.maxInFlight()).isGreaterThan(1);
        }
      }
    }

    @Test
    void aRotatedClientSecretFileGetsANewTokenWithoutRestart() throws Exception {
      Path secret = dir.resolve("client-secret");
      java.nio.file.Files.writeString(secret, "first-secret\n");
      String yaml = YAML.replace("{env: CLIENT_SECRET}", "{file: " + secret + "}");
      try (StubUpstream stub = new StubUpstream()) {
        stub.on(
            "POST /oauth/token",
            r ->
                Reply.json(
                    200,
                    "{\"access_token\":\"tok-for-"
                        + (r.header("Authorization").equals(basic("appset-mapper:first-secret"))
                            ? "first"
                            : "second")
                        + "\",\"expires_in\":3600}"));
        stub.on("GET /items", Reply.json(200, "[]"));
        try (PluginServer plugin =
            PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of(), yaml)) {
          assertThat(plugin.getparams("inv", "{}").status()).isEqualTo(200);
          java.nio.file.Files.writeString(secret, "second-secret-longer\n");
          java.nio.file.Files.setLastModifiedTime(
              secret, java.nio.file.attribute.FileTime.from(Instant.now().plusSeconds(5)));
          assertThat(plugin.getparams("inv", "{}").status()).isEqualTo(200);
        }
        assertThat(stub.received().stream().map(r -> r.header("Authorization")).toList())
            .containsExactly(
                basic("appset-mapper:first-secret"),
                "Bearer tok-for-first",
                basic("appset-mapper:second-secret-longer"),
                "Bearer tok-for-second");
      }
    }

    private static String basic(String pair) {
      return "Basic " + Base64.getEncoder().encodeToString(pair.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aTokenEndpointThatRefusesIsA502NamingItWithoutTheSecret() {
      try (StubUpstream stub = new StubUpstream()) {
        stub.on(
            "POST /oauth/token",
            Reply.json(
                401,
                "{\"error\":\"invalid_client\",\"error_description\":\"client s3cr3t-client unknown\"}"));
        try (PluginServer plugin =
            PluginServer.withYaml(
                dir, Map.of("up", stub.url()), Map.of("CLIENT_SECRET", "s3cr3t-client"), YAML)) {
          Answer answer = plugin.getparams("inv", "{}");
          assertThat(answer.status()).isEqualTo(502);
          assertThat(answer.body())
              .isEqualTo(
                  "{\"error\":\"mapping 'inv': list GET "
                      + stub.url()
                      + "/items: oauth2 token request POST "
                      + stub.url()
                      + "/oauth/token: answered 401 (invalid_client)\"}");
        }
      }
    }

    @Test
    void aNullOrNonTextAccessTokenIsNoToken() {
      // An outside tester saw {"access_token":null} sent on as "Authorization: Bearer null".
      for (String answer :
          new String[] {
            "{\"access_token\":null}",
            "{\"access_token\":{\"value\":\"t\"}}",
            "{\"access_token\":true}",
            "{\"access_token\":12345678901234}",
            "{\"access_token\":\"abc\\r\\nX-Evil: 1\"}"
          }) {
        try (StubUpstream stub = new StubUpstream()) {
          stub.on("POST /oauth/token", Reply.json(200, answer));
          stub.on("GET /items", Reply.json(200, "[]"));
          try (PluginServer plugin =
              PluginServer.withYaml(
                  dir, Map.of("up", stub.url()), Map.of("CLIENT_SECRET", "s3cr3t-client"), YAML)) {
            Answer refused = plugin.getparams("inv", "{}");
            assertThat(refused.status()).as(answer).isEqualTo(502);
            assertThat(refused.body()).contains("/oauth/token: the answer has no access_token");
            assertThat(stub.received()).as(answer).noneMatch(r -> r.rawUri().startsWith("/items"));
          }
        }
      }
    }

    @Test
    void aTokenAnswerTheCodecRefusesIsA502SayingWhy() {
      try (StubUpstream stub = new StubUpstream()) {
        stub.on(
            "POST /oauth/token",
            r ->
                Reply.json(
                    200,
                    r.bodyText().contains("audience")
                        ? "{\"access_token\":\"tok-1\",\"expires_in\":1e999999999}"
                        : "{}"));
        try (PluginServer plugin =
            PluginServer.withYaml(
                dir, Map.of("up", stub.url()), Map.of("CLIENT_SECRET", "s3cr3t-client"), YAML)) {
          Answer answer = plugin.getparams("inv", "{}");
          assertThat(answer.status()).isEqualTo(502);
          assertThat(answer.body())
              .isEqualTo(
                  "{\"error\":\"mapping 'inv': list GET "
                      + stub.url()
                      + "/items: oauth2 token request POST "
                      + stub.url()
                      + "/oauth/token: the answer has a number beyond the bounds (at most 1000"
                      + " digits and an exponent within \u00b11000) (line 1, column 38)\"}");
        }
        stub.on(
            "POST /oauth/token",
            Reply.json(200, "{\"access_token\":\"tok-1\",\"access_token\":\"tok-2\"}"));
        try (PluginServer plugin =
            PluginServer.withYaml(
                dir, Map.of("up", stub.url()), Map.of("CLIENT_SECRET", "s3cr3t-client"), YAML)) {
          assertThat(plugin.getparams("inv", "{}").body())
              .contains("/oauth/token: the answer has the key 'access_token' twice in one object");
        }
      }
    }

    @Test
    void clientAuthBodySendsTheCredentialsInTheForm() {
      try (StubUpstream stub = new StubUpstream()) {
        stub.on("POST /oauth/token", Reply.json(200, "{\"access_token\":\"tok-b\"}"));
        stub.on("GET /items", r -> protectedAnswer(r, "tok-b", "[]"));
        String yaml =
            YAML.replace("params: {audience: inventory}", "clientAuth: body")
                .replace("scopes: [inventory.read, apps]", "scopes: []");
        try (PluginServer plugin =
            PluginServer.withYaml(
                dir, Map.of("up", stub.url()), Map.of("CLIENT_SECRET", "a b&c"), yaml)) {
          assertThat(plugin.getparams("inv", "{}").body())
              .isEqualTo("{\"output\":{\"parameters\":[]}}");
        }
        StubUpstream.Received token = stub.received().get(0);
        assertThat(token.header("Authorization")).isNull();
        assertThat(token.bodyText())
            .isEqualTo(
                "grant_type=client_credentials&client_id=appset-mapper&client_secret=a+b%26c");
      }
    }
  }

  @Nested
  class Login {
    @Test
    void theTokenComesFromAJsonPathAndGoesIntoTheNamedHeader() {
      String yaml =
          """
          name: cmdb
          vars: {up: {default: "http://unset.invalid"}}
          secrets: {pw: {env: CMDB_PASSWORD}}
          list:
            request:
              url: "#{vars.up}/api/hosts"
              auth:
                login:
                  request:
                    method: POST
                    url: "#{vars.up}/api/login"
                    body: {user: appset, password: "#{secret.pw}"}
                  token: "$.session.id"
                  expiresIn: "$.session.ttl"
                  header: X-Session
                  scheme: ""
            items: "$.hosts[*]"
          parameters: {host: item}
          """;
      try (StubUpstream stub = new StubUpstream()) {
        stub.on(
            "POST /api/login",
            Reply.json(200, "{\"session\":{\"id\":\"sess-77\",\"ttl\":\"600\"}}"));
        stub.on(
            "GET /api/hosts",
            r ->
                "sess-77".equals(r.header("X-Session"))
                    ? Reply.json(200, "{\"hosts\":[\"a\",\"b\"]}")
                    : Reply.json(401, "{}"));
        try (PluginServer plugin =
            PluginServer.withYaml(
                dir, Map.of("up", stub.url()), Map.of("CMDB_PASSWORD", "hunter2-long"), yaml)) {
          Answer answer = plugin.getparams("cmdb", "{}");
          assertThat(answer.body())
              .isEqualTo("{\"output\":{\"parameters\":[{\"host\":\"a\"},{\"host\":\"b\"}]}}");
          assertThat(plugin.getparams("cmdb", "{}").status()).isEqualTo(200);
        }
        assertThat(stub.received().stream().filter(r -> r.rawUri().equals("/api/login")))
            .singleElement()
            .satisfies(
                r ->
                    assertThat(r.bodyText())
                        .isEqualTo("{\"user\":\"appset\",\"password\":\"hunter2-long\"}"));
      }
    }

    @Test
    void anAnswerWithoutTheTokenIsA502() {
      String yaml =
          """
          name: cmdb
          vars: {up: {default: "http://unset.invalid"}}
          list:
            request:
              url: "#{vars.up}/api/hosts"
              auth:
                login:
                  request: {method: POST, url: "#{vars.up}/api/login"}
                  token: "$.token"
            items: "$[*]"
          parameters: {host: item}
          """;
      try (StubUpstream stub = new StubUpstream()) {
        stub.on("POST /api/login", Reply.json(200, "{\"status\":\"ok\"}"));
        try (PluginServer plugin =
            PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of(), yaml)) {
          assertThat(plugin.getparams("cmdb", "{}").body())
              .isEqualTo(
                  "{\"error\":\"mapping 'cmdb': list GET "
                      + stub.url()
                      + "/api/hosts: login request POST "
                      + stub.url()
                      + "/api/login: token '$['token']' found no token\"}");
        }
      }
    }
  }

  @Nested
  class GithubApp {
    private static final KeyPair KEY = TestPki.rsa();

    private String yaml() {
      return """
          name: gh
          vars: {api: {default: "http://unset.invalid"}}
          secrets: {app: {env: APP_KEY}}
          defaults:
            auth:
              githubApp: {appId: 123456, installationId: "99", privateKey: {secret: app}, apiUrl: "#{vars.api}"}
          list:
            request: {url: "#{vars.api}/installation/repositories"}
            items: "$.repositories[*]"
          parameters: {repo: item.full_name}
          """;
    }

    /** GitHub's side: checks the JWT's signature and claims, issues installation tokens. */
    private StubUpstream github(AtomicInteger issued, String[] jwts) {
      StubUpstream stub = new StubUpstream();
      stub.on(
          "POST /app/installations/99/access_tokens",
          r -> {
            String jwt = r.header("Authorization").substring("Bearer ".length());
            jwts[0] = jwt;
            if (!verifies(jwt)) {
              return Reply.json(401, "{\"message\":\"A JSON web token could not be decoded\"}");
            }
            int n = issued.incrementAndGet();
            return Reply.json(
                201,
                "{\"token\":\"ghs_installation"
                    + n
                    + "\",\"expires_at\":\""
                    + Instant.now().plusSeconds(3600)
                    + "\",\"permissions\":{\"contents\":\"read\"},\"repository_selection\":\"selected\"}");
          });
      stub.on(
          "GET /installation/repositories",
          r ->
              r.header("Authorization") != null
                      && r.header("Authorization").startsWith("Bearer ghs_")
                  ? Reply.json(
                      200,
                      "{\"total_count\":1,\"repositories\":[{\"full_name\":\"octocat/Hello-World\"}]}")
                  : Reply.json(401, "{\"message\":\"Bad credentials\"}"));
      return stub;
    }

    private boolean verifies(String jwt) {
      try {
        String[] parts = jwt.split("\\.");
        Signature signature = Signature.getInstance("SHA256withRSA");
        signature.initVerify(KEY.getPublic());
        signature.update((parts[0] + "." + parts[1]).getBytes(StandardCharsets.US_ASCII));
        if (!signature.verify(Base64.getUrlDecoder().decode(parts[2]))) {
          return false;
        }
        JsonNode header = JSON.readTree(Base64.getUrlDecoder().decode(parts[0]));
        JsonNode claims = JSON.readTree(Base64.getUrlDecoder().decode(parts[1]));
        long now = Instant.now().getEpochSecond();
        return header.get("alg").asText().equals("RS256")
            && claims.get("iss").asText().equals("123456")
            && claims.get("iat").asLong() <= now
            && claims.get("exp").asLong() > now
            && claims.get("exp").asLong() - claims.get("iat").asLong() <= 600;
      } catch (Exception e) {
        return false;
      }
    }

    private void run(String pem) {
      AtomicInteger issued = new AtomicInteger();
      String[] jwt = new String[1];
      try (StubUpstream stub = github(issued, jwt);
          LogCapture logs = new LogCapture();
          PluginServer plugin =
              PluginServer.withYaml(
                  dir, Map.of("api", stub.url()), Map.of("APP_KEY", pem), yaml())) {
        Answer answer = plugin.getparams("gh", "{}");
        assertThat(answer.body())
            .isEqualTo("{\"output\":{\"parameters\":[{\"repo\":\"octocat/Hello-World\"}]}}");
        assertThat(plugin.getparams("gh", "{}").status()).isEqualTo(200);
        assertThat(issued.get()).isEqualTo(1);
        StubUpstream.Received exchange = stub.received().get(0);
        assertThat(exchange.header("Accept")).isEqualTo("application/vnd.github+json");
        assertThat(exchange.header("X-GitHub-Api-Version")).isEqualTo("2022-11-28");
        assertThat(plugin.redactor.redact(jwt[0] + " ghs_installation1")).isEqualTo("*** ***");
        assertThat(String.join("\n", logs.lines())).doesNotContain("ghs_installation1");
      }
    }

    @Test
    void aPkcs1KeyAsGithubHandsItOut() {
      run(TestPki.traditional(KEY.getPrivate()));
    }

    @Test
    void aPkcs8Key() {
      run(TestPki.pkcs8(KEY.getPrivate()));
    }

    @Test
    void anUnreadableKeyIsOurFaultA500() {
      try (PluginServer plugin =
          PluginServer.withYaml(
              dir, Map.of("api", "http://127.0.0.1:1"), Map.of("APP_KEY", "not a key"), yaml())) {
        assertThat(plugin.getparams("gh", "{}").body())
            .isEqualTo(
                "{\"error\":\"mapping 'gh': list GET http://127.0.0.1:1/installation/repositories:"
                    + " githubApp: the private key is not a readable PEM RSA key\"}");
      }
    }
  }
}
