package io.github.appsetmapper.metrics;

import io.github.appsetmapper.redis.RedisStats;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Locale;

/** The metrics of {@code serve --redis}: every label value registered up front, read at scrape. */
final class RedisMetrics {
  private RedisMetrics() {}

  static void bind(MeterRegistry registry, RedisStats stats) {
    Gauge.builder("appset_mapper.redis.up", stats, s -> s.up() ? 1 : 0)
        .description("1 while Redis answers; 0 while this replica runs on its own memory")
        .register(registry);
    Gauge.builder("appset_mapper.redis.lease.waiting", stats, RedisStats::waiting)
        .description("getparams waiting now for a listing another replica is fetching")
        .register(registry);
    FunctionCounter.builder("appset_mapper.redis.skipped", stats, RedisStats::skipped)
        .description(
            "Redis operations not tried because Redis was down: each one answered from this"
                + " replica's memory")
        .register(registry);
    for (RedisStats.Op op : RedisStats.Op.values()) {
      FunctionCounter.builder("appset_mapper.redis.errors", stats, s -> s.errors(op))
          .description("Redis operations that failed (timeout, connection lost, error answer)")
          .tag("op", label(op))
          .register(registry);
    }
    for (RedisStats.Sealed what : RedisStats.Sealed.values()) {
      FunctionCounter.builder(
              "appset_mapper.redis.integrity.failures", stats, s -> s.integrityFailures(what))
          .description(
              "Values and messages read from Redis that failed their integrity check: ignored")
          .tag("kind", label(what))
          .register(registry);
    }
    for (RedisStats.Lease result : RedisStats.Lease.values()) {
      FunctionCounter.builder("appset_mapper.redis.leases", stats, s -> s.leases(result))
          .description(
              "Listings fetched once across replicas: won (fetched it), waited (took another"
                  + " replica's), gave_up (fetched on its own while there was still time)")
          .tag("result", label(result))
          .register(registry);
    }
    for (RedisStats.NotShared reason : RedisStats.NotShared.values()) {
      FunctionCounter.builder("appset_mapper.redis.not.shared", stats, s -> s.notShared(reason))
          .description("Listings kept out of Redis: too_large, or holding a secret value")
          .tag("reason", label(reason))
          .register(registry);
    }
  }

  private static String label(Enum<?> value) {
    return value.name().toLowerCase(Locale.ROOT);
  }
}
