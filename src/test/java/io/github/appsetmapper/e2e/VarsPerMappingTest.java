package io.github.appsetmapper.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.appsetmapper.compile.CompileOptions;
import io.github.appsetmapper.compile.MappingLoader;
import io.github.appsetmapper.reload.MappingReloader;
import io.github.appsetmapper.secret.Redactor;
import io.github.appsetmapper.server.MappingRegistry;
import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.ServerProcess;
import io.github.appsetmapper.testing.StubUpstream;
import io.github.appsetmapper.testing.StubUpstream.Reply;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The attack on one {@code --var} feeding every mapping: the catalogue's GitHub and GitLab mappings
 * both call their base URL {@code api}, so {@code --var api=<GitHub host>} would send the GitLab
 * token there. It is refused; qualified vars give each mapping its own host, and no token reaches
 * the other's.
 */
class VarsPerMappingTest {
  private static final Path GITHUB = Path.of("mappings/github-pulls.yaml");
  private static final Path GITLAB = Path.of("mappings/gitlab-merge-requests.yaml");
  private static final Path ACTIONS = Path.of("mappings/github-actions-success.yaml");
  private static final Map<String, String> TOKENS =
      Map.of("GITHUB_TOKEN", "ghp-token-of-github-1234", "GITLAB_TOKEN", "glpat-token-of-gitlab");

  @Test
  void oneBareApiForGithubAndGitlabIsRefused() {
    try (StubUpstream github = new StubUpstream()) {
      assertThatThrownBy(
              () ->
                  PluginServer.start(List.of(GITHUB, GITLAB), Map.of("api", github.url()), TOKENS))
          .hasMessageContaining(
              "--var api is ambiguous: the mappings that declare 'api' disagree on what it is"
                  + " (github-pulls reads $GITHUB_API_URL; gitlab-merge-requests reads"
                  + " $GITLAB_API_URL)");
      assertThat(github.calls()).isZero();
    }
  }

  @Test
  void qualifiedVarsKeepEachTokenOnItsOwnHost() {
    try (StubUpstream github = new StubUpstream().otherwise(r -> Reply.json(200, "[]"));
        StubUpstream gitlab = new StubUpstream().otherwise(r -> Reply.json(200, "[]"));
        PluginServer plugin =
            PluginServer.start(
                List.of(GITHUB, GITLAB),
                Map.of(
                    "github-pulls.api", github.url(),
                    "gitlab-merge-requests.api", gitlab.url()),
                TOKENS)) {
      String body =
          "{\"input\":{\"parameters\":{\"owner\":\"o\",\"repo\":\"r\",\"project\":\"p\"}}}";
      assertThat(plugin.getparams("github-pulls", body.replace(",\"project\":\"p\"", "")).status())
          .isEqualTo(200);
      assertThat(
              plugin
                  .getparams(
                      "gitlab-merge-requests", "{\"input\":{\"parameters\":{\"project\":\"g/p\"}}}")
                  .status())
          .isEqualTo(200);
      assertThat(github.received()).hasSize(1);
      assertThat(gitlab.received()).hasSize(1);
      assertThat(github.received().get(0).headers().toString())
          .contains("ghp-token-of-github-1234")
          .doesNotContain("glpat-token-of-gitlab");
      assertThat(gitlab.received().get(0).headers().toString())
          .contains("glpat-token-of-gitlab")
          .doesNotContain("ghp-token-of-github-1234");
    }
  }

  @Test
  void oneBareApiServesBothGithubMappings() {
    try (StubUpstream github = new StubUpstream().otherwise(r -> Reply.json(200, "[]"));
        PluginServer plugin =
            PluginServer.start(List.of(GITHUB, ACTIONS), Map.of("api", github.url()), TOKENS)) {
      assertThat(
              plugin
                  .getparams(
                      "github-pulls",
                      "{\"input\":{\"parameters\":{\"owner\":\"o\",\"repo\":\"r\"}}}")
                  .status())
          .isEqualTo(200);
      assertThat(github.received()).hasSize(1);
    }
  }

  @Test
  void aMappingAddedByAReloadCannotTakeABareVarMeantForOthers(@TempDir Path dir) throws Exception {
    Files.copy(GITHUB, dir.resolve("github-pulls.yaml"));
    CompileOptions options =
        new CompileOptions(
            Map.of("api", "https://ghe.example.com/api/v3"), n -> null, new Redactor());
    MappingLoader.Result first = MappingLoader.load(List.of(dir), options);
    assertThat(first.ok()).isTrue();
    AtomicReference<MappingRegistry> published = new AtomicReference<>();
    try (MappingReloader reloader =
        new MappingReloader(List.of(dir), first.options(), null, published::set, r -> {})) {
      reloader.reloadIfChanged();
      Files.copy(GITLAB, dir.resolve("gitlab-merge-requests.yaml"));
      reloader.reloadIfChanged();
    }
    MappingRegistry registry = published.get();
    assertThat(registry.names()).containsExactly("github-pulls");
    assertThat(registry.failures())
        .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
        .endsWith(
            "vars.api: --var api is bound to the mappings whose 'api' reads $GITHUB_API_URL;"
                + " this mapping declares it differently (its 'api' reads $GITLAB_API_URL): give"
                + " it its own with --var gitlab-merge-requests.api=VALUE");
  }

