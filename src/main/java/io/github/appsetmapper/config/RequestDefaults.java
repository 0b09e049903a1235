package io.github.appsetmapper.config;

import java.time.Duration;
import java.util.Map;

/** {@code defaults}: settings every request of a mapping takes unless it sets its own. */
public record RequestDefaults(
    Map<String, Expr> headers,
    AuthSpec auth,
    Duration timeout,
    Expr failWhen,
    Integer retries,
    TlsSpec tls,
    CacheSpec cache) {

  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);

  /** Retries of an idempotent request unless set: enough for a blip, short of hammering. */
  public static final int DEFAULT_RETRIES = 2;

  public static final int MAX_RETRIES = 10;

  public static RequestDefaults none() {
    return new RequestDefaults(Map.of(), null, null, null, null, null, null);
  }
}
