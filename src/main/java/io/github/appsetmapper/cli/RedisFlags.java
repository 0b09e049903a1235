package io.github.appsetmapper.cli;

import io.github.appsetmapper.redis.RedisSettings;
import java.nio.file.Path;
import java.time.Duration;
import picocli.CommandLine.Option;

/** The {@code serve} options that share the cache, leases and baselines through Redis. */
final class RedisFlags {
  @Option(
      names = "--redis",
      paramLabel = "URL",
      description =
          "Share the cache, in-flight calls, maxDrop baselines, guard resets and cache"
              + " invalidations with every replica through Redis: redis://HOST:PORT[/DB] or"
              + " rediss:// (TLS). No credentials in the URL: see --redis-password-file.")
  String url;

  @Option(
      names = "--redis-integrity-keys-file",
      paramLabel = "FILE",
      description =
          "Keys that seal everything put in Redis (AES-256-GCM), one ID=SECRET per line (32+"
              + " characters); the first seals, all open. Required with --redis. Re-read when it"
              + " changes.")
  Path keysFile;

  @Option(
      names = "--redis-username-file",
      paramLabel = "FILE",
      description = "File holding the Redis ACL user name.")
  Path usernameFile;

  @Option(
      names = "--redis-password-file",
      paramLabel = "FILE",
      description = "File holding the Redis password; read again at each reconnection.")
  Path passwordFile;

  @Option(
      names = "--redis-ca-file",
      paramLabel = "FILE",
      description = "PEM CA certificates that sign a rediss:// server's certificate.")
  Path caFile;

  @Option(
      names = "--redis-key-prefix",
      paramLabel = "<prefix>",
      defaultValue = RedisSettings.DEFAULT_PREFIX,
      description = "Prefix of every key and channel in Redis (default ${DEFAULT-VALUE}).")
  String prefix;

  @Option(
      names = "--redis-timeout",
      paramLabel = "<duration>",
      defaultValue = "250ms",
      converter = DurationConverter.class,
      description =
          "Longest wait for Redis before this replica goes on with its own memory (default"
              + " ${DEFAULT-VALUE}).")
  Duration timeout;

  @Option(
      names = "--redis-max-entry-bytes",
      defaultValue = "8Mi",
      converter = ByteSizeConverter.class,
      paramLabel = "SIZE",
      description =
          "Largest listing (its bodies) put in Redis; larger ones stay in the replica's memory"
              + " (default ${DEFAULT-VALUE}).")
  long maxEntryBytes;

  /**
   * The settings, or null without {@code --redis}.
   *
   * @throws IllegalArgumentException a malformed combination, named
   */
  RedisSettings settings() {
    if (url == null) {
      if (keysFile != null || usernameFile != null || passwordFile != null || caFile != null) {
        throw new IllegalArgumentException("--redis-* options need --redis URL");
      }
      return null;
    }
    return new RedisSettings(
        url,
        usernameFile,
        passwordFile,
        caFile,
        keysFile,
        prefix,
        timeout,
        maxEntryBytes,
        Duration.ofSeconds(1));
  }
}
