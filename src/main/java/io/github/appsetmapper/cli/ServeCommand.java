package io.github.appsetmapper.cli;

import io.github.appsetmapper.compile.MappingLoader;
import io.github.appsetmapper.compile.VarValues;
import io.github.appsetmapper.config.Durations;
import io.github.appsetmapper.metrics.Metrics;
import io.github.appsetmapper.reload.MappingReloader;
import io.github.appsetmapper.runtime.AppRuntime;
import io.github.appsetmapper.server.AppServer;
import io.github.appsetmapper.server.MappingRegistry;
import io.github.appsetmapper.server.ServerOptions;
import io.github.appsetmapper.server.Shadowing;
import io.github.appsetmapper.server.Tokens;
import io.github.appsetmapper.server.WebhookSecret;
import io.github.appsetmapper.shadow.Shadow;
import io.github.appsetmapper.upstream.UpstreamOptions;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code serve}: answer Argo CD's getparams calls for every loaded mapping. */
@Command(
    name = "serve",
    mixinStandardHelpOptions = true,
    description = "Serve the mappings as an Argo CD plugin generator.")
final class ServeCommand extends RedactedCommand implements Callable<Integer> {
  static final String TOKEN_ENV = ServeSecrets.TOKEN_ENV;
  private static final Logger LOG = LoggerFactory.getLogger("appset_mapper.serve");

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(
      names = "--mappings",
      required = true,
      paramLabel = "PATH",
      description = "Mapping file or directory (repeatable); a directory loads its *.yaml/*.yml.")
  List<Path> mappings;

  @Option(names = "--var", paramLabel = VarOption.LABEL, description = VarOption.DESCRIPTION)
  Map<String, String> vars = Map.of();

  @Option(
      names = "--port",
      paramLabel = "<port>",
      defaultValue = "" + ServerOptions.DEFAULT_PORT,
      description = "Port (default ${DEFAULT-VALUE}; 0 picks one).")
  int port;

  @Option(
      names = "--host",
      paramLabel = "<address>",
      defaultValue = "0.0.0.0",
      description = "Address to listen on (default ${DEFAULT-VALUE}).")
  String host;

  @Option(
      names = "--token-file",
      paramLabel = "<path>",
      defaultValue = "/var/run/argo/token",
      description =
          "File with the bearer token(s) Argo CD sends, one per line, each 8 characters of"
              + " printable ASCII at the least, re-read when it changes"
              + " (default ${DEFAULT-VALUE}); the environment variable "
              + TOKEN_ENV
              + " wins when set.")
  Path tokenFile;

  @Option(
      names = "--insecure-no-auth",
      description = "Accept calls without a token. Never in production.")
  boolean insecureNoAuth;

  @Option(
      names = "--default-mapping",
      paramLabel = "NAME",
      description = "The mapping served at /api/v1/getparams.execute.")
  String defaultMapping;

  @Option(
      names = "--replay",
      paramLabel = "FILE",
      description =
          "Answer upstream calls from the recorded exchanges of a test file (offline demo).")
  Path replay;

  @Option(
      names = "--worker-threads",
      paramLabel = "<count>",
      defaultValue = "128",
      description = "Threads that run getparams calls (default ${DEFAULT-VALUE}).")
  int workerThreads;

  @Option(
      names = "--max-body-bytes",
      paramLabel = "<bytes>",
      defaultValue = "1048576",
      description = "Largest getparams request body (default ${DEFAULT-VALUE}).")
  long maxBodyBytes;

  @Option(
      names = "--webhook-secret-file",
      paramLabel = "FILE",
      description =
          "File with the secret(s) webhook senders present to POST"
              + " /mappings/<name>/cache/invalidate, one per line, each 8 characters of printable"
              + " ASCII at the least: as a bearer token, X-Gitlab-Token, or GitHub's"
              + " X-Hub-Signature-256 (HMAC-SHA256 of the body). Re-read when it changes.")
  Path webhookSecretFile;

  @Option(
      names = "--webhook-max-body-bytes",
      defaultValue = "256Ki",
      converter = ByteSizeConverter.class,
      paramLabel = "SIZE",
      description =
          "Largest body read to check a GitHub X-Hub-Signature-256 on cache/invalidate, read"
              + " before the caller is known (default ${DEFAULT-VALUE}).")
  long webhookMaxBodyBytes;

  @CommandLine.Mixin UpstreamFlags upstreamFlags = new UpstreamFlags();

  @CommandLine.Mixin ServeTimings timings = new ServeTimings();

  @CommandLine.Mixin RedisFlags redisFlags = new RedisFlags();

