package io.github.appsetmapper.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The Prometheus metrics ({@code GET /metrics}). Names follow Prometheus conventions once rendered:
 * {@code appset_mapper_getparams_requests_total}, {@code appset_mapper_getparams_duration_seconds},
 * {@code appset_mapper_upstream_requests_total} ... Label values are bounded: mappings by the names
 * loaded, hosts by what mappings call.
 */
public final class Metrics {
  private static final Duration[] LATENCY_BUCKETS = {
    Duration.ofMillis(5), Duration.ofMillis(10), Duration.ofMillis(25), Duration.ofMillis(50),
    Duration.ofMillis(100), Duration.ofMillis(250), Duration.ofMillis(500), Duration.ofSeconds(1),
    Duration.ofMillis(2500), Duration.ofSeconds(5), Duration.ofSeconds(10), Duration.ofSeconds(25)
  };

  private final PrometheusMeterRegistry registry =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final Map<String, AtomicInteger> loadStates = new ConcurrentHashMap<>();
  private final AtomicInteger mappingsLoaded = new AtomicInteger();
  private final AtomicInteger failingFiles = new AtomicInteger();

  public Metrics() {
    new JvmMemoryMetrics().bindTo(registry);
    new JvmGcMetrics().bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new ClassLoaderMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    new UptimeMetrics().bindTo(registry);
    new FileDescriptorMetrics().bindTo(registry);
    Gauge.builder("appset_mapper.mappings", mappingsLoaded, AtomicInteger::get)
        .description("Mappings being served")
        .register(registry);
    Gauge.builder("appset_mapper.mapping.files.failing", failingFiles, AtomicInteger::get)
        .description("Mapping files failing to load now (their previous version, if any, serves)")
        .register(registry);
    // At 0 from the start: increase() sees the first event of a pod only as a step from 0.
    reloadCounter("ok");
    reloadCounter("error");
    tracesDroppedCounter("queue_full");
    tracesDroppedCounter("export_failed");
  }

  /** The meters of one label set, looked up once: registering on every call costs per request. */
  private record GetparamsMeters(Counter requests, Timer duration) {}

  /** A getparams meters' key: a record of the int, not a list of two strings made per answer. */
  private record GetparamsKey(String mapping, int status) {}

  private record RowMeters(DistributionSummary rows, Counter empty) {}

  private record UpstreamMeters(Counter requests, Timer duration) {}

  private final Map<GetparamsKey, GetparamsMeters> getparamsMeters = new ConcurrentHashMap<>();
  private final Map<String, RowMeters> rowMeters = new ConcurrentHashMap<>();
  private final Map<List<String>, UpstreamMeters> upstreamMeters = new ConcurrentHashMap<>();

  /** One getparams answer. {@code mapping} must be a loaded name or "unknown". */
  public void getparams(String mapping, int status, long nanos, int rows) {
    GetparamsMeters meters = getparamsMeters(mapping, status);
    meters.requests().increment();
    meters.duration().record(nanos, TimeUnit.NANOSECONDS);
    if (rows < 0) {
      return;
    }
    RowMeters perMapping = rowMeters(mapping);
    perMapping.rows().record(rows);
    if (rows == 0) {
      perMapping.empty().increment();
    }
  }

  /** The HTTP statuses labelled as they are; any other is labelled by its class ("2xx"). */
  private static final Set<Integer> NAMED_STATUSES =
      Set.of(
          200, 201, 202, 203, 204, 206, 301, 302, 303, 304, 307, 308, 400, 401, 403, 404, 405, 406,
          408, 409, 410, 412, 413, 415, 422, 429, 500, 501, 502, 503, 504);

  /**
   * An upstream status as a label value: the common ones as they are, others by class, anything
   * outside 100-599 "other". An upstream chooses its statuses: each value is a time series.
   */
  public static String statusLabel(int status) {
    if (NAMED_STATUSES.contains(status)) {
      return Integer.toString(status);
    }
    return status >= 100 && status <= 599 ? status / 100 + "xx" : "other";
  }

