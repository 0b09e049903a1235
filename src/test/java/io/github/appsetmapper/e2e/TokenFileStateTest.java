package io.github.appsetmapper.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.appsetmapper.server.TokenRule;
import io.github.appsetmapper.server.Tokens;
import io.github.appsetmapper.server.WebhookSecret;
import io.github.appsetmapper.testing.LogCapture;
import io.github.appsetmapper.testing.PluginServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The server's own token file while it runs: a file that goes away, is emptied, is replaced by a
 * directory or holds a token the rule refuses keeps the tokens read before (a moment without the
 * file must not lock Argo CD out), and says so in one WARN line per change of state, never one per
 * request and never with a token; a good file read again is one INFO line.
 */
class TokenFileStateTest {
  private static final String PATH = "/mappings/simple/api/v1/getparams.execute";
  private static final String OLD = "old-token-4b1e9d0a";
  private static final String NEW = "new-token-77c3f2e5";
  private static final String WRONG = "wrong-token-00000000";

  @TempDir Path dir;

  private PluginServer start(Path tokenFile) throws Exception {
    Path mapping = dir.resolve("simple.yaml");
    Files.writeString(mapping, "name: simple\nparameters: {a: \"'b'\"}\n");
    return PluginServer.start(List.of(mapping), Map.of(), Map.of(), Tokens.fromFile(tokenFile));
  }

  private static int call(PluginServer plugin, String token) {
    return plugin.send("POST", PATH, "{}", "Bearer " + token, null).status();
  }

  /** The rendered lines of the server logger that name the token file. */
  private static List<String> aboutTheFile(LogCapture logs, Path tokenFile) {
    return logs.rendered().stream().filter(l -> l.contains("token file " + tokenFile)).toList();
  }

  @Test
  void aDeletedFileKeepsItsTokensWarnsOnceAndSaysWhenItIsBack() throws Exception {
    Path tokenFile = dir.resolve("token");
    Files.writeString(tokenFile, OLD + "\n");
    try (LogCapture logs = new LogCapture();
        PluginServer plugin = start(tokenFile)) {
      Files.delete(tokenFile);
      // A wrong token makes the server look at the file at once, each time.
      for (int i = 0; i < 5; i++) {
        assertThat(call(plugin, WRONG)).isEqualTo(403);
        assertThat(call(plugin, OLD)).isEqualTo(200);
      }
      assertThat(aboutTheFile(logs, tokenFile))
          .singleElement()
          .satisfies(
              l ->
                  assertThat(l)
                      .contains("WARN")
                      .contains(
                          "token file "
                              + tokenFile
                              + ": no such file; the tokens read before are still accepted"));
      assertThat(metrics(plugin)).contains("appset_mapper_secret_files_failing 1.0");
      Files.writeString(tokenFile, NEW + "\n");
      assertThat(call(plugin, NEW)).isEqualTo(200);
      assertThat(call(plugin, OLD)).isEqualTo(403);
      assertThat(call(plugin, WRONG)).isEqualTo(403);
      assertThat(aboutTheFile(logs, tokenFile))
          .hasSize(2)
          .last()
          .satisfies(
              l ->
                  assertThat(l)
                      .contains("INFO")
                      .contains("token file " + tokenFile + " is read again: 1 token accepted"));
      assertThat(metrics(plugin)).contains("appset_mapper_secret_files_failing 0.0");
      assertThat(logs.lines()).noneMatch(l -> l.contains(OLD) || l.contains(NEW));
    }
  }

  private static String metrics(PluginServer plugin) {
    return plugin.send("GET", "/metrics", null, null, null).body();
  }