  private static final String GH =
      """
      name: gh
      vars:
        api: {default: "http://unset.invalid/gh", env: GH_URL}
      secrets: {t: {env: GH_TOKEN}}
      list:
        request:
          url: "#{vars.api}/items"
          auth: {bearer: {secret: t}}
        items: "$.items[*]"
      parameters: {n: item.name}
      """;

  private static final String GL =
      """
      name: gl
      vars:
        api: {default: "http://unset.invalid/gl"}
      secrets: {t: {env: GL_TOKEN}}
      list:
        request:
          url: "#{vars.api}/items"
          auth: {bearer: {secret: t}}
        items: "$.items[*]"
      parameters: {n: item.name}
      """;

  /**
   * The red team's case: {@code --var api=X} while no loaded mapping declares {@code api}; then a
   * reload brings a GitHub mapping (env GH_URL) and a GitLab one (no env). Whichever arrives first
   * takes the var; the other does not load, naming its qualified form, and its token never reaches
   * X. In one reload pass, and in two passes in either order.
   */
  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(strings = {"gh+gl", "gh,gl", "gl,gh"})
  void aBareVarNoMappingDeclaredAtStartIsBoundByTheFirstToArrive(
      String arrivals, @TempDir Path start, @TempDir Path dir) throws Exception {
    Map<String, String> env =
        Map.of("GH_TOKEN", "gh-token-0123456789", "GL_TOKEN", "gl-token-abcdefghij");
    try (StubUpstream ghe =
            new StubUpstream().otherwise(r -> Reply.json(200, "{\"items\":[{\"name\":\"a\"}]}"));
        PluginServer plugin =
            PluginServer.withYaml(
                start,
                Map.of(),
                env,
                "name: other\nlist:\n  request: {url: \"http://unset.invalid/x\"}\n"
                    + "  items: \"$[*]\"\nparameters: {n: item}\n")) {
      Files.writeString(
          dir.resolve("other.yaml"), Files.readString(start.resolve("mapping-0.yaml")));
      CompileOptions options =
          new CompileOptions(Map.of("api", ghe.url()), env::get, plugin.redactor);
      MappingLoader.Result first = MappingLoader.load(List.of(dir), options);
      assertThat(first.ok()).isTrue();
      try (MappingReloader reloader =
          new MappingReloader(
              List.of(dir), first.options(), null, plugin.server()::swap, r -> {})) {
        reloader.reloadIfChanged();
        for (String pass : arrivals.split(",")) {
          for (String name : pass.split("\\+")) {
            Files.writeString(dir.resolve(name + ".yaml"), name.equals("gh") ? GH : GL);
          }
          reloader.reloadIfChanged();
        }
        String firstToArrive = arrivals.substring(0, 2);
        String refused = firstToArrive.equals("gh") ? "gl" : "gh";
        assertThat(plugin.getparams(firstToArrive, "{}").status()).isEqualTo(200);
        PluginServer.Answer other = plugin.getparams(refused, "{}");
        assertThat(other.status()).isEqualTo(404);
        String mappings =
            plugin.send("GET", "/mappings", null, "Bearer " + PluginServer.TOKEN, null).body();
        assertThat(mappings)
            .contains("this mapping declares it differently")
            .contains("give it its own with --var " + refused + ".api=VALUE");
        assertThat(ghe.received()).isNotEmpty();
        assertThat(ghe.received())
            .allSatisfy(
                r ->
                    assertThat(r.header("authorization"))
                        .isEqualTo("Bearer " + env.get(firstToArrive.toUpperCase() + "_TOKEN")));
      }
    }
  }

  /** The real command: an unknown var is a warning in the log and in GET /mappings. */
  @Test
  void serveWarnsOfAVarNoMappingDeclares() throws Exception {
    try (StubUpstream github = new StubUpstream().otherwise(r -> Reply.json(200, "[]"))) {
      List<String> command =
          List.of(
              "serve",
              "--mappings",
              GITHUB.toString(),
              "--var",
              "github-pulls.api=" + github.url(),
              "--var",
              "gitlab-merge-requests.api=http://127.0.0.1:1",
              "--port",
              "0",
              "--host",
              "127.0.0.1");
      java.util.Map<String, String> environment = new java.util.HashMap<>(TOKENS);
      environment.put("APPSET_MAPPER_TOKEN", PluginServer.TOKEN);
      try (ServerProcess server = ServerProcess.start(List.of(), command, environment)) {
        int port = server.port();
        HttpResponse<String> mappings =
            HttpClient.newHttpClient()
                .send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/mappings"))
                        .header("Authorization", "Bearer " + PluginServer.TOKEN)
                        .build(),
                    HttpResponse.BodyHandlers.ofString());
        String warning =
            "--var gitlab-merge-requests.api: no mapping 'gitlab-merge-requests' is loaded"
                + " (loaded: github-pulls); it is not used";
        assertThat(mappings.body()).contains("\"warnings\":[\"" + warning + "\"]");
        server.awaitLine(line -> line.contains("WARN") && line.endsWith(warning));
      }
    }
  }
}