  /**
   * Registers a mapping's meters for a successful getparams before its first call (at load): the
   * first getparams does not pay for it, and the series exist from the start, at 0.
   */
  public void prepareGetparams(String mapping) {
    for (int status : PREPARED_STATUSES) {
      getparamsMeters(mapping, status);
    }
    rowMeters(mapping);
    // The rare events the alerts count with increase(): a counter born at its first event, at 1,
    // shows no step, and the first refusal or stale answer of a pod would never alert.
    for (String guard : GUARDS) {
      guardCounter(mapping, guard);
    }
    staleCounter(mapping);
    movedCounter(mapping);
  }

  /**
   * The meter of {@code key}, made on first use. A plain read first: {@code computeIfAbsent} locks
   * the key's bin whenever the key is not the bin's first, on every call, and every getparams
   * passes here.
   */
  private static <K, V> V known(Map<K, V> meters, K key, java.util.function.Function<K, V> make) {
    V known = meters.get(key);
    return known != null ? known : meters.computeIfAbsent(key, make);
  }

  /** The getparams statuses registered at 0 per mapping: success and the errors alerted on. */
  private static final List<Integer> PREPARED_STATUSES = List.of(200, 400, 500, 502, 503, 504);

  /** The guards that refuse answers, as {@code guardRefused} labels them. */
  private static final List<String> GUARDS = List.of("minItems", "maxDrop", "maxDrop_unknown");

  private GetparamsMeters getparamsMeters(String mapping, int status) {
    return known(
        getparamsMeters,
        new GetparamsKey(mapping, status),
        key -> {
          Tags tags = Tags.of("mapping", key.mapping(), "status", Integer.toString(key.status()));
          return new GetparamsMeters(
              Counter.builder("appset_mapper.getparams.requests")
                  .description("getparams calls answered, by mapping and HTTP status")
                  .tags(tags)
                  .register(registry),
              Timer.builder("appset_mapper.getparams.duration")
                  .description("Time to answer getparams")
                  .tags(tags)
                  .serviceLevelObjectives(LATENCY_BUCKETS)
                  .register(registry));
        });
  }

  private RowMeters rowMeters(String mapping) {
    return known(
        rowMeters,
        mapping,
        name ->
            new RowMeters(
                DistributionSummary.builder("appset_mapper.getparams.rows")
                    .description("Parameter maps (Applications) per successful answer")
                    .tags("mapping", name)
                    .serviceLevelObjectives(1, 5, 10, 50, 100, 500, 1000)
                    .register(registry),
                // An empty answer deletes every Application of the ApplicationSet: its own
                // counter, for an alert.
                Counter.builder("appset_mapper.getparams.empty")
                    .description(
                        "Successful answers with no parameters (Argo CD deletes the"
                            + " Applications)")
                    .tag("mapping", name)
                    .register(registry)));
  }

  /** One upstream call; {@code status} is the HTTP status, or "error" when none came. */
  public void upstream(String mapping, String host, String status, long nanos) {
    UpstreamMeters meters =
        known(
            upstreamMeters,
            List.of(mapping, host, status),
            key -> {
              Tags tags = Tags.of("mapping", key.get(0), "host", key.get(1), "status", key.get(2));
              return new UpstreamMeters(
                  Counter.builder("appset_mapper.upstream.requests")
                      .description("Upstream calls, by mapping, host and HTTP status")
                      .tags(tags)
                      .register(registry),
                  Timer.builder("appset_mapper.upstream.duration")
                      .description("Upstream call latency")
                      .tags(tags)
                      .serviceLevelObjectives(LATENCY_BUCKETS)
                      .register(registry));
            });
    meters.requests().increment();
    meters.duration().record(nanos, TimeUnit.NANOSECONDS);
  }

  private final Map<List<String>, Counter> counters = new ConcurrentHashMap<>();

