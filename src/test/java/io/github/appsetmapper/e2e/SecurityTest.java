package io.github.appsetmapper.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.server.Tokens;
import io.github.appsetmapper.testing.LogCapture;
import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.PluginServer.Answer;
import io.github.appsetmapper.testing.StubUpstream;
import io.github.appsetmapper.testing.StubUpstream.Reply;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Input is data, secrets stay secret, tokens are checked properly. */
class SecurityTest {
  private static final String SECRET = "s3cr3t-upstream-value-91ac";

  private static final String ECHO =
      """
      name: echo
      inputAdditional: true
      input:
        name: {required: true}
      vars:
        up: {default: "http://unset.invalid"}
      secrets:
        api: {env: API_TOKEN}
      enrich:
        got:
          request:
            url: "#{vars.up}/things/#{input.name}"
            query: {q: "#{input.name}"}
            headers:
              X-Name: "name #{input.name}"
            auth: {bearer: {secret: api}}
          value: "response.status"
      parameters:
        name: input.name
        status: got
      """;

  @Nested
  class InputIsData {
    private StubUpstream stub;
    private PluginServer plugin;

    @BeforeEach
    void start(@TempDir Path dir) {
      stub = new StubUpstream().otherwise(r -> Reply.json(200, "{}"));
      plugin =
          PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of("API_TOKEN", SECRET), ECHO);
    }

    @AfterEach
    void stop() {
      plugin.close();
      stub.close();
    }

    @ParameterizedTest
    @ValueSource(
        strings = {
          "#{T(java.lang.System).exit(1)}",
          "T(java.lang.Runtime).getRuntime().exec('id')",
          "${jndi:ldap://x}",
          "#{secret.api}"
        })
    void expressionsInInputComeBackAsLiteralData(String evil) {
      Answer answer =
          plugin.getparams(
              "echo",
              "{\"input\":{\"parameters\":{\"name\":"
                  + io.github.appsetmapper.server.Json.write(evil)
                  + "}}}");
      assertThat(answer.status()).isEqualTo(200);
      assertThat(answer.body())
          .isEqualTo(
              "{\"output\":{\"parameters\":[{\"name\":"
                  + io.github.appsetmapper.server.Json.write(evil)
                  + ",\"status\":\"200\"}]}}");
      assertThat(answer.body()).doesNotContain(SECRET);
      StubUpstream.Received call = stub.received().get(0);
      assertThat(call.rawUri()).startsWith("/things/").doesNotContain("{").doesNotContain("$");
      assertThat(call.header("x-name")).isEqualTo("name " + evil);
    }

    @Test
    void cannotAddPathSegmentsQueryParametersOrFragments() {
      Answer answer =
          plugin.getparams(
              "echo", "{\"input\":{\"parameters\":{\"name\":\"a/admin/x?y=1&z#f %2F\"}}}");
      assertThat(answer.status()).isEqualTo(200);
      assertThat(stub.received().get(0).rawUri())
          .isEqualTo(
              "/things/a%2Fadmin%2Fx%3Fy%3D1%26z%23f%20%252F?q=a%2Fadmin%2Fx%3Fy%3D1%26z%23f%20%252F");
    }

    @Test
    void aDotDotStepIsRefusedEvenEncodedForServersThatDecodeSlashes() {
      Answer answer =
          plugin.getparams("echo", "{\"input\":{\"parameters\":{\"name\":\"../admin\"}}}");
      assertThat(answer.status()).isEqualTo(400);
      assertThat(answer.body())
          .isEqualTo(
              "{\"error\":\"enrich.got.url: #{input.name} gives a path segment with a '..' step"
                  + " once percent-decoded\"}");
      assertThat(stub.calls()).isZero();
    }

