package io.github.appsetmapper.cli;

import io.github.appsetmapper.config.Durations;
import io.github.appsetmapper.reload.MappingReloader;
import io.github.appsetmapper.runtime.AppRuntime;
import io.github.appsetmapper.server.AppServer;
import io.github.appsetmapper.shadow.Shadow;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Option;

/**
 * The {@code serve} options of time (reloads, draining on SIGTERM, connection timeouts), and the
 * stop on SIGTERM they govern.
 */
final class ServeTimings {
  private static final Logger LOG = LoggerFactory.getLogger("appset_mapper.serve");

  @Option(
      names = "--reload-interval",
      paramLabel = "<duration>",
      defaultValue = "2s",
      converter = DurationConverter.class,
      description = "How often mapping files are checked for changes (default ${DEFAULT-VALUE}).")
  Duration reloadInterval;

  @Option(
      names = "--drain-delay",
      paramLabel = "<duration>",
      defaultValue = "5s",
      converter = DurationConverter.class,
      description =
          "On SIGTERM, how long readiness fails while requests are still served, so that the"
              + " Service stops routing here first (default ${DEFAULT-VALUE}).")
  Duration drainDelay;

  @Option(
      names = "--grace-period",
      paramLabel = "<duration>",
      defaultValue = "20s",
      converter = DurationConverter.class,
      description =
          "Then, how long requests in flight may take to finish (default ${DEFAULT-VALUE}).")
  Duration gracePeriod;

  @Option(
      names = "--idle-timeout",
      paramLabel = "<duration>",
      defaultValue = "120s",
      converter = DurationConverter.class,
      description =
          "How long a connection may wait for its next request (default ${DEFAULT-VALUE}). Keep"
              + " it above 90s: Argo CD's Go client reuses connections idle for up to 90 s.")
  Duration idleTimeout;

  @Option(
      names = "--read-timeout",
      paramLabel = "<duration>",
      defaultValue = "10s",
      converter = DurationConverter.class,
      description =
          "How long a request's line, headers and body may take to arrive; a slower body has its"
              + " connection closed (default ${DEFAULT-VALUE}).")
  Duration readTimeout;

  /**
   * SIGTERM: not ready at once, serve through the drain delay, let requests in flight finish. It
   * returns within about drain + grace + 1 s whatever a worker does (see AppServer.shutdown); a
   * server not listening yet has nothing to drain.
   */
  void stop(
      AtomicReference<AppServer> serving,
      MappingReloader reloader,
      Shadow shadow,
      AppRuntime runtime,
      CountDownLatch stopped) {
    reloader.close();
    AppServer server = serving.get();
    if (server != null) {
      LOG.info(
          "stopping: not ready from now, serving {} more, then up to {} for requests in flight",
          Durations.format(drainDelay),
          Durations.format(gracePeriod));
      try {
        if (!server.shutdown(drainDelay, gracePeriod)) {
          LOG.warn("requests still in flight after the grace period were cut off");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    if (shadow != null) {
      shadow.close();
    }
    runtime.close();
    LOG.info("stopped");
    LogFormat.flush();
    stopped.countDown();
  }
}
