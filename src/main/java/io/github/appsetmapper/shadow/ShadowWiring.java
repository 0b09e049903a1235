package io.github.appsetmapper.shadow;

import io.github.appsetmapper.engine.Engine;
import io.github.appsetmapper.runtime.AppRuntime;
import io.github.appsetmapper.upstream.HttpUpstream;
import io.github.appsetmapper.upstream.cache.MemoryBudget;
import io.github.appsetmapper.upstream.call.Upstream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Builds shadow mode from a runtime's parts, here above the runtime (the runtime knows nothing of
 * shadows: the arrows go one way, cli -> shadow -> runtime).
 */
public final class ShadowWiring {
  private ShadowWiring() {}

  /**
   * Shadow mode over {@code runtime}'s transport: the candidates of {@code candidates} loaded as
   * the live mappings are (a candidate that does not load is reported, never fatal), on an engine
   * of their own: their own enrich pool and memory budget, no cache entries, their own {@code
   * maxDrop} memory, nothing shared with Redis, and at its front the live calls' answers and the
   * rate-limit headroom the live transport saw. Close the shadow before the runtime.
   */
  public static Shadow start(AppRuntime runtime, List<Path> candidates, ShadowSettings settings) {
    Upstream transport = runtime.transport();
    ExecutorService candidatePool =
        Executors.newFixedThreadPool(
            Math.max(2, settings.threads() * 4), AppRuntime.daemon("shadow-enrich"));
    LiveAnswers answers =
        new LiveAnswers(
            transport instanceof HttpUpstream http ? () -> http.rateLimits().snapshot() : Map::of,
            settings.minHeadroomPercent());
    // Connections of their own: a candidate's calls must never take the per-host slots
    // (--host-max-connections) that live calls wait for. A replay or a test's transport is shared.
    Upstream candidateTransport =
        runtime.httpOptions() != null ? new HttpUpstream(runtime.httpOptions()) : transport;
    AutoCloseable ownTransport = candidateTransport == transport ? () -> {} : candidateTransport;
    Engine candidateEngine =
        Engine.builder()
            .transport(candidateTransport)
            .pool(candidatePool)
            .redactor(runtime.redactor())
            .clock(runtime.clock())
            .memoryBudget(MemoryBudget.withoutCache(settings.memoryBudget()))
            .ticker(runtime.ticker())
            .sharing(Engine.Sharing.ALONE)
            .front(answers::around)
            .build();
    return new Shadow(
        candidateEngine,
        answers,
        runtime.load(candidates),
        settings,
        runtime.metrics(),
        runtime.redactor(),
        candidatePool,
        ownTransport);
  }
}
