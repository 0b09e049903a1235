package io.github.appsetmapper.redis;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.time.Duration;

/**
 * Log lines said once per subject per period: a Redis that keeps refusing, or a value that keeps
 * failing, must show in the log without flooding it.
 */
final class Said {
  private final Cache<String, Boolean> said;

  Said(Duration every) {
    this.said = Caffeine.newBuilder().maximumSize(10_000).expireAfterWrite(every).build();
  }

  /** True the first time {@code subject} is seen in the period: log it then. */
  boolean first(String subject) {
    return said.asMap().putIfAbsent(subject, Boolean.TRUE) == null;
  }
}