  @CommandLine.Mixin ShadowFlags shadowFlags = new ShadowFlags();

  @Option(
      names = "--log-format",
      paramLabel = "<format>",
      defaultValue = "text",
      description = "text or json (one JSON object per line); default ${DEFAULT-VALUE}.")
  LogFormat logFormat;

  @Override
  public Integer call() throws Exception {
    logFormat.apply();
    var err = Terminal.err(spec);
    String outOfRange = checkFlags();
    if (outOfRange != null) {
      err.println("error: " + outOfRange);
      err.flush();
      return ExitCode.USAGE;
    }
    Tokens tokens;
    try {
      tokens = insecureNoAuth ? null : ServeSecrets.tokens(tokenFile, err);
    } catch (ServeSecrets.Stop e) {
      return ExitCode.USAGE;
    }
    UpstreamOptions upstreamOptions;
    io.github.appsetmapper.redis.RedisSettings redis;
    try {
      upstreamOptions = upstreamFlags.options(workerThreads);
      redis = redisFlags.settings();
      shadowFlags.check();
    } catch (IllegalArgumentException e) {
      err.println("error: " + e.getMessage());
      err.flush();
      return 2;
    }
    WebhookSecret webhookSecret;
    try {
      webhookSecret = ServeSecrets.webhook(webhookSecretFile, err);
    } catch (ServeSecrets.Stop e) {
      return ExitCode.USAGE;
    }
    VarValues given = VarOption.parse(vars, err);
    if (given == null) {
      return ExitCode.USAGE;
    }
    AppRuntime runtime;
    try {
      runtime =
          runtimeBuilder()
              .vars(given)
              .http(replay == null ? upstreamOptions : null)
              .replay(replay)
              .enrichThreads(upstreamFlags.upstreamThreads)
              .memoryBudget(upstreamFlags.memoryBudget)
              .redis(redis)
              .tracing(System.getenv())
              .build();
    } catch (IllegalArgumentException e) {
      // Tracing's OTEL_* variables: the message names what was wrong.
      err.println("error: " + e.getMessage());
      err.flush();
      return ExitCode.USAGE;
    } catch (IOException e) {
      // The replay file (its message names it) or Redis's integrity keys file.
      err.println(
          "error: " + (replay != null ? "" : "--redis-integrity-keys-file: ") + e.getMessage());
      err.flush();
      return ExitCode.USAGE;
    }
    runtime.prepareAhead();
    AtomicReference<AppServer> serving = new AtomicReference<>();
    AtomicReference<MappingRegistry> latest = new AtomicReference<>();
    // Reloads keep what each bare --var was bound to at the first load.
    UnusedVars unused = new UnusedVars(given);
    String sources = String.join(", ", mappings.stream().map(Path::toString).toList());
    ReplayCheck replayed = new ReplayCheck(runtime, sources);
    MappingReloader reloader =
        runtime.reloader(
            mappings,
            defaultMapping,
            registry ->
                publish(replayed.note(unused.note(registry)), latest, serving, runtime.metrics()));
    // The first load refuses to start on any error (a rollout then stalls while the old pods
    // serve); later reloads keep a broken file's previous version serving instead.
    MappingLoader.Result loaded = runtime.loadFirst(reloader);
    if (VarOption.refused(loaded, err, false)) {
      ProblemPrinter.print(err, loaded.problems());
      runtime.close();
      return ExitCode.USAGE;
    }
    if (!loaded.ok()) {
      ProblemPrinter.print(err, loaded.problems());
      runtime.close();
      return 1;
    }
    String notReplayable = runtime.replayRefusal(loaded.mappings(), sources);
    if (notReplayable != null) {
      err.println("error: " + notReplayable);
      err.flush();
      runtime.close();
      return ExitCode.USAGE;
    }
    replayed.arm();
    try {
      MappingRegistry.of(loaded.mappings(), defaultMapping);
    } catch (IllegalArgumentException e) {
      err.println("error: " + e.getMessage());
      err.flush();
      runtime.close();
      return 2;
    }
    ServerOptions options =
        new ServerOptions(
                host,
                port,
                tokens,
                maxBodyBytes,
                Math.max(2, java.lang.Runtime.getRuntime().availableProcessors()),
                workerThreads,
                webhookSecret)
            .withTimeouts(timings.idleTimeout, timings.readTimeout)
            .withWebhookMaxBodyBytes(webhookMaxBodyBytes);
    Shadow shadow = shadowFlags.start(runtime);
    AppServer server =
        runtime.server(options, latest.get(), shadow == null ? Shadowing.NONE : shadow);
    // Registered before the listener opens: a SIGTERM from then on always finds its way out.
    CountDownLatch stopped = new CountDownLatch(1);
    // SIGTERM: the stop sequence, then exit 0 (not the JVM's 143); other exits run it as a hook.
    TermSignal.stopOn(() -> timings.stop(serving, reloader, shadow, runtime, stopped));
    try {
      server.start();
    } catch (RuntimeException e) {
      if (!(rootCause(e) instanceof java.net.BindException bind)) {
        throw e;
      }
      err.println(
          "error: cannot listen on "
              + host
              + ":"
              + port
              + ": "
              + (bind.getMessage() == null
                  ? "address unavailable"
                  : bind.getMessage().toLowerCase(java.util.Locale.ROOT))
              + " (another process holds it? choose another with --port)");
      err.flush();
      runtime.close();
      return ExitCode.PORT_IN_USE;
    }
    serving.set(server);
    reloader.start(timings.reloadInterval);
    if (timings.idleTimeout.compareTo(Duration.ofSeconds(90)) <= 0) {
      LOG.warn(
          "--idle-timeout {} is not above the 90 s Argo CD's Go client keeps idle connections:"
              + " it may send a request on a connection the server is closing",
          Durations.format(timings.idleTimeout));
    }
    String heapFit =
        HeapFit.warning(
            upstreamFlags.memoryBudget,
            shadowFlags.dirs.isEmpty() ? 0 : shadowFlags.memoryBudget,
            Runtime.getRuntime().maxMemory());
    if (heapFit != null) {
      LOG.warn(heapFit);
    }
    if (tokens == null) {
      LOG.warn(
          "!!! --insecure-no-auth: ANYONE who reaches port {} can call every mapping. Never run"
              + " this in production. !!!",
          server.port());
    }
    if (replay != null) {
      LOG.warn(
          "--replay {}: upstream calls are answered from recorded exchanges, not the network",
          replay);
    }
    LOG.info(
        "appset-mapper listening on {}:{} with {}: {}",
        host,
        server.port(),
        io.github.appsetmapper.text.Plural.of(latest.get().names().size(), "mapping"),
        String.join(", ", latest.get().names()));
    stopped.await();
    return 0;
  }