  private Counter counter(String name, String description, String... tags) {
    List<String> key = new java.util.ArrayList<>(List.of(tags));
    key.add(0, name);
    return known(
        counters,
        key,
        k -> Counter.builder(name).description(description).tags(tags).register(registry));
  }

  /**
   * An upstream answer of a request with a cache policy: {@code hit}, {@code miss}, {@code
   * revalidated} (a 304) or {@code stale} (standing in for a failing upstream).
   */
  public void cache(String mapping, String result) {
    counter(
            "appset_mapper.upstream.cache",
            "Answers of cached requests: hit, miss, revalidated (304) or stale",
            "mapping",
            mapping,
            "result",
            result)
        .increment();
  }

  /** An upstream call not made: an identical one in flight for another getparams answered it. */
  public void coalescedCall(String mapping) {
    counter(
            "appset_mapper.upstream.coalesced",
            "Upstream calls answered by an identical call in flight for another getparams",
            "mapping",
            mapping)
        .increment();
  }

  /**
   * A getparams of a mapping without upstream calls begun on the IO thread and moved to a worker:
   * its expressions outgrew the inline step slice, so it was run again from the start there.
   */
  public void movedToWorker(String mapping) {
    movedCounter(mapping).increment();
  }

  private Counter movedCounter(String mapping) {
    return counter(
        "appset_mapper.getparams.moved",
        "getparams begun on the IO thread and moved to a worker: their expressions outgrew the"
            + " inline step slice",
        "mapping",
        mapping);
  }

  /** A getparams answered with the answer of an identical getparams in flight. */
  public void coalescedGetparams(String mapping) {
    counter(
            "appset_mapper.getparams.coalesced",
            "getparams answered by an identical getparams in flight",
            "mapping",
            mapping)
        .increment();
  }

  /**
   * A request not sent because it would have gone where it must not: {@code path-segment} or {@code
   * header-value}. Input doing this is probing, or a mapping missing a {@code pattern}.
   */
  public void refusedRequest(String mapping, String reason) {
    counter(
            "appset_mapper.upstream.requests.refused",
            "Upstream requests refused before they were sent: a path segment that climbs"
                + " (path-segment), a line break or control character in a header (header-value)",
            "mapping",
            mapping,
            "reason",
            reason)
        .increment();
  }

  /**
   * An upstream answer refused as incomplete or unreadable: {@code reason} is one of
   * incomplete-status, duplicate-key, number-bounds, not-json, not-unicode, json-limit, not-yaml,
   * yaml-limit, yaml-unsupported, not-text, text-limit, missing-container, cursor-holder,
   * cursor-stuck, malformed-signal, listing-cut, identical-page, listing-changed, unpaginated,
   * memory-budget, ended-by-close.
   */
  public void refusedAnswer(String mapping, String reason) {
    counter(
            "appset_mapper.upstream.refused",
            "Upstream answers refused as incomplete or unreadable, by reason",
            "mapping",
            mapping,
            "reason",
            reason)
        .increment();
  }

  /** An answer a guard refused (502/503) so that Argo CD keeps its Applications. */
  public void guardRefused(String mapping, String guard) {
    guardCounter(mapping, guard).increment();
  }

  private Counter guardCounter(String mapping, String guard) {
    return counter(
        "appset_mapper.guard.refused",
        "getparams answers refused by a guard (minItems, maxDrop, maxDrop_unknown)",
        "mapping",
        mapping,
        "guard",
        guard);
  }

  /** Trace spans dropped instead of exported: {@code queue_full}, {@code export_failed}. */
  public void tracesDropped(String reason, long spans) {
    tracesDroppedCounter(reason).increment(spans);
  }

  private Counter tracesDroppedCounter(String reason) {
    return counter(
        "appset_mapper.traces.dropped",
        "trace spans dropped instead of exported (the queue was full or the collector failed)",
        "reason",
        reason);
  }

