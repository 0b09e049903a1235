package io.github.appsetmapper.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.PluginServer.Answer;
import io.github.appsetmapper.testing.StubUpstream;
import io.github.appsetmapper.testing.StubUpstream.Reply;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The registry challenge flow against a registry and a token server on loopback that answer exactly
 * what Docker Hub documents: the 401 with its {@code Www-Authenticate} header (a comma inside the
 * quoted scope) and body, and the token server's JSON.
 */
class RegistryAuthTest {
  private static final Path FIXTURES = Path.of("src/test/resources/fixtures/oci-distribution");
  private static final String DIGEST =
      "sha256:6c3c624b58dbbcd3c0dd82b4c53f04194d1247c6eebdaab7c610cf7d66709b3b";
  private static final String TOKEN_QUERY =
      "/token?service=registry.docker.io&scope=repository%3Asamalba%2Fmy-app%3Apull%2Cpush";

  @TempDir Path dir;
  private StubUpstream registry;
  private StubUpstream auth;
  private String realm;

  private static String fixture(String name) {
    try {
      return Files.readString(FIXTURES.resolve(name), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The documented 401, its realm pointed at our token server. */
  private Reply challenge() {
    Map<String, String> headers = new LinkedHashMap<>();
    for (String line : fixture("registry-401-unauthorized.headers.txt").split("\n")) {
      int colon = line.indexOf(':');
      headers.put(
          line.substring(0, colon),
          line.substring(colon + 1).strip().replace("https://auth.docker.io/token", realm));
    }
    return new Reply(
        401,
        headers,
        fixture("registry-401-unauthorized.json").getBytes(StandardCharsets.UTF_8),
        0,
        null);
  }

  private String token() {
    return fixture("token-get.json").replaceAll("(?s).*\"token\": \"([^\"]+)\".*", "$1");
  }

  @BeforeEach
  void start() {
    auth = new StubUpstream();
    registry = new StubUpstream();
    realm = auth.url() + "/token";
    auth.on("GET /token", Reply.json(200, fixture("token-get.json")));
    registry.on(
        "HEAD /v2/samalba/my-app/manifests/latest",
        r ->
            ("Bearer " + token()).equals(r.header("Authorization"))
                ? Reply.status(200).withHeader("Docker-Content-Digest", DIGEST)
                : challenge());
  }

  @AfterEach
  void stop() {
    auth.close();
    registry.close();
  }

  private static String mapping(String auth, String allowedHosts) {
    return """
        name: hub
        vars: {registry: {default: "http://unset.invalid"}}
        secrets: {hub: {env: HUB_TOKEN}}
        allowedHosts: %s
        enrich:
          digest:
            request:
              method: HEAD
              url: "#{vars.registry}/v2/samalba/my-app/manifests/latest"
              auth: {registry: %s}
            value: "response.headers['Docker-Content-Digest']"
        parameters: {digest: digest}
        """
        .formatted(allowedHosts, auth);
  }

  private PluginServer plugin(String yaml) {
    return PluginServer.withYaml(
        dir, Map.of("registry", registry.url()), Map.of("HUB_TOKEN", "dckr_pat_s3cret"), yaml);
  }

  @Test
  void anonymousPullsAnswerTheChallengeAndReuseTheTokenPerScope() {
    try (PluginServer plugin = plugin(mapping("{}", "[]"))) {
      Answer answer = plugin.getparams("hub", "{}");
      assertThat(answer.body())
          .isEqualTo("{\"output\":{\"parameters\":[{\"digest\":\"" + DIGEST + "\"}]}}");
      assertThat(plugin.getparams("hub", "{}").status()).isEqualTo(200);
      assertThat(plugin.redactor.redact("token " + token())).isEqualTo("token ***");
    }
    assertThat(auth.received())
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.rawUri()).isEqualTo(TOKEN_QUERY);
              assertThat(r.header("Authorization")).isNull();
            });
    // 401, then with the token; the second answer sends the cached token at once.
    assertThat(registry.received().stream().map(r -> r.header("Authorization")).toList())
        .containsExactly(null, "Bearer " + token(), "Bearer " + token());
  }

