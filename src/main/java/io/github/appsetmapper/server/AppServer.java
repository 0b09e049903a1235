package io.github.appsetmapper.server;

import io.github.appsetmapper.engine.Engine;
import io.github.appsetmapper.metrics.Metrics;
import io.undertow.Undertow;
import io.undertow.UndertowOptions;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;

/** The Undertow server: one listener, the routes, the mapping registry swapped atomically. */
public final class AppServer implements AutoCloseable {
  /**
   * After the grace period, how long stopping waits for workers before interrupting them: a worker
   * stuck on anything never holds the process past it.
   */
  static final int WORKER_STOP_MILLIS = 1000;

  private final Undertow undertow;
  private final AtomicReference<MappingRegistry> registry;
  private final Engine engine;
  private final Metrics metrics;
  private final ServerState state = new ServerState();
  private final Routes routes;

  public AppServer(ServerOptions options, MappingRegistry initial, Engine engine) {
    this(options, initial, engine, new Metrics());
  }

  public AppServer(ServerOptions options, MappingRegistry initial, Engine engine, Metrics metrics) {
    this(options, initial, engine, metrics, Shadowing.NONE);
  }

  /** With candidate mappings beside the live ones ({@code serve --shadow}). */
  public AppServer(
      ServerOptions options,
      MappingRegistry initial,
      Engine engine,
      Metrics metrics,
      Shadowing shadowing) {
    this.registry = new AtomicReference<>(initial);
    this.engine = engine;
    this.metrics = metrics;
    this.routes = new Routes(options, state, registry, engine, metrics, shadowing);
    metrics.bind(engine.calls());
    metrics.bindWaitingGetparams(engine::waitingGetparams);
    metrics.bindGuard(engine.guard());
    Tokens tokens = options.tokens();
    WebhookSecret webhook = options.webhookSecret();
    metrics.bindSecretFilesFailing(
        () ->
            (tokens == null ? 0 : tokens.failingFiles())
                + (webhook == null ? 0 : webhook.failingFiles()));
    this.undertow =
        Undertow.builder()
            .addHttpListener(options.port(), options.host())
            .setIoThreads(options.ioThreads())
            .setWorkerThreads(options.workerThreads())
            // Between requests: longer than Go's 90 s idle keep-alive, so Argo CD's client closes
            // an idle connection before the server does and never sends on a closing one.
            .setServerOption(UndertowOptions.NO_REQUEST_TIMEOUT, millis(options.idleTimeout()))
            // The request line and headers; the body is bounded by ReadDeadline.
            .setServerOption(UndertowOptions.REQUEST_PARSE_TIMEOUT, millis(options.readTimeout()))
            // The most a refused body is drained (BodyDrain); each route bounds its own body.
            .setServerOption(
                UndertowOptions.MAX_ENTITY_SIZE,
                BodyDrain.capFor(Math.max(options.maxBodyBytes(), options.webhookMaxBodyBytes())))
            .setServerOption(UndertowOptions.SHUTDOWN_TIMEOUT, WORKER_STOP_MILLIS)
            .setServerOption(UndertowOptions.MAX_HEADER_SIZE, 64 * 1024)
            .setServerOption(UndertowOptions.ALWAYS_SET_DATE, true)
            .setHandler(routes)
            .build();
  }

  private static int millis(Duration duration) {
    return (int) Math.min(Integer.MAX_VALUE, duration.toMillis());
  }

  public AppServer start() {
    // The warm-up runs beside Undertow's start, on the other core where there is one: a getparams
    // that comes before it ends waits only for what they share (a class being initialised).
    Thread warming = new Thread(() -> Warmup.warm(registry.get(), engine, metrics), "warm-up");
    warming.setDaemon(true);
    warming.start();
    undertow.start();
    try {
      warming.join(); // ready once warm, as before
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    Warmup.probe(port());
    state.ready(true);
    return this;
  }

  /**
   * Readiness also waits for {@code settled} (true once what the server depends on has started: the
   * first answer of Redis, or a bounded wait for it).
   */
  public void readyWhen(java.util.function.BooleanSupplier settled) {
    state.settledWhen(settled);
  }

  /** The port actually bound (for {@code --port 0} in tests). */
  public int port() {
    return ((InetSocketAddress) undertow.getListenerInfo().get(0).getAddress()).getPort();
  }

  public void swap(MappingRegistry next) {
    Warmup.warm(next, engine, metrics);
    registry.set(next);
  }

  public MappingRegistry registry() {
    return registry.get();
  }

  /** From now on readiness fails and getparams answers 503; requests already running finish. */
  public void stopAccepting() {
    state.stopAccepting();
  }

  /**
   * Stops as a rolling update needs: readiness fails at once while requests are still served for
   * {@code drain} (so Endpoints and kube-proxy stop sending traffic here), then new requests get
   * 503 and those in flight get up to {@code grace} to finish, then the listener closes and workers
   * still busy are interrupted after {@link #WORKER_STOP_MILLIS}. It returns within about {@code
   * drain + grace + 1 s} whatever a worker is doing.
   *
   * @return true when every request in flight finished within the grace period
   */
  public boolean shutdown(Duration drain, Duration grace) throws InterruptedException {
    state.ready(false);
    // A deliberate wait, not a poll: Endpoints need this long to stop routing here.
    Thread.sleep(drain.toMillis());
    state.stopAccepting();
    routes.work().shutdown();
    boolean finished;
    try {
      finished = routes.work().awaitShutdown(grace.toMillis());
    } finally {
      undertow.stop();
      routes.closeScraper();
    }
    return finished;
  }

  @Override
  public void close() {
    stopAccepting();
    routes.work().shutdown();
    undertow.stop();
    routes.closeScraper();
  }
}
