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
    assertThat(result.err()).isEqualTo("error: --redis-* options need --redis URL\n");
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
