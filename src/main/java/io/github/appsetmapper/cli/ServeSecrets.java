package io.github.appsetmapper.cli;

import io.github.appsetmapper.server.TokenRule;
import io.github.appsetmapper.server.Tokens;
import io.github.appsetmapper.server.WebhookSecret;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * The server's own secrets for {@code serve}: the bearer tokens and the webhook secret, read at
 * start. Whatever stops the server is one line (two when there is a hint to give) naming the source
 * and what is wrong, never a token.
 */
final class ServeSecrets {
  static final String TOKEN_ENV = "APPSET_MAPPER_TOKEN";

  /** Thrown once the lines saying why serve cannot start are printed: exit with the usage code. */
  static final class Stop extends Exception {
    Stop() {
      super(null, null, false, false);
    }
  }

  private ServeSecrets() {}

  /** The tokens of {@code APPSET_MAPPER_TOKEN} when it is set, else of {@code tokenFile}. */
  static Tokens tokens(Path tokenFile, PrintWriter err) throws Stop {
    String fromEnv = System.getenv(TOKEN_ENV);
    try {
      if (fromEnv != null && !fromEnv.isBlank()) {
        return Tokens.fromEnvironment(TOKEN_ENV, fromEnv);
      }
      return Tokens.fromFile(tokenFile);
    } catch (TokenRule.Refused e) {
      // A token that breaks the rule: the line names the source and the rule, never the token.
      return stop(err, e.getMessage());
    } catch (NoSuchFileException e) {
      return stop(
          err,
          "no token: " + TOKEN_ENV + " is not set and " + tokenFile + " does not exist",
          "give Argo CD's token in "
              + TOKEN_ENV
              + " or --token-file, or pass --insecure-no-auth for a local try");
    } catch (IOException e) {
      return stop(
          err,
          e.getMessage(),
          "give Argo CD's token in "
              + TOKEN_ENV
              + " or --token-file, or pass --insecure-no-auth for a local try");
    }
  }

  /** The secrets of {@code --webhook-secret-file}, or null when it is not given. */
  static WebhookSecret webhook(Path file, PrintWriter err) throws Stop {
    if (file == null) {
      return null;
    }
    try {
      return WebhookSecret.fromFile(file);
    } catch (NoSuchFileException e) {
      return stop(err, "--webhook-secret-file: " + file + " does not exist");
    } catch (IOException e) {
      // The message names the file and what is wrong with it, never the secret.
      return stop(err, "--webhook-secret-file: " + e.getMessage());
    }
  }

  private static <T> T stop(PrintWriter err, String error, String... hints) throws Stop {
    err.println("error: " + error);
    for (String hint : hints) {
      err.println(hint);
    }
    err.flush();
    throw new Stop();
  }
}
