package io.github.appsetmapper.server;

import io.github.appsetmapper.engine.Engine;
import io.github.appsetmapper.metrics.Metrics;
import io.undertow.Undertow;
import io.undertow.UndertowOptions;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;

/** The Undertow server: one listener, one handler, the mapping registry swapped atomically. */
public final class AppServer implements AutoCloseable {
  private final Undertow undertow;
  private final AtomicReference<MappingRegistry> registry;
  private final RootHandler handler;

  public AppServer(ServerOptions options, MappingRegistry initial, Engine engine) {
    this(options, initial, engine, new Metrics());
  }

  public AppServer(ServerOptions options, MappingRegistry initial, Engine engine, Metrics metrics) {
    this.registry = new AtomicReference<>(initial);
    this.handler = new RootHandler(options, registry, engine, metrics);
    metrics.bind(engine.calls());
    this.undertow =
        Undertow.builder()
            .addHttpListener(options.port(), options.host())
            .setIoThreads(options.ioThreads())
            .setWorkerThreads(options.workerThreads())
            .setServerOption(UndertowOptions.NO_REQUEST_TIMEOUT, 60_000)
            .setServerOption(UndertowOptions.REQUEST_PARSE_TIMEOUT, 30_000)
            .setServerOption(UndertowOptions.MAX_HEADER_SIZE, 64 * 1024)
            .setServerOption(UndertowOptions.ALWAYS_SET_DATE, true)
            .setHandler(handler)
            .build();
  }

  public AppServer start() {
    undertow.start();
    handler.ready(true);
    return this;
  }

  /** The port actually bound (for {@code --port 0} in tests). */
  public int port() {
    return ((InetSocketAddress) undertow.getListenerInfo().get(0).getAddress()).getPort();
  }

  public void swap(MappingRegistry next) {
    registry.set(next);
  }

  public MappingRegistry registry() {
    return registry.get();
  }

  /** From now on readiness fails and getparams answers 503; requests already running finish. */
  public void stopAccepting() {
    handler.ready(false);
    handler.stopAccepting();
  }

  /**
   * Stops as a rolling update needs: readiness fails at once while requests are still served for
   * {@code drain} (so Endpoints and kube-proxy stop sending traffic here), then new requests get
   * 503 and those in flight get up to {@code grace} to finish, then the listener closes.
   *
   * @return true when every request in flight finished within the grace period
   */
  public boolean shutdown(Duration drain, Duration grace) throws InterruptedException {
    handler.ready(false);
    Thread.sleep(drain.toMillis());
    handler.stopAccepting();
    boolean finished = handler.awaitIdle(grace);
    undertow.stop();
    return finished;
  }

  @Override
  public void close() {
    stopAccepting();
    undertow.stop();
  }
}
