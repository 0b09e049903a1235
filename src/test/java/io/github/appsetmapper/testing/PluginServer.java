package io.github.appsetmapper.testing;

import com.github.benmanes.caffeine.cache.Ticker;
import io.github.appsetmapper.compile.MappingLoader;
import io.github.appsetmapper.redis.RedisSettings;
import io.github.appsetmapper.redis.RedisStats;
import io.github.appsetmapper.runtime.AppRuntime;
import io.github.appsetmapper.secret.Redactor;
import io.github.appsetmapper.server.AppServer;
import io.github.appsetmapper.server.MappingRegistry;
import io.github.appsetmapper.server.ServerOptions;
import io.github.appsetmapper.server.Tokens;
import io.github.appsetmapper.server.WebhookSecret;
import io.github.appsetmapper.upstream.HttpUpstream;
import io.github.appsetmapper.upstream.cache.MemoryBudget;
import io.github.appsetmapper.upstream.call.Upstream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * The real appset-mapper server on a loopback port 0, loaded from mapping files, calling upstreams
 * over real HTTP, and a client that speaks to it as Argo CD does.
 */
public final class PluginServer implements AutoCloseable {
  public static final String TOKEN = "test-plugin-token-7f3a";

  /** An answer: status and body. */
  public record Answer(int status, String body, Map<String, List<String>> headers) {
    /** Asserts the status (the body as the description) and that the body holds each text. */
    public Answer expect(int expected, String... texts) {
      org.assertj.core.api.Assertions.assertThat(status).as(body).isEqualTo(expected);
      if (texts.length > 0) {
        org.assertj.core.api.Assertions.assertThat(body).contains(texts);
      }
      return this;
    }
  }

  private final AppServer server;
  private final AppRuntime runtime;
  private final List<Path> mappings;
  private final HttpClient client =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  public final Redactor redactor;

  /** How a test server differs from the defaults. */
  private record Setup(
      List<Path> mappings,
      Map<String, String> vars,
      Map<String, String> env,
      Tokens tokens,
      Upstream upstream,
      WebhookSecret webhookSecret,
      long memoryBudget,
      UnaryOperator<ServerOptions> tune,
      Ticker ticker,
      RedisSettings redis,
      java.time.Clock clock) {
    Setup(
        List<Path> mappings,
        Map<String, String> vars,
        Map<String, String> env,
        Tokens tokens,
        Upstream upstream) {
      this(
          mappings,
          vars,
          env,
          tokens,
          upstream,
          null,
          MemoryBudget.DEFAULT_BYTES,
          UnaryOperator.identity(),
          Ticker.systemTicker(),
          null,
          java.time.Clock.systemUTC());
    }
  }

