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

  // No picocli defaults below: an option given without --redis must be told apart from its
  // default (refused, as the file options are); the defaults are applied in settings().
  @Option(
      names = "--redis-key-prefix",
      paramLabel = "<prefix>",
      description =
          "Prefix of every key and channel in Redis (default "
              + RedisSettings.DEFAULT_PREFIX
              + ").")
  String prefix;

  @Option(
      names = "--redis-timeout",
      paramLabel = "<duration>",
      converter = DurationConverter.class,
      description =
          "Longest wait for Redis before this replica goes on with its own memory (default"
              + " 250ms).")
  Duration timeout;

  @Option(
      names = "--redis-max-entry-bytes",
      converter = ByteSizeConverter.class,
      paramLabel = "SIZE",
      description =
          "Largest listing (its bodies) put in Redis; larger ones stay in the replica's memory"
              + " (default 8Mi).")
  Long maxEntryBytes;

  /**
   * The settings, or null without {@code --redis}.
   *
   * @throws IllegalArgumentException a malformed combination, named
   */
  RedisSettings settings() {
    if (url == null) {
      java.util.List<String> given = new java.util.ArrayList<>();
      addIf(given, keysFile, "--redis-integrity-keys-file");
      addIf(given, usernameFile, "--redis-username-file");
      addIf(given, passwordFile, "--redis-password-file");
      addIf(given, caFile, "--redis-ca-file");
      addIf(given, prefix, "--redis-key-prefix");
      addIf(given, timeout, "--redis-timeout");
      addIf(given, maxEntryBytes, "--redis-max-entry-bytes");
      if (!given.isEmpty()) {
        throw new IllegalArgumentException(
            String.join(", ", given) + " given without --redis URL: nothing would use it");
      }
      return null;
    }
    return new RedisSettings(
        url,
        usernameFile,
        passwordFile,
        caFile,
        keysFile,
        prefix == null ? RedisSettings.DEFAULT_PREFIX : prefix,
        timeout == null ? RedisSettings.DEFAULT_TIMEOUT : timeout,
        maxEntryBytes == null ? RedisSettings.DEFAULT_MAX_ENTRY_BYTES : maxEntryBytes,
        Duration.ofSeconds(1));
  }

  private static void addIf(java.util.List<String> given, Object value, String flag) {
    if (value != null) {
      given.add(flag);
    }
  }
}
