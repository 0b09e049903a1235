package io.github.appsetmapper.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.PluginServer.Answer;
import io.github.appsetmapper.testing.StubUpstream;
import io.github.appsetmapper.testing.StubUpstream.Reply;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Explain shows the calls auth makes (a registry's challenge and token request, an OAuth2 token
 * request, a login), each beside the call it was for, with every credential as {@code ***}: the
 * Authorization header the auth layer adds to a call is shown, never its value.
 */
class ExplainAuthCallsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String PASSWORD = "dckr_pat_s3cret-4e1b";
  private static final String TOKEN = "registry-token-9c0d2f";
  private static final String CLIENT_SECRET = "client-s3cret-77aa";
  private static final String ACCESS = "access-token-31be";

  @TempDir Path dir;

  private JsonNode explain(PluginServer plugin, String mapping) throws Exception {
    Answer answer =
        plugin.send(
            "POST",
            "/mappings/" + mapping + "/api/v1/getparams.explain",
            "{}",
            "Bearer " + PluginServer.TOKEN,
            "application/json");
    assertThat(answer.status()).as(answer.body()).isEqualTo(200);
    assertThat(answer.body())
        .doesNotContain(PASSWORD)
        .doesNotContain(TOKEN)
        .doesNotContain(CLIENT_SECRET)
        .doesNotContain(ACCESS);
    return JSON.readTree(answer.body());
  }

  private static List<String> lines(JsonNode calls) {
    List<String> out = new ArrayList<>();
    for (JsonNode call : calls) {
      out.add(
          call.get("step").asText()
              + " | "
              + call.get("method").asText()
              + " "
              + call.get("url").asText().replaceAll("http://127\\.0\\.0\\.1:\\d+", "")
              + " | "
              + call.get("status").asText()
              + " | "
              + call.get("headers"));
    }
    return out;
  }

  @Test
  void theRegistryChallengeAndTokenRequestAreShownWithCredentialsHidden() throws Exception {
    try (StubUpstream registry = new StubUpstream()) {
      registry.on(
          "GET /token",
          r ->
              r.header("Authorization") == null
                  ? Reply.status(401)
                  : Reply.json(200, "{\"token\":\"" + TOKEN + "\",\"expires_in\":300}"));
      registry.on(
          "HEAD /v2/app/manifests/main",
          r ->
              ("Bearer " + TOKEN).equals(r.header("Authorization"))
                  ? Reply.status(200).withHeader("Docker-Content-Digest", "sha256:abc")
                  : Reply.status(401)
                      .withHeader(
                          "WWW-Authenticate",
                          "Bearer realm=\""
                              + registry.url()
                              + "/token\",service=\"reg\",scope=\"repository:app:pull\""));
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
              dir, Map.of("registry", registry.url()), Map.of("REG_PASSWORD", PASSWORD), yaml)) {
        JsonNode report = explain(plugin, "reg");
        // In the order they started: the call, then (within it) its challenge and token request.
        assertThat(lines(report.get("calls")))
            .containsExactly(
                "enrich.digest | HEAD /v2/app/manifests/main | 200 | {\"Authorization\":\"***\"}",
                "enrich.digest registry challenge | HEAD /v2/app/manifests/main | 401 | {}",
                "enrich.digest registry token request | GET"
                    + " /token?service=reg&scope=repository%3Aapp%3Apull | 200 |"
                    + " {\"Accept\":\"application/json\",\"Authorization\":\"***\"}");
        assertThat(report.get("answer").get("status").asInt()).isEqualTo(200);
      }
    }
  }

  @Test
  void anOAuth2TokenRequestIsShownBesideItsCall() throws Exception {
    try (StubUpstream api = new StubUpstream()) {
      api.on(
          "POST /oauth/token",
          Reply.json(200, "{\"access_token\":\"" + ACCESS + "\",\"expires_in\":300}"));
      api.on(
          "GET /items",
          r ->
              ("Bearer " + ACCESS).equals(r.header("Authorization"))
                  ? Reply.json(200, "[{\"id\":1}]")
                  : Reply.status(401));
      String yaml =
          """
          name: oa
          vars: {api: {default: "http://unset.invalid"}}
          secrets: {client: {env: CLIENT_SECRET}}
          list:
            request:
              url: "#{vars.api}/items"
              auth:
                oauth2:
                  tokenUrl: "#{vars.api}/oauth/token"
                  clientId: appset
                  clientSecret: {secret: client}
            items: "$[*]"
          parameters: {id: item.id}
          """;
      try (PluginServer plugin =
          PluginServer.withYaml(
              dir, Map.of("api", api.url()), Map.of("CLIENT_SECRET", CLIENT_SECRET), yaml)) {
        JsonNode report = explain(plugin, "oa");
        assertThat(lines(report.get("calls")))
            .containsExactly(
                "list | GET /items | 200 | {\"Authorization\":\"***\"}",
                "list oauth2 token request | POST /oauth/token | 200 |"
                    + " {\"Content-Type\":\"application/x-www-form-urlencoded\",\"Accept\":\"application/json\","
                    + "\"Authorization\":\"***\"}");
      }
    }
  }
}