  private PluginServer(Setup setup) {
    try {
      this.runtime =
          AppRuntime.builder()
              .vars(setup.vars())
              .environment(setup.env()::get)
              .transport(
                  setup.upstream() == null
                      ? new HttpUpstream(32, HttpUpstream.DEFAULT_MAX_BODY_BYTES)
                      : setup.upstream())
              .enrichThreads(32)
              .memoryBudget(setup.memoryBudget())
              .ticker(setup.ticker())
              .clock(setup.clock())
              .redis(setup.redis())
              .build();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    this.redactor = runtime.redactor();
    this.mappings = List.copyOf(setup.mappings());
    MappingLoader.Result loaded = runtime.load(mappings);
    if (!loaded.ok()) {
      runtime.close();
      throw new IllegalStateException(
          "mappings did not load:\n" + loaded.varErrors() + loaded.problems());
    }
    server =
        runtime
            .server(
                setup
                    .tune()
                    .apply(
                        new ServerOptions(
                            "127.0.0.1",
                            0,
                            setup.tokens(),
                            ServerOptions.DEFAULT_MAX_BODY_BYTES,
                            2,
                            16,
                            setup.webhookSecret())),
                MappingRegistry.of(loaded.mappings(), null))
            .start();
  }

  /**
   * As {@link #withYaml}, sharing the cache, leases and baselines with other servers through Redis
   * ({@code serve --redis}).
   */
  public static PluginServer withRedis(
      Path dir, Map<String, String> vars, RedisSettings redis, String... yamls) {
    return new PluginServer(
        new Setup(
            write(dir, yamls),
            vars,
            Map.of(),
            Tokens.fixed(TOKEN),
            null,
            null,
            MemoryBudget.DEFAULT_BYTES,
            UnaryOperator.identity(),
            Ticker.systemTicker(),
            redis,
            java.time.Clock.systemUTC()));
  }

  /** What the Redis level did (null without Redis). */
  public RedisStats redisStats() {
    return runtime.redisStats();
  }

  /**
   * As {@link #withYaml}, with a webhook secret for {@code cache/invalidate} (null: none) and a
   * memory budget for upstream answers.
   */
  public static PluginServer withOptions(
      Path dir,
      Map<String, String> vars,
      WebhookSecret webhookSecret,
      long memoryBudget,
      String... yamls) {
    return new PluginServer(
        new Setup(
            write(dir, yamls),
            vars,
            Map.of(),
            Tokens.fixed(TOKEN),
            null,
            webhookSecret,
            memoryBudget,
            UnaryOperator.identity(),
            Ticker.systemTicker(),
            null,
            java.time.Clock.systemUTC()));
  }

  /** As {@link #withOptions}, with the server's options changed by {@code tune}. */
  public static PluginServer withServerOptions(
      Path dir,
      Map<String, String> vars,
      WebhookSecret webhookSecret,
      java.util.function.UnaryOperator<ServerOptions> tune,
      String... yamls) {
    return new PluginServer(
        new Setup(
            write(dir, yamls),
            vars,
            Map.of(),
            Tokens.fixed(TOKEN),
            null,
            webhookSecret,
            MemoryBudget.DEFAULT_BYTES,
            tune,
            Ticker.systemTicker(),
            null,
            java.time.Clock.systemUTC()));
  }

  /** Loads the mapping files again and swaps them in, as a hot reload does. */
  public void reload() {
    MappingLoader.Result loaded = runtime.load(mappings);
    if (!loaded.ok()) {
      throw new IllegalStateException("mappings did not load:\n" + loaded.problems());
    }
    server.swap(MappingRegistry.of(loaded.mappings(), null));
  }

  public static PluginServer start(
      List<Path> mappings, Map<String, String> vars, Map<String, String> env) {
    return new PluginServer(new Setup(mappings, vars, env, Tokens.fixed(TOKEN), null));
  }

  public static PluginServer start(
      List<Path> mappings, Map<String, String> vars, Map<String, String> env, Tokens tokens) {
    return new PluginServer(new Setup(mappings, vars, env, tokens, null));
  }

  /**
   * As {@link #withYaml}, the answer cache reading the time from {@code ticker}: a test moves it
   * instead of waiting for a ttl to pass.
   */
  public static PluginServer withTicker(
      Path dir, Map<String, String> vars, Ticker ticker, String... yamls) {
    return new PluginServer(
        new Setup(
            write(dir, yamls),
            vars,
            Map.of(),
            Tokens.fixed(TOKEN),
            null,
            null,
            MemoryBudget.DEFAULT_BYTES,
            UnaryOperator.identity(),
            ticker,
            null,
            java.time.Clock.systemUTC()));
  }

  /** As {@link #withYaml}, calling upstreams through {@code upstream} (closed with the server). */
  public static PluginServer withUpstream(
      Path dir,
      Upstream upstream,
      Map<String, String> vars,
      Map<String, String> env,
      String... yamls) {
    return new PluginServer(new Setup(write(dir, yamls), vars, env, Tokens.fixed(TOKEN), upstream));
  }

  private static List<Path> write(Path dir, String... yamls) {
    List<Path> files = new ArrayList<>();
    try {
      for (int i = 0; i < yamls.length; i++) {
        Path file = dir.resolve("mapping-" + i + ".yaml");
        Files.writeString(file, yamls[i]);
        files.add(file);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return files;
  }

  /**
   * As {@link #withYaml}, the request's time (what {@code #now()} and the date functions read)
   * taken from {@code clock}.
   */
  public static PluginServer withClock(
      Path dir, Map<String, String> vars, java.time.Clock clock, String... yamls) {
    return new PluginServer(
        new Setup(
            write(dir, yamls),
            vars,
            Map.of(),
            Tokens.fixed(TOKEN),
            null,
            null,
            MemoryBudget.DEFAULT_BYTES,
            UnaryOperator.identity(),
            Ticker.systemTicker(),
            null,
            clock));
  }

  /** Writes each YAML text to a file in {@code dir} and serves them. */
  public static PluginServer withYaml(
      Path dir, Map<String, String> vars, Map<String, String> env, String... yamls) {
    return start(write(dir, yamls), vars, env);
  }

  public String url() {
    return "http://127.0.0.1:" + server.port();
  }

  public AppServer server() {
    return server;
  }

  /** POST getparams for a mapping, with the right token, as Argo CD sends it. */
  public Answer getparams(String mapping, String body) {
    return send(
        "POST",
        "/mappings/" + mapping + "/api/v1/getparams.execute",
        body,
        "Bearer " + TOKEN,
        "application/json");
  }

  public Answer send(
      String method, String path, String body, String authorization, String contentType) {
    return send(method, path, body, authorization, contentType, Map.of());
  }

  /** As {@link #send(String, String, String, String, String)}, with more headers. */
  public Answer send(
      String method,
      String path,
      String body,
      String authorization,
      String contentType,
      Map<String, String> headers) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(url() + path))
            .timeout(Duration.ofSeconds(30))
            .header("User-Agent", "argocd-applicationset");
    headers.forEach(request::header);
    if (authorization != null) {
      request.header("Authorization", authorization);
    }
    if (contentType != null) {
      request.header("Content-Type", contentType);
    }
    request.method(
        method,
        body == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
    try {
      HttpResponse<String> response =
          client.send(request.build(), HttpResponse.BodyHandlers.ofString());
      return new Answer(response.statusCode(), response.body(), response.headers().map());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void close() {
    server.close();
    runtime.close();
  }
}