  /** The first numeric or address flag out of its range, as one line; null when none is. */
  private String checkFlags() {
    return new FlagChecks()
        .range("--port", port, 0, 65535)
        .address("--host", host)
        .range("--upstream-threads", upstreamFlags.upstreamThreads, 1, 1024)
        .range("--worker-threads", workerThreads, 1, 4096)
        .range("--max-body-bytes", maxBodyBytes, 1, FlagChecks.GI)
        .range("--host-max-connections", upstreamFlags.hostMaxConnections, 1, 10_000)
        .size("--memory-budget", upstreamFlags.memoryBudget, FlagChecks.MI, FlagChecks.TI)
        .size("--webhook-max-body-bytes", webhookMaxBodyBytes, 1, 64 * FlagChecks.MI)
        .duration(
            "--reload-interval",
            timings.reloadInterval,
            Duration.ofMillis(100),
            Duration.ofHours(1))
        .duration("--drain-delay", timings.drainDelay, Duration.ZERO, Duration.ofMinutes(10))
        .duration(
            "--grace-period", timings.gracePeriod, Duration.ofMillis(1), Duration.ofMinutes(10))
        .duration(
            "--idle-timeout", timings.idleTimeout, Duration.ofSeconds(1), Duration.ofHours(24))
        .duration(
            "--read-timeout", timings.readTimeout, Duration.ofMillis(100), Duration.ofHours(1))
        .duration(
            "--redis-timeout", redisFlags.timeout, Duration.ofMillis(1), Duration.ofMinutes(1))
        .size("--redis-max-entry-bytes", redisFlags.maxEntryBytes, 1, FlagChecks.GI)
        .problem();
  }

  private static Throwable rootCause(Throwable e) {
    Throwable cause = e;
    while (cause.getCause() != null && cause.getCause() != cause) {
      cause = cause.getCause();
    }
    return cause;
  }

  private static void publish(
      MappingRegistry registry,
      AtomicReference<MappingRegistry> latest,
      AtomicReference<AppServer> serving,
      Metrics metrics) {
    latest.set(registry);
    Map<String, Boolean> states = new TreeMap<>();
    registry.status().forEach((name, status) -> states.put(name, status.current()));
    metrics.loadStates(states);
    metrics.failingFiles(registry.failingFiles());
    AppServer server = serving.get();
    if (server != null) {
      server.swap(registry);
    }
  }
}
