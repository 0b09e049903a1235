package io.github.appsetmapper.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.testing.LogCapture;
import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.PluginServer.Answer;
import io.github.appsetmapper.testing.StubUpstream;
import io.github.appsetmapper.testing.StubUpstream.Reply;
import io.github.appsetmapper.testing.TestPki;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A token endpoint that answers something other than JSON (a sign-in page, a proxy's text error) is
 * named as what came back, in the engine's not-JSON line, never as "no token"; the client secret an
 * endpoint echoes is masked, and a body that may hold a credential is not quoted.
 */
class TokenNotJsonTest {
  private static final String SECRET = "s3cr3t-client-7f2a";

  @TempDir Path dir;

  private static final String OAUTH2 =
      """
      name: inv
      vars: {up: {default: "http://unset.invalid"}}
      secrets: {client: {env: CLIENT_SECRET}}
      defaults:
        auth:
          oauth2:
            tokenUrl: "#{vars.up}/oauth/token"
            clientId: appset-mapper
            clientSecret: {secret: client}
      list:
        request: {url: "#{vars.up}/items"}
        items: "$[*]"
      parameters: {id: item.id}
      """;

  private static Reply body(int status, String type, String text) {
    return new Reply(
        status, Map.of("Content-Type", type), text.getBytes(StandardCharsets.UTF_8), 0, null);
  }

  private Answer oauth2(Reply token) {
    try (StubUpstream stub = new StubUpstream();
        LogCapture logs = new LogCapture()) {
      stub.on("POST /oauth/token", token);
      stub.on("GET /items", Reply.json(200, "[]"));
      try (PluginServer plugin =
          PluginServer.withYaml(
              dir, Map.of("up", stub.url()), Map.of("CLIENT_SECRET", SECRET), OAUTH2)) {
        Answer answer = plugin.getparams("inv", "{}");
        assertThat(answer.status()).isEqualTo(502);
        assertThat(answer.body()).doesNotContain(SECRET);
        assertThat(String.join("\n", logs.lines())).doesNotContain(SECRET);
        assertThat(stub.received()).noneMatch(r -> r.rawUri().startsWith("/items"));
        return new Answer(
            answer.status(), answer.body().replace(stub.url(), "http://up"), answer.headers());
      }
    }
  }

  @Test
  void aSignInPageIsNamedAsWhatCameBack() {
    assertThat(oauth2(body(200, "text/html; charset=utf-8", "<!DOCTYPE html><html><title>Sign in")))
        .extracting(Answer::body)
        .isEqualTo(
            "{\"error\":\"mapping 'inv': list GET http://up/items: oauth2 token request POST"
                + " http://up/oauth/token: answered 200 with text/html (not JSON) (its body is"
                + " not quoted: a token endpoint's answer may hold a credential)\"}");
  }

  @Test
  void aClientSecretEchoedInAnErrorPageIsMasked() {
    String page =
        "<html><body>Bad request: client_secret=" + SECRET + " is not valid</body></html>";
    assertThat(oauth2(body(200, "text/html", page)).body())
        .contains("answered 200 with text/html (not JSON) (its body is not quoted")
        .doesNotContain("client_secret");
  }

  /**
   * A token endpoint that answers with the token itself, bare (a custom token service, an identity
   * endpoint): no redactor knows a token just issued, so no 2xx token answer is quoted (an outside
   * tester's HIGH: the token was in the 502, the log and explain).
   */
  @Test
  void aBareTokenAnswerIsNeverQuoted() {
    for (String[] answer :
        List.of(
            new String[] {"text/plain", "ghs_16C7e42F292c6912E7710c838347Ae178B4a"},
            new String[] {"application/json", "eyJhbGciOiJSUzI1NiJ9.eyJpc3MiOiJ4In0.c2lnbmF0dXJl"},
            new String[] {
              "text/plain", "Your token is ghs_16C7e42F292c6912E7710c838347Ae178B4a"
            })) {
      String body = oauth2(body(200, answer[0], answer[1])).body();
      assertThat(body)
          .contains("(its body is not quoted: a token endpoint's answer may hold a credential)")
          .doesNotContain("ghs_16C7")
          .doesNotContain("eyJhbGci");
    }
  }

  @Test
  void aFormEncodedTokenAnswerIsNotQuoted() {
    assertThat(
            oauth2(
                    body(
                        200,
                        "application/x-www-form-urlencoded",
                        "access_token=gho_fresh-token-1234&token_type=bearer"))
                .body())
        .endsWith(
            "oauth2 token request POST http://up/oauth/token: answered 200 with"
                + " application/x-www-form-urlencoded (not JSON) (its body is not quoted: a"
                + " token endpoint's answer may hold a credential)\"}")
        .doesNotContain("gho_fresh");
  }

  @Test
  void aGithubAppTokenAnswerFromAProxyIsNamed() {
    String yaml =
        """
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
    try (StubUpstream stub = new StubUpstream()) {
      stub.on(
          "POST /app/installations/99/access_tokens",
          body(201, "text/plain", "upstream connect error or disconnect/reset before headers"));
      try (PluginServer plugin =
          PluginServer.withYaml(
              dir,
              Map.of("api", stub.url()),
              Map.of("APP_KEY", TestPki.pkcs8(TestPki.rsa().getPrivate())),
              yaml)) {
        Answer answer = plugin.getparams("gh", "{}");
        assertThat(answer.status()).isEqualTo(502);
        assertThat(answer.body())
            .endsWith(
                "/access_tokens: answered 201 with text/plain (not JSON) (its body is not quoted:"
                    + " a token endpoint's answer may hold a credential)\"}");
      }
    }
  }

  @Test
  void aRegistryTokenAnswerThatIsHtmlIsNamed() {
    try (StubUpstream registry = new StubUpstream()) {
      registry.on(
          "GET /token",
          r ->
              r.header("Authorization") == null
                  ? Reply.status(401)
                  : body(200, "text/html", "<html>Proxy login required</html>"));
      registry.on(
          "HEAD /v2/app/manifests/main",
          r ->
              Reply.status(401)
                  .withHeader(
                      "WWW-Authenticate",
                      "Bearer realm=\"" + registry.url() + "/token\",service=\"reg\""));
      String yaml =
          """
          name: reg
          vars: {registry: {default: "http://unset.invalid"}}
          secrets: {pass: {env: REG_PASSWORD}}
          enrich:
            digest:
              request:
                method: HEAD
                url: "#{vars.registry}/v2/app/manifests/main"
                auth: {registry: {username: robot, password: {secret: pass}}}
              value: "response.headers['Docker-Content-Digest']"
          parameters: {digest: digest}
          """;
      try (PluginServer plugin =
          PluginServer.withYaml(
              dir,
              Map.of("registry", registry.url()),
              Map.of("REG_PASSWORD", "reg-pass-91ab"),
              yaml)) {
        Answer answer = plugin.getparams("reg", "{}");
        assertThat(answer.status()).isEqualTo(502);
        assertThat(answer.body())
            .contains(
                "registry token request GET "
                    + registry.url()
                    + "/token?service=reg: answered 200 with text/html (not JSON) (its body is not"
                    + " quoted: a token endpoint's answer may hold a credential)");
      }
    }
  }
}