    @ParameterizedTest
    @ValueSource(strings = {"..", ".", ""})
    void dotSegmentsAndEmptySegmentsAreRefused(String segment) {
      Answer answer =
          plugin.getparams("echo", "{\"input\":{\"parameters\":{\"name\":\"" + segment + "\"}}}");
      assertThat(answer.status()).isEqualTo(400);
      assertThat(answer.body())
          .isEqualTo(
              "{\"error\":\"enrich.got.url: #{input.name} gives "
                  + (segment.isEmpty() ? "an empty" : "a '" + segment + "'")
                  + " path segment\"}");
      assertThat(stub.calls()).isZero();
    }

    @Test
    void cannotAddAHeader() {
      Answer answer =
          plugin.getparams("echo", "{\"input\":{\"parameters\":{\"name\":\"x\\r\\nX-Admin: 1\"}}}");
      assertThat(answer.status()).isEqualTo(400);
      assertThat(answer.body())
          .isEqualTo(
              "{\"error\":\"enrich.got.headers.X-Name: a header value cannot hold a line break\"}");
      assertThat(stub.calls()).isZero();
    }
  }

  @Nested
  class Secrets {
    @Test
    void neverInAnAnswerAnErrorOrALogLine(@TempDir Path dir) {
      // The upstream echoes what it was sent, as some APIs do in their error messages.
      try (LogCapture logs = new LogCapture();
          StubUpstream stub =
              new StubUpstream()
                  .otherwise(
                      r ->
                          Reply.json(
                              401,
                              "{\"message\":\"bad credentials: "
                                  + r.header("authorization")
                                  + "\"}"));
          PluginServer plugin =
              PluginServer.withYaml(
                  dir, Map.of("up", stub.url()), Map.of("API_TOKEN", SECRET), ECHO)) {
        Answer answer = plugin.getparams("echo", "{\"input\":{\"parameters\":{\"name\":\"x\"}}}");
        assertThat(stub.received().get(0).header("authorization")).isEqualTo("Bearer " + SECRET);
        assertThat(answer.status()).isEqualTo(502);
        assertThat(answer.body())
            .isEqualTo(
                "{\"error\":\"mapping 'echo': enrich.got GET "
                    + stub.url()
                    + "/things/x?q=x: answered 401 (bad credentials: Bearer ***)\"}");
        assertThat(logs.lines()).isNotEmpty().noneMatch(line -> line.contains(SECRET));
      }
    }

    @Test
    void aSecretInAUrlIsRedactedInErrors(@TempDir Path dir) {
      String yaml =
          """
          name: keyed
          vars: {up: {default: "http://unset.invalid"}}
          secrets: {key: {env: API_KEY}}
          list:
            request:
              url: "#{vars.up}/items"
              query: {api_key: "#{secret.key}"}
            items: "$[*]"
          parameters: {id: item.id}
          """;
      try (StubUpstream stub = new StubUpstream().otherwise(r -> Reply.json(500, "{}"));
          PluginServer plugin =
              PluginServer.withYaml(
                  dir, Map.of("up", stub.url()), Map.of("API_KEY", SECRET), yaml)) {
        Answer answer = plugin.getparams("keyed", "{}");
        assertThat(answer.status()).isEqualTo(502);
        assertThat(answer.body()).doesNotContain(SECRET).contains("api_key=***");
      }
    }

    @Test
    void anUnreadableSecretSaysWhereItWasLookedFor(@TempDir Path dir) {
      try (StubUpstream stub = new StubUpstream().otherwise(r -> Reply.json(200, "{}"));
          PluginServer plugin =
              PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of(), ECHO)) {
        Answer answer = plugin.getparams("echo", "{\"input\":{\"parameters\":{\"name\":\"x\"}}}");
        assertThat(answer.status()).isEqualTo(500);
        assertThat(answer.body())
            .isEqualTo(
                "{\"error\":\"mapping 'echo': secret 'api': environment variable API_TOKEN is not set\"}");
        assertThat(stub.calls()).isZero();
      }
    }

    @Test
    void anUnreadableSecretInAHeaderTemplateIsA500NamingTheFile(@TempDir Path dir) {
      String yaml =
          """
          name: missing-file
          vars: {up: {default: "http://unset.invalid"}}
          secrets: {api: {file: "%s"}}
          list:
            request:
              url: "#{vars.up}/items"
              headers: {X-Key: "key #{secret.api}"}
            items: "$[*]"
          parameters: {id: item.id}
          """
              .formatted(dir.resolve("absent"));
      try (StubUpstream stub = new StubUpstream();
          PluginServer plugin =
              PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of(), yaml)) {
        Answer answer = plugin.getparams("missing-file", "{}");
        assertThat(answer.status()).isEqualTo(500);
        assertThat(answer.body())
            .isEqualTo(
                "{\"error\":\"mapping 'missing-file': secret 'api': cannot read file "
                    + dir.resolve("absent")
                    + ": no such file\"}");
        assertThat(stub.calls()).isZero();
      }
    }

    @Test
    void aRotatedSecretFileIsReadAgain(@TempDir Path dir) throws Exception {
      Path secretFile = dir.resolve("token");
      Files.writeString(secretFile, "first-token-value\n");
      String yaml =
          """
          name: rotating
          vars: {up: {default: "http://unset.invalid"}}
          secrets: {api: {file: "%s"}}
          enrich:
            got:
              request: {url: "#{vars.up}/x", auth: {bearer: {secret: api}}}
              value: "response.status"
          parameters: {status: got}
          """
              .formatted(secretFile);
      try (StubUpstream stub = new StubUpstream().otherwise(r -> Reply.json(200, "{}"));
          PluginServer plugin =
              PluginServer.withYaml(dir, Map.of("up", stub.url()), Map.of(), yaml)) {
        plugin.getparams("rotating", "{}");
        // Kubernetes swaps the file atomically; a new inode (and size) tells the change.
        Path next = dir.resolve("token.next");
        Files.writeString(next, "second-token-value-longer\n");
        Files.move(
            next, secretFile, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        plugin.getparams("rotating", "{}");
        assertThat(stub.received())
            .extracting(r -> r.header("authorization"))
            .containsExactly("Bearer first-token-value", "Bearer second-token-value-longer");
      }
    }
  }

  @Nested
  class PluginTokens {
    private static final String SIMPLE =
        """
        name: simple
        parameters: {a: "'b'"}
        """;

    @Test
    void everyTokenOfTheFileIsAcceptedAndRotationNeedsNoRestart(@TempDir Path dir)
        throws Exception {
      Path tokenFile = dir.resolve("token");
      Files.writeString(tokenFile, "  old-token  \nnew-token\n\n");
      Path mapping = dir.resolve("simple.yaml");
      Files.writeString(mapping, SIMPLE);
      try (LogCapture logs = new LogCapture();
          PluginServer plugin =
              PluginServer.start(
                  List.of(mapping), Map.of(), Map.of(), Tokens.fromFile(tokenFile))) {
        String path = "/mappings/simple/api/v1/getparams.execute";
        assertThat(plugin.send("POST", path, "{}", "Bearer old-token", null).status())
            .isEqualTo(200);
        assertThat(plugin.send("POST", path, "{}", "Bearer new-token", null).status())
            .isEqualTo(200);
        assertThat(plugin.send("POST", path, "{}", "bearer new-token", null).status())
            .isEqualTo(200);
        Path next = dir.resolve("token.next");
        Files.writeString(next, "newest-token\n");
        Files.move(
            next, tokenFile, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        assertThat(plugin.send("POST", path, "{}", "Bearer newest-token", null).status())
            .isEqualTo(200);
        assertThat(plugin.send("POST", path, "{}", "Bearer old-token", null).status())
            .isEqualTo(403);
        assertThat(logs.lines())
            .anyMatch(l -> l.contains("the bearer token did not match"))
            .noneMatch(l -> l.contains("old-token") || l.contains("newest-token"));
      }
    }

    /**
     * Every token read was held in the process's redactors for as long as it ran: a file rotated
     * every hour added a token (and its encoded forms) to every redaction of every answer each
     * hour. The tokens a rotation replaces are let go; the current ones stay held.
     */
    @Test
    void aRotationLetsTheReplacedTokensGoFromTheRedactors(@TempDir Path dir) throws Exception {
      // Unrelated random tokens: a held token's runs of eight bytes are scrubbed too.
      java.util.Random random = new java.util.Random(7);
      java.util.function.Supplier<String> token =
          () ->
              java.util.HexFormat.of()
                  .formatHex(
                      random
                          .ints(16, 0, 256)
                          .collect(
                              java.io.ByteArrayOutputStream::new,
                              (out, b) -> out.write(b),
                              (a, b) -> {})
                          .toByteArray());
      String current = token.get();
      Path tokenFile = dir.resolve("token");
      Files.writeString(tokenFile, current + "\n");
      Path mapping = dir.resolve("simple.yaml");
      Files.writeString(mapping, SIMPLE);
      List<String> replaced = new java.util.ArrayList<>();
      try (PluginServer plugin =
          PluginServer.start(List.of(mapping), Map.of(), Map.of(), Tokens.fromFile(tokenFile))) {
        String path = "/mappings/simple/api/v1/getparams.execute";
        for (int i = 1; i <= 120; i++) {
          replaced.add(current);
          current = token.get();
          Path next = dir.resolve("token.next");
          Files.writeString(next, current + "\n");
          Files.move(
              next, tokenFile, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
          // The server reads the new file on the first getparams that presents the new token.
          assertThat(plugin.send("POST", path, "{}", "Bearer " + current, null).status())
              .isEqualTo(200);
        }
        io.github.appsetmapper.secret.Redactor redactor =
            new io.github.appsetmapper.secret.Redactor();
        assertThat(redactor.redact("echo " + current)).isEqualTo("echo ***");
        for (String old : replaced) {
          assertThat(redactor.redact("echo " + old))
              .as("a replaced token")
              .isEqualTo("echo " + old);
        }
      }
    }

    /**
     * A rotation that rewrites the file in place, keeping its size and modification time ({@code cp
     * -p} of a token of the same length, {@code touch -r}), was never noticed: the new token stayed
     * refused and the old one kept working. The inode's change time is part of what is compared.
     */
    @Test
    void aRewriteInPlaceThatKeepsSizeAndTimeIsNoticed(@TempDir Path dir) throws Exception {
      Path tokenFile = dir.resolve("token");
      Files.writeString(tokenFile, "first-token-0000aaaa\n");
      java.nio.file.attribute.FileTime written = Files.getLastModifiedTime(tokenFile);
      Path mapping = dir.resolve("simple.yaml");
      Files.writeString(mapping, SIMPLE);
      try (PluginServer plugin =
          PluginServer.start(List.of(mapping), Map.of(), Map.of(), Tokens.fromFile(tokenFile))) {
        String path = "/mappings/simple/api/v1/getparams.execute";
        assertThat(plugin.send("POST", path, "{}", "Bearer first-token-0000aaaa", null).status())
            .isEqualTo(200);
        Files.writeString(tokenFile, "other-token-1111bbbb\n"); // the same length, in place
        Files.setLastModifiedTime(tokenFile, written);
        assertThat(plugin.send("POST", path, "{}", "Bearer other-token-1111bbbb", null).status())
            .isEqualTo(200);
        assertThat(plugin.send("POST", path, "{}", "Bearer first-token-0000aaaa", null).status())
            .isEqualTo(403);
      }
    }

    @Test
    void anEmptyTokenFileRefusesToStart(@TempDir Path dir) throws Exception {
      Path tokenFile = dir.resolve("token");
      Files.writeString(tokenFile, "\n  \n");
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> Tokens.fromFile(tokenFile))
          .hasMessage("token file " + tokenFile + " holds no token");
    }

    @Test
    void anEmptyTokenNeverMatches() {
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> Tokens.fixed("\n"))
          .hasMessage("the value holds no token");
      Tokens tokens = Tokens.fixed(PluginServer.TOKEN + "\n");
      assertThat(tokens.accepts("")).isFalse();
      assertThat(tokens.accepts(null)).isFalse();
    }
  }
}
