package io.github.appsetmapper.redis;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;

/**
 * How to reach Redis and what to keep there ({@code serve --redis ...}).
 *
 * @param url {@code redis://host:port[/db]} or {@code rediss://} (TLS); never with a password in it
 * @param usernameFile file holding the ACL user name (null: the default user)
 * @param passwordFile file holding the password (null: none); re-read at each (re)connection
 * @param caFile PEM CA certificates for {@code rediss://} (null: the JVM's trust store)
 * @param keysFile the integrity keys ({@link KeyRing})
 * @param prefix prepended to every key and channel name
 * @param timeout the most one round trip may take before Redis counts as failing
 * @param maxEntryBytes the largest listing (its bodies) shared; larger ones stay in this replica
 * @param probeInterval how often a failing Redis is tried again
 */
public record RedisSettings(
    String url,
    Path usernameFile,
    Path passwordFile,
    Path caFile,
    Path keysFile,
    String prefix,
    Duration timeout,
    long maxEntryBytes,
    Duration probeInterval) {
  public static final String DEFAULT_PREFIX = "appset-mapper:";
  public static final Duration DEFAULT_TIMEOUT = Duration.ofMillis(250);
  public static final long DEFAULT_MAX_ENTRY_BYTES = 8L * 1024 * 1024;

  public RedisSettings {
    URI parsed;
    try {
      parsed = URI.create(url);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--redis: not a URL: " + e.getMessage());
    }
    if (!"redis".equals(parsed.getScheme()) && !"rediss".equals(parsed.getScheme())) {
      throw new IllegalArgumentException("--redis: the URL must start with redis:// or rediss://");
    }
    if (parsed.getHost() == null) {
      throw new IllegalArgumentException("--redis: the URL has no host");
    }
    if (parsed.getRawUserInfo() != null) {
      // A password on the command line shows in ps and in the pod spec.
      throw new IllegalArgumentException(
          "--redis: no user name or password in the URL; use --redis-username-file and"
              + " --redis-password-file");
    }
    if (parsed.getRawQuery() != null) {
      throw new IllegalArgumentException("--redis: no query in the URL");
    }
    if (parsed.getRawFragment() != null) {
      throw new IllegalArgumentException("--redis: no fragment (#...) in the URL");
    }
    if (parsed.getPort() == 0 || parsed.getPort() > 65535) {
      throw new IllegalArgumentException("--redis: the port must be 1 to 65535");
    }
    if (parsed.getRawAuthority() != null
        && parsed.getRawAuthority().matches(".*:[^\\]]*$")
        && parsed.getPort() < 0) {
      throw new IllegalArgumentException("--redis: the port must be 1 to 65535");
    }
    String path = parsed.getRawPath() == null ? "" : parsed.getRawPath();
    if (!path.isEmpty() && !path.equals("/") && !path.matches("/[0-9]{1,2}")) {
      throw new IllegalArgumentException(
          "--redis: after the host and port only /DB, a database number (0 to 99)");
    }
    try {
      io.lettuce.core.RedisURI.create(url);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("--redis: not a Redis URL: " + e.getMessage());
    }
    if (caFile != null && !"rediss".equals(parsed.getScheme())) {
      throw new IllegalArgumentException("--redis-ca-file needs a rediss:// URL");
    }
    if (keysFile == null) {
      throw new IllegalArgumentException(
          "--redis needs --redis-integrity-keys-file: what is read back from Redis is checked");
    }
    if (prefix == null || prefix.isEmpty() || prefix.length() > 64 || !prefix.matches("[ -~]+")) {
      throw new IllegalArgumentException("--redis-key-prefix: 1 to 64 printable ASCII characters");
    }
    if (timeout == null || timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("--redis-timeout must be positive");
    }
    if (maxEntryBytes < 1024) {
      throw new IllegalArgumentException("--redis-max-entry-bytes must be at least 1Ki");
    }
    if (probeInterval == null || probeInterval.isNegative() || probeInterval.isZero()) {
      probeInterval = Duration.ofSeconds(1);
    }
  }

  /** Host and port, for log lines (the URL holds no secret). */
  public String where() {
    URI parsed = URI.create(url);
    return parsed.getScheme()
        + "://"
        + parsed.getHost()
        + (parsed.getPort() < 0 ? "" : ":" + parsed.getPort());
  }
}
