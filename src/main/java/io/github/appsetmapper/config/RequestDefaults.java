package io.github.appsetmapper.config;

import java.time.Duration;
import java.util.Map;

/** {@code defaults}: settings every request of a mapping takes unless it sets its own. */
public record RequestDefaults(
    Map<String, Expr> headers, AuthSpec auth, Duration timeout, Expr failWhen) {

  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);

  public static RequestDefaults none() {
    return new RequestDefaults(Map.of(), null, null, null);
  }
}