  /** A getparams answered (in part) from stale cache entries because the upstream failed. */
  public void staleAnswer(String mapping) {
    staleCounter(mapping).increment();
  }

  private Counter staleCounter(String mapping) {
    return counter(
        "appset_mapper.getparams.stale",
        "getparams answered from the last good upstream answers because the upstream failed",
        "mapping",
        mapping);
  }

  /**
   * A request the server refused before (or instead of) answering it: {@code route} is one of a
   * fixed set (getparams, explain, mappings, guard_reset, cache_invalidate), {@code reason} names
   * the refusal (forbidden, body_too_large, body_timeout, bad_application_set_name, ...).
   */
  public void refused(String route, String reason) {
    counter(
            "appset_mapper.requests.refused",
            "Requests refused by the server, by route and reason",
            "route",
            route,
            "reason",
            reason)
        .increment();
  }

  /** The {@code maxDrop} baselines held and evicted, read at each scrape. */
  public void bindGuard(io.github.appsetmapper.engine.DropGuard guard) {
    Gauge.builder("appset_mapper.guard.baselines", guard, g -> g.size())
        .description("maxDrop baselines held (mapping, input, ApplicationSet)")
        .register(registry);
    io.micrometer.core.instrument.FunctionCounter.builder(
            "appset_mapper.guard.evictions", guard, g -> g.evictions())
        .description(
            "maxDrop baselines evicted because the bound was reached: the guard is off for those"
                + " inputs until their next answer")
        .register(registry);
  }

  /** The cache's size, evictions and the memory budget, read at each scrape. */
  public void bind(io.github.appsetmapper.upstream.cache.SharedCalls calls) {
    Gauge.builder("appset_mapper.cache.entries", calls, c -> c.cachedEntries())
        .description("Upstream answers in the cache")
        .register(registry);
    Gauge.builder("appset_mapper.cache.bytes", calls, c -> c.cachedBytes())
        .description("Bytes of upstream answers in the cache, as weighed")
        .register(registry);
    io.micrometer.core.instrument.FunctionCounter.builder(
            "appset_mapper.cache.evictions", calls, c -> c.evictions())
        .description("Cache entries evicted for size or retention")
        .register(registry);
    Gauge.builder("appset_mapper.upstream.calls.waiting", calls, c -> c.waiting())
        .description("Calls waiting now for an identical listing another caller is fetching")
        .register(registry);
    Gauge.builder("appset_mapper.memory.inflight.bytes", calls, c -> c.budget().inFlightBytes())
        .description("Bytes of upstream answers held by getparams in flight")
        .register(registry);
    Gauge.builder("appset_mapper.memory.budget.bytes", calls, c -> c.budget().total())
        .description("The memory budget for upstream answers in flight and in the cache")
        .register(registry);
  }

  /** Getparams waiting now for an identical one in flight, read at each scrape. */
  public void bindWaitingGetparams(java.util.function.IntSupplier waiting) {
    Gauge.builder("appset_mapper.getparams.waiting", waiting, w -> w.getAsInt())
        .strongReference(true)
        .description("Getparams waiting now for the answer of an identical one in flight")
        .register(registry);
  }

  /** Token and webhook secret files refused at their last look, read at each scrape. */
  public void bindSecretFilesFailing(java.util.function.IntSupplier failing) {
    Gauge.builder("appset_mapper.secret.files.failing", failing, f -> f.getAsInt())
        .strongReference(true)
        .description("Token and webhook secret files refused at their last look (kept tokens)")
        .register(registry);
  }

  /** The transport's timeout tasks queued: about the calls in flight, never a backlog. */
  public void bindTransport(io.github.appsetmapper.upstream.HttpUpstream http) {
    Gauge.builder("appset_mapper.upstream.timeouts.pending", http, h -> h.pendingTimeouts())
        .description("Upstream call timeouts scheduled (one per call in flight)")
        .register(registry);
  }

  /** What the Redis level shares and how it fails, read at each scrape ({@code serve --redis}). */
  public void bindRedis(io.github.appsetmapper.redis.RedisStats stats) {
    RedisMetrics.bind(registry, stats);
  }