  @Test
  void credentialsGoToARealmOnTheRegistrysHostAsBasic() {
    try (PluginServer plugin =
        plugin(mapping("{username: samalba, password: {secret: hub}}", "[]"))) {
      assertThat(plugin.getparams("hub", "{}").status()).isEqualTo(200);
    }
    assertThat(auth.received().get(0).header("Authorization"))
        .isEqualTo(
            "Basic "
                + Base64.getEncoder()
                    .encodeToString("samalba:dckr_pat_s3cret".getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void credentialsNeverGoToARealmOnAnotherHostUnlessAllowedHostsListsIt() {
    realm = realm.replace("127.0.0.1", "localhost");
    String auth = "{username: samalba, password: {secret: hub}}";
    try (PluginServer plugin = plugin(mapping(auth, "[]"))) {
      assertThat(plugin.getparams("hub", "{}").body())
          .isEqualTo(
              "{\"error\":\"mapping 'hub': enrich.digest HEAD "
                  + registry.url()
                  + "/v2/samalba/my-app/manifests/latest: registry auth: the realm host 'localhost'"
                  + " is not the registry's host; list it in allowedHosts to send credentials"
                  + " there\"}");
    }
    assertThat(this.auth.received()).isEmpty();
    try (PluginServer plugin = plugin(mapping(auth, "[127.0.0.1, localhost]"))) {
      assertThat(plugin.getparams("hub", "{}").status()).isEqualTo(200);
    }
    try (PluginServer plugin = plugin(mapping(auth, "[127.0.0.1]"))) {
      assertThat(plugin.getparams("hub", "{}").body())
          .contains("registry auth: the realm host 'localhost' is not in allowedHosts");
    }
  }

  @Test
  void credentialsNeverGoOverPlainHttpOffLoopback() {
    realm = "http://auth.example.test/token";
    try (PluginServer plugin =
        plugin(mapping("{username: samalba, password: {secret: hub}}", "[]"))) {
      assertThat(plugin.getparams("hub", "{}").body())
          .isEqualTo(
              "{\"error\":\"mapping 'hub': enrich.digest HEAD "
                  + registry.url()
                  + "/v2/samalba/my-app/manifests/latest: registry auth: refusing to send"
                  + " credentials to realm http://auth.example.test/token over plain http\"}");
    }
  }

  @Test
  void aBasicChallengeGetsTheCredentials() {
    registry.on(
        "HEAD /v2/samalba/my-app/manifests/latest",
        r ->
            r.header("Authorization") != null && r.header("Authorization").startsWith("Basic ")
                ? Reply.status(200).withHeader("Docker-Content-Digest", DIGEST)
                : Reply.status(401)
                    .withHeader("WWW-Authenticate", "Basic realm=\"Registry Realm\""));
    try (PluginServer plugin =
        plugin(mapping("{username: samalba, password: {secret: hub}}", "[]"))) {
      assertThat(plugin.getparams("hub", "{}").status()).isEqualTo(200);
      assertThat(plugin.getparams("hub", "{}").status()).isEqualTo(200);
    }
    assertThat(registry.received().stream().map(r -> r.header("Authorization") != null).toList())
        .containsExactly(false, true, true);
  }

  @Test
  void aTokenServerThatRefusesIsA502NamingIt() {
    auth.on(
        "GET /token",
        Reply.json(
            401, "{\"errors\":[{\"code\":\"UNAUTHORIZED\",\"message\":\"bad credentials\"}]}"));
    try (PluginServer plugin =
        plugin(mapping("{username: samalba, password: {secret: hub}}", "[]"))) {
      assertThat(plugin.getparams("hub", "{}").body())
          .isEqualTo(
              "{\"error\":\"mapping 'hub': enrich.digest HEAD "
                  + registry.url()
                  + "/v2/samalba/my-app/manifests/latest: registry token request GET "
                  + realm.replace("/token", TOKEN_QUERY)
                  + ": answered 401 (UNAUTHORIZED)\"}");
    }
  }

  @Test
  void aRegistryWithoutAuthIsCalledOnce() {
    registry.on(
        "HEAD /v2/samalba/my-app/manifests/latest",
        Reply.status(200).withHeader("Docker-Content-Digest", DIGEST));
    try (PluginServer plugin = plugin(mapping("{}", "[]"))) {
      assertThat(plugin.getparams("hub", "{}").status()).isEqualTo(200);
    }
    assertThat(registry.calls()).isEqualTo(1);
    assertThat(List.copyOf(auth.received())).isEmpty();
  }
}