  /**
   * An emptied file, a file of blank lines, a directory in its place, a line the rule refuses: each
   * is an operator's mistake, never "accept no token" nor "accept any". The tokens read before stay
   * accepted, the file's new tokens are not taken in part, and each state is one WARN line.
   */
  @ParameterizedTest
  @ValueSource(
      strings = {"empty", "blank", "directory", "short", "control", "non-ascii", "unreadable"})
  void aBrokenRotationKeepsTheTokensReadBeforeWithOneWarning(String kind) throws Exception {
    Path tokenFile = dir.resolve("token");
    Files.writeString(tokenFile, OLD + "\n");
    try (LogCapture logs = new LogCapture();
        PluginServer plugin = start(tokenFile)) {
      String expected =
          switch (kind) {
            case "empty" -> {
              Files.writeString(tokenFile, "");
              yield "token file " + tokenFile + " holds no token";
            }
            case "blank" -> {
              Files.writeString(tokenFile, "\n   \r\n\t\n");
              yield "token file " + tokenFile + " holds no token";
            }
            case "directory" -> {
              Files.delete(tokenFile);
              Files.createDirectory(tokenFile);
              yield "token file " + tokenFile + ": not a regular file (a directory)";
            }
            case "short" -> {
              Files.writeString(tokenFile, NEW + "\nabc123\n");
              yield "token file " + tokenFile + " line 2: a token must be at least 8 characters";
            }
            case "control" -> {
              Files.writeString(tokenFile, NEW + "\nnew-\u001btoken-0000\n");
              yield "token file " + tokenFile + " line 2: a token cannot hold a control character";
            }
            case "unreadable" -> {
              // Root reads a file whatever its mode: a read refusal stands for one it cannot read.
              byte[] latin1 = (NEW + "\ncaf\u00e9-token-0000\n").getBytes("ISO-8859-1");
              Files.write(tokenFile, latin1);
              yield "token file "
                  + tokenFile
                  + ": not UTF-8 text (byte 0xE9 at offset "
                  + (NEW.length() + 4)
                  + "); save it as UTF-8";
            }
            default -> {
              Files.writeString(tokenFile, NEW + "\nnew-tökén-00000000\n");
              yield "token file " + tokenFile + " line 2: a token must be printable ASCII";
            }
          };
      for (int i = 0; i < 5; i++) {
        assertThat(call(plugin, WRONG)).isEqualTo(403);
        assertThat(call(plugin, OLD)).isEqualTo(200);
        assertThat(call(plugin, NEW)).isEqualTo(403);
      }
      assertThat(aboutTheFile(logs, tokenFile))
          .singleElement()
          .satisfies(l -> assertThat(l).contains("WARN").contains(expected));
      assertThat(logs.lines())
          .noneMatch(l -> l.contains(OLD) || l.contains(NEW) || l.contains("abc123"));
    }
  }

  @Test
  void eachNewStateIsItsOwnWarning() throws Exception {
    Path tokenFile = dir.resolve("token");
    Files.writeString(tokenFile, OLD + "\n");
    try (LogCapture logs = new LogCapture();
        PluginServer plugin = start(tokenFile)) {
      Files.delete(tokenFile);
      assertThat(call(plugin, WRONG)).isEqualTo(403);
      Files.writeString(tokenFile, "\n");
      assertThat(call(plugin, WRONG)).isEqualTo(403);
      assertThat(call(plugin, OLD)).isEqualTo(200);
      assertThat(aboutTheFile(logs, tokenFile))
          .hasSize(2)
          .allMatch(l -> l.contains("WARN"))
          .anyMatch(l -> l.contains(": no such file;"))
          .anyMatch(l -> l.contains(" holds no token;"));
    }
  }

  @Test
  void aFileThatBreaksTheRuleStopsTheServerAtStart() throws Exception {
    Path tokenFile = dir.resolve("token");
    Files.writeString(tokenFile, OLD + "\r\n  s3cr3t \r\n");
    assertThatThrownBy(() -> Tokens.fromFile(tokenFile))
        .isInstanceOf(TokenRule.Refused.class)
        .hasMessage("token file " + tokenFile + " line 2: a token must be at least 8 characters");
  }

  @Test
  void spacesAroundATokenAndACrLfAreNotPartOfIt() throws Exception {
    Path tokenFile = dir.resolve("token");
    Files.writeString(tokenFile, "\uFEFF  " + OLD + " \t\r\n" + NEW + "\r\n");
    try (PluginServer plugin = start(tokenFile)) {
      assertThat(call(plugin, OLD)).isEqualTo(200);
      assertThat(call(plugin, NEW)).isEqualTo(200);
    }
  }

