package io.github.appsetmapper.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.testing.ServerProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code serve} refuses a token the rule refuses, from the environment or the file: a token shorter
 * than 8 characters is guessable and one the redactor cannot scrub; one with a control character or
 * a character beyond ASCII can never match what an HTTP header carries. One line naming the source
 * and the rule, never the token, and the usage exit code: it never starts listening.
 */
class ServeTokenRuleTest {
  private static final String SAMPLE = "samples/pr-digests/pr-digests.yaml";

  @TempDir Path dir;

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "env  | s3cr3t        | APPSET_MAPPER_TOKEN: a token must be at least 8 characters",
        "env  | 1234567       | APPSET_MAPPER_TOKEN: a token must be at least 8 characters",
        "env  | pässwörd-long | APPSET_MAPPER_TOKEN: a token must be printable ASCII",
        "file | s3cr3t        | FILE: a token must be at least 8 characters",
        "file | pässwörd-long | FILE: a token must be printable ASCII",
        "file | tab\tinside-1 | FILE: a token cannot hold a control character",
        "hook | s3cret        | --webhook-secret-file: HOOK: a secret must be at least 8 characters",
        "hook | pässwörd-long | --webhook-secret-file: HOOK: a secret must be printable ASCII",
      })
  void aTokenTheRuleRefusesStopsServeWithOneLine(String source, String token, String message)
      throws Exception {
    Path tokenFile = dir.resolve("token");
    Path hookFile = dir.resolve("webhook");
    Map<String, String> environment;
    if (source.equals("env")) {
      environment = Map.of("APPSET_MAPPER_TOKEN", token);
    } else if (source.equals("file")) {
      Files.writeString(tokenFile, token + "\n");
      environment = Map.of("APPSET_MAPPER_TOKEN", "");
    } else {
      Files.writeString(hookFile, token + "\n");
      environment = Map.of("APPSET_MAPPER_TOKEN", "a-good-token-0c1d");
    }
    List<String> arguments = new java.util.ArrayList<>();
    arguments.addAll(
        List.of(
            "serve",
            "--mappings",
            SAMPLE,
            "--token-file",
            tokenFile.toString(),
            "--port",
            "0",
            "--host",
            "127.0.0.1"));
    if (source.equals("hook")) {
      arguments.addAll(List.of("--webhook-secret-file", hookFile.toString()));
    }
    try (ServerProcess serve = ServerProcess.launch(List.of(), arguments, environment)) {
      String first = serve.awaitLine(l -> l.startsWith("error:") || l.contains("listening on"));
      assertThat(first)
          .startsWith(
              "error: "
                  + message
                      .replace("FILE", "token file " + tokenFile)
                      .replace("HOOK", "webhook secret file " + hookFile));
      assertThat(serve.process().waitFor()).isEqualTo(2);
      serve.awaitOutputEnd();
      assertThat(serve.lines()).containsExactly(first);
      assertThat(serve.text()).doesNotContain(token);
    }
  }
}
