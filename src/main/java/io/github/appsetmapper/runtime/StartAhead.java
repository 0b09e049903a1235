package io.github.appsetmapper.runtime;

import io.github.appsetmapper.compile.CompiledMapping;
import io.github.appsetmapper.engine.Engine;
import io.github.appsetmapper.server.MappingRegistry;
import io.github.appsetmapper.upstream.HttpUpstream;
import io.github.appsetmapper.upstream.call.Upstream;
import io.github.appsetmapper.upstream.tls.RoutingTlsStrategy;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * What {@code serve} needs soon but not first, made on a thread of its own: the metrics registry
 * with its JVM meters and, once the first load says its mappings make calls, the HTTP client and
 * the JVM's default TLS setup (about 500 classes that a server of mappings without calls never
 * uses: a mapping loaded later makes them on its first call). The caller meanwhile loads and
 * compiles the mappings, on the other core where there is one; whoever asks for the metrics or
 * calls first waits for them (a failure here is made again, and reported, by that call).
 */
final class StartAhead {
  private final CompletableFuture<Boolean> calls = new CompletableFuture<>();

  void start(Runnable metrics, Upstream transport) {
    Thread ahead =
        new Thread(
            () -> {
              try {
                metrics.run();
              } catch (RuntimeException | LinkageError e) {
                // Made again by whoever asks for the metrics, which reports what fails.
              }
              if (calls.join()) {
                makeClient(transport);
              }
            },
            "start-ahead");
    ahead.setDaemon(true);
    ahead.start();
  }

  /** The first load's mappings: the client is made ahead only where one of them makes calls. */
  void firstLoad(List<CompiledMapping> loaded) {
    calls.complete(loaded.stream().anyMatch(Engine::makesCalls));
  }

  /**
   * Before a reloaded registry answers: where one of its mappings calls, the client is made now, on
   * the reloading thread, not inside the first getparams' deadline (a mapping that calls, loaded
   * into a server of mappings without calls, had its first HTTPS call pay about a second for it).
   * The first load's registry is left to the start-ahead thread.
   */
  void beforeServing(MappingRegistry registry, Upstream transport) {
    if (calls.isDone()
        && registry.names().stream()
            .map(registry::find)
            .flatMap(java.util.Optional::stream)
            .anyMatch(Engine::makesCalls)) {
      makeClient(transport);
    }
  }

  /** The HTTP client and the JVM's default TLS setup, made now (once: later calls find them). */
  private static void makeClient(Upstream transport) {
    if (transport instanceof HttpUpstream http) {
      try {
        http.prepare();
        RoutingTlsStrategy.prepareSystemDefault();
      } catch (RuntimeException | LinkageError e) {
        // Made again by the call that needs it, which reports what fails.
      }
    }
  }

  /** The runtime closes: nothing more is made. */
  void close() {
    calls.complete(false);
  }
}