  @Test
  void theEnvironmentVariableFollowsTheSameRule() throws Exception {
    // An accepted token is held in the process's redactors: never a run of ordinary text (digits).
    assertThatThrownBy(() -> Tokens.fromEnvironment("APPSET_MAPPER_TOKEN", "1234567"))
        .isInstanceOf(TokenRule.Refused.class)
        .hasMessage("APPSET_MAPPER_TOKEN: a token must be at least 8 characters");
    assertThatThrownBy(() -> Tokens.fromEnvironment("APPSET_MAPPER_TOKEN", "  \n "))
        .hasMessage("APPSET_MAPPER_TOKEN holds no token");
    assertThat(
            Tokens.fromEnvironment("APPSET_MAPPER_TOKEN", " env-token-7d3e\n")
                .accepts("env-token-7d3e"))
        .isTrue();
  }

  /** The webhook secret file is read by the same reader: the same rule, the same kept secrets. */
  @org.junit.jupiter.api.Nested
  class WebhookSecretFile {
    private static final String HOOK = "/mappings/simple/cache/invalidate";

    private PluginServer start(Path secretFile) throws Exception {
      return PluginServer.withServerOptions(
          dir,
          Map.of(),
          WebhookSecret.fromFile(secretFile),
          options -> options,
          "name: simple\nparameters: {a: \"'b'\"}\n");
    }

    private static int hook(PluginServer plugin, String secret) {
      return plugin
          .send("POST", HOOK, "{}", null, "application/json", Map.of("X-Gitlab-Token", secret))
          .status();
    }

    @Test
    void anEmptiedFileKeepsTheSecretReadBeforeWithOneWarning() throws Exception {
      Path secretFile = dir.resolve("webhook");
      Files.writeString(secretFile, OLD + "\n");
      try (LogCapture logs = new LogCapture();
          PluginServer plugin = start(secretFile)) {
        assertThat(hook(plugin, OLD)).isEqualTo(200);
        Files.writeString(secretFile, "\n");
        for (int i = 0; i < 3; i++) {
          assertThat(hook(plugin, WRONG)).isEqualTo(403);
          assertThat(hook(plugin, OLD)).isEqualTo(200);
        }
        assertThat(
                logs.rendered().stream()
                    .filter(l -> l.contains("webhook secret file " + secretFile))
                    .toList())
            .singleElement()
            .satisfies(
                l ->
                    assertThat(l)
                        .contains("WARN")
                        .contains(
                            "webhook secret file "
                                + secretFile
                                + " holds no secret; the secrets read before are still accepted"));
        assertThat(metrics(plugin)).contains("appset_mapper_secret_files_failing 1.0");
        // Several lines are several secrets, as in the token file: a rotation needs no downtime.
        Files.writeString(secretFile, OLD + "\n" + NEW + "\n");
        assertThat(hook(plugin, NEW)).isEqualTo(200);
        assertThat(hook(plugin, OLD)).isEqualTo(200);
        String body = "{}";
        assertThat(
                plugin
                    .send(
                        "POST",
                        HOOK,
                        body,
                        null,
                        "application/json",
                        Map.of(
                            "X-Hub-Signature-256",
                            WebhookSecret.signature(
                                NEW, body.getBytes(java.nio.charset.StandardCharsets.UTF_8))))
                    .status())
            .isEqualTo(200);
      }
    }

    @Test
    void aShortSecretIsRefusedAtStart() throws Exception {
      Path secretFile = dir.resolve("webhook");
      Files.writeString(secretFile, "s3cret\n");
      assertThatThrownBy(() -> WebhookSecret.fromFile(secretFile))
          .isInstanceOf(TokenRule.Refused.class)
          .hasMessage(
              "webhook secret file " + secretFile + ": a secret must be at least 8 characters");
    }

    /** A sender that echoes its secret (in a path a refusal's line names) finds it in no log. */
    @Test
    void theSecretIsScrubbedFromTheLog() throws Exception {
      Path secretFile = dir.resolve("webhook");
      String secret = "hook-secret-3f9a1c7e5b2d";
      Files.writeString(secretFile, secret + "\n");
      try (LogCapture logs = new LogCapture();
          PluginServer plugin = start(secretFile)) {
        assertThat(plugin.send("POST", "/x/" + secret, "", null, "application/json").status())
            .isEqualTo(403);
        assertThat(String.join("\n", logs.rendered()))
            .contains("/x/***")
            .doesNotContain(secret.substring(0, secret.length() / 2))
            .doesNotContain(secret.substring(secret.length() / 2));
      }
    }
  }
}
