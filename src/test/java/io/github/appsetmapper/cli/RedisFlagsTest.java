package io.github.appsetmapper.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code serve --redis ...}: a wrong combination stops at once, exit 2, one line, no secret. */
class RedisFlagsTest {
  @TempDir Path dir;

  private static CliTest.Result serve(String... more) {
    String[] args = new String[6 + more.length];
    args[0] = "serve";
    args[1] = "--insecure-no-auth";
    args[2] = "--mappings";
    args[3] = "samples/pr-digests";
    args[4] = "--port";
    args[5] = "0";
    System.arraycopy(more, 0, args, 6, more.length);
    return CliTest.run(args);
  }

  @Test
  void aPasswordInTheUrlIsRefusedWithoutShowingIt() {
    CliTest.Result result = serve("--redis", "redis://app:hunter2-secret@127.0.0.1:6379");
    assertThat(result.exit()).isEqualTo(2);
    assertThat(result.err())
        .isEqualTo(
            "error: --redis: no user name or password in the URL; use --redis-username-file and"
                + " --redis-password-file\n")
        .doesNotContain("hunter2");
  }

  @Test
  void redisNeedsIntegrityKeys() {
    CliTest.Result result = serve("--redis", "redis://127.0.0.1:6379");
    assertThat(result.exit()).isEqualTo(2);
    assertThat(result.err())
        .isEqualTo(
            "error: --redis needs --redis-integrity-keys-file: what is read back from Redis is"
                + " checked\n");
  }

  @Test
  void redisOptionsWithoutRedisAreRefused() {
    CliTest.Result result = serve("--redis-password-file", dir.resolve("p").toString());
    assertThat(result.exit()).isEqualTo(2);
    assertThat(result.err())
        .isEqualTo(
            "error: --redis-password-file given without --redis URL: nothing would use it\n");
  }

  @Test
  void everyRedisOptionWithoutRedisIsRefusedAlike() {
    String[][] alone = {
      {"--redis-timeout", "1s"},
      {"--redis-key-prefix", "p:"},
      {"--redis-max-entry-bytes", "1Mi"},
      {"--redis-integrity-keys-file", "keys"},
      {"--redis-username-file", "user"},
      {"--redis-ca-file", "ca.pem"}
    };
    for (String[] option : alone) {
      CliTest.Result result = serve(option);
      assertThat(result.exit()).as(option[0]).isEqualTo(2);
      assertThat(result.err())
          .isEqualTo("error: " + option[0] + " given without --redis URL: nothing would use it\n");
    }
  }

  @Test
  void aMalformedUrlIsOneLineAndExit2() {
    String[][] cases = {
      {"redis://127.0.0.1:99999", "error: --redis: the port must be 1 to 65535\n"},
      {"redis://127.0.0.1:0", "error: --redis: the port must be 1 to 65535\n"},
      {"redis://127.0.0.1:", "error: --redis: the port must be 1 to 65535\n"},
      {"redis://127.0.0.1:6379#x", "error: --redis: no fragment (#...) in the URL\n"},
      {
        "redis://127.0.0.1:6379/db",
        "error: --redis: after the host and port only /DB, a database number (0 to 99)\n"
      },
      {"http://127.0.0.1:6379", "error: --redis: the URL must start with redis:// or rediss://\n"}
    };
    for (String[] c : cases) {
      CliTest.Result result = serve("--redis", c[0]);
      assertThat(result.exit()).as(c[0]).isEqualTo(2);
      assertThat(result.err()).as(c[0]).isEqualTo(c[1]);
    }
  }

  @Test
  void aKeysFileIsCheckedLineByLineNamingTheLineNeverTheSecret() throws Exception {
    String secret = "s".repeat(40);
    String[][] cases = {
      {secret, "line 1: not ID=SECRET (an id, '=', then the secret)"},
      {"=" + secret, "line 1: the id before '=' is empty"},
      {"k1=" + secret + "\n# c\nk1=" + secret, "line 3: the id 'k1' is already on line 1"},
      {
        "bad id=" + secret,
        "line 1: the id before '=' must be 1 to 32 letters, digits, '.', '_' or '-'"
      }
    };
    for (String[] c : cases) {
      Path keys = Files.writeString(dir.resolve("keys"), c[0]);
      CliTest.Result result =
          serve(
              "--redis", "redis://127.0.0.1:6379", "--redis-integrity-keys-file", keys.toString());
      assertThat(result.exit()).as(c[0]).isEqualTo(2);
      assertThat(result.err())
          .isEqualTo("error: --redis-integrity-keys-file: " + keys + " " + c[1] + "\n")
          .doesNotContain(secret);
    }
    Path missing = dir.resolve("missing");
    CliTest.Result result =
        serve(
            "--redis", "redis://127.0.0.1:6379", "--redis-integrity-keys-file", missing.toString());
    assertThat(result.exit()).isEqualTo(2);
    assertThat(result.err())
        .isEqualTo("error: --redis-integrity-keys-file: " + missing + ": no such file\n");
  }

  @Test
  void aCaFileNeedsTls() throws Exception {
    Path keys = Files.writeString(dir.resolve("keys"), "k1=" + "x".repeat(40));
    CliTest.Result result =
        serve(
            "--redis",
            "redis://127.0.0.1:6379",
            "--redis-integrity-keys-file",
            keys.toString(),
            "--redis-ca-file",
            dir.resolve("ca.pem").toString());
    assertThat(result.exit()).isEqualTo(2);
    assertThat(result.err()).isEqualTo("error: --redis-ca-file needs a rediss:// URL\n");
  }

  @Test
  void aShortIntegrityKeyIsRefusedWithoutShowingIt() throws Exception {
    Path keys = Files.writeString(dir.resolve("keys"), "k1=too-short-key-9f\n");
    CliTest.Result result =
        serve("--redis", "redis://127.0.0.1:6379", "--redis-integrity-keys-file", keys.toString());
    assertThat(result.exit()).isEqualTo(2);
    assertThat(result.err())
        .isEqualTo(
            "error: --redis-integrity-keys-file: "
                + keys
                + " line 1: a key needs at least 32 characters (e.g. head -c 48 /dev/urandom |"
                + " base64)\n")
        .doesNotContain("too-short-key-9f");
  }
}