  /** The load state of each mapping: 1 loaded as written, 0 serving a previous version. */
  public void loadStates(Map<String, Boolean> current) {
    mappingsLoaded.set(current.size());
    for (Map.Entry<String, Boolean> entry : current.entrySet()) {
      loadStates
          .computeIfAbsent(
              entry.getKey(),
              name -> {
                AtomicInteger value = new AtomicInteger();
                Gauge.builder("appset_mapper.mapping.loaded", value, AtomicInteger::get)
                    .description(
                        "1 when the mapping's file loaded, 0 when a previous version serves")
                    .tag("mapping", name)
                    .register(registry);
                return value;
              })
          .set(entry.getValue() ? 1 : 0);
    }
    Set<String> gone = Set.copyOf(loadStates.keySet());
    for (String name : gone) {
      if (!current.containsKey(name)) {
        registry
            .find("appset_mapper.mapping.loaded")
            .tag("mapping", name)
            .meters()
            .forEach(registry::remove);
        loadStates.remove(name);
      }
    }
  }

  /** A reload attempt: {@code ok} or {@code error}. */
  public void reload(String result) {
    reloadCounter(result).increment();
  }

  private Counter reloadCounter(String result) {
    return Counter.builder("appset_mapper.reloads")
        .description("Mapping reloads, by result")
        .tag("result", result)
        .register(registry);
  }

  /**
   * Mapping files failing to load now: a file that never loaded serves nothing (no {@code
   * mapping_loaded} series), and a failure repeated at each reload adds no new step to {@code
   * reloads_total}; this gauge stays up while any file is broken.
   */
  public void failingFiles(int files) {
    failingFiles.set(files);
  }

  /** The Prometheus text exposition. */
  public String scrape() {
    return registry.scrape();
  }

  private final AtomicInteger shadowLoaded = new AtomicInteger();
  private final AtomicInteger shadowFailed = new AtomicInteger();
  private final java.util.concurrent.atomic.AtomicBoolean shadowBound =
      new java.util.concurrent.atomic.AtomicBoolean();

  /** Candidates ({@code serve --shadow}) that loaded, and problems of those that did not. */
  public void shadowCandidates(int loaded, int problems) {
    shadowLoaded.set(loaded);
    shadowFailed.set(problems);
    if (shadowBound.compareAndSet(false, true)) {
      Gauge.builder("appset_mapper.shadow.candidates", shadowLoaded, AtomicInteger::get)
          .description("Shadow candidates loaded (state=loaded) and load problems (state=failed)")
          .tag("state", "loaded")
          .register(registry);
      Gauge.builder("appset_mapper.shadow.candidates", shadowFailed, AtomicInteger::get)
          .description("Shadow candidates loaded (state=loaded) and load problems (state=failed)")
          .tag("state", "failed")
          .register(registry);
    }
  }

  /**
   * A candidate run: {@code same}, {@code different}, {@code failed} (the candidate answered an
   * error the live did not), {@code skipped_busy}, {@code skipped_headroom} or {@code
   * skipped_deadline}.
   */
  public void shadowRun(String mapping, String result) {
    counter(
            "appset_mapper.shadow.runs",
            "Shadow candidate runs, by result",
            "mapping",
            mapping,
            "result",
            result)
        .increment();
  }

  /** Rows a candidate would add, remove and change against the live answer. */
  public void shadowRows(String mapping, int added, int removed, int changed) {
    String description = "Rows a shadow candidate would add, remove or change against the live";
    counter("appset_mapper.shadow.rows", description, "mapping", mapping, "change", "added")
        .increment(added);
    counter("appset_mapper.shadow.rows", description, "mapping", mapping, "change", "removed")
        .increment(removed);
    counter("appset_mapper.shadow.rows", description, "mapping", mapping, "change", "changed")
        .increment(changed);
  }
}
