package io.github.appsetmapper.server;

import io.github.appsetmapper.engine.Engine;
import io.undertow.Undertow;
import io.undertow.UndertowOptions;
import java.net.InetSocketAddress;
import java.util.concurrent.atomic.AtomicReference;

/** The Undertow server: one listener, one handler, the mapping registry swapped atomically. */
public final class AppServer implements AutoCloseable {
  private final Undertow undertow;
  private final AtomicReference<MappingRegistry> registry;
  private final RootHandler handler;

  public AppServer(ServerOptions options, MappingRegistry initial, Engine engine) {
    this.registry = new AtomicReference<>(initial);
    this.handler = new RootHandler(options, registry, engine);
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
  }

  @Override
  public void close() {
    stopAccepting();
    undertow.stop();
  }
}
