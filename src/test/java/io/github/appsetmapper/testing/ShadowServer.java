package io.github.appsetmapper.testing;

import io.github.appsetmapper.compile.MappingLoader;
import io.github.appsetmapper.runtime.AppRuntime;
import io.github.appsetmapper.server.AppServer;
import io.github.appsetmapper.server.MappingRegistry;
import io.github.appsetmapper.server.ServerOptions;
import io.github.appsetmapper.server.Shadowing;
import io.github.appsetmapper.server.Tokens;
import io.github.appsetmapper.shadow.Shadow;
import io.github.appsetmapper.shadow.ShadowSettings;
import io.github.appsetmapper.shadow.ShadowWiring;
import io.github.appsetmapper.upstream.HttpUpstream;
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
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * The server as {@code serve --shadow} runs it: live mappings from {@code live/}, candidates from
 * {@code candidates/} (none: no shadow at all), over real HTTP on port 0, with the token.
 */
public final class ShadowServer implements AutoCloseable {
  private final AppRuntime runtime;
  private final Shadow shadow;
  private final AppServer server;
  private final HttpClient client =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private ShadowServer(
      Path live,
      Path candidates,
      Map<String, String> vars,
      Map<String, String> env,
      ShadowSettings settings) {
    try {
      runtime =
          AppRuntime.builder()
              .vars(vars)
              .environment(env::get)
              // One connection per host: a candidate holding one must not hold up a live call
              // (the candidates have connections of their own).
              .http(
                  io.github.appsetmapper.upstream.UpstreamOptions.defaults(
                          32, HttpUpstream.DEFAULT_MAX_BODY_BYTES)
                      .withHostLimits(1, List.of()))
              .enrichThreads(8)
              .build();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    MappingLoader.Result loaded = runtime.load(List.of(live));
    if (!loaded.ok()) {
      runtime.close();
      throw new IllegalStateException("live mappings did not load: " + loaded.problems());
    }
    shadow = candidates == null ? null : ShadowWiring.start(runtime, List.of(candidates), settings);
    server =
        runtime
            .server(
                new ServerOptions(
                    "127.0.0.1", 0, Tokens.fixed(PluginServer.TOKEN), 1 << 20, 2, 16, null),
                MappingRegistry.of(loaded.mappings(), null),
                shadow == null ? Shadowing.NONE : shadow)
            .start();
  }

  /** Live mappings, and candidates (null: no --shadow), each YAML text a file of a folder. */
  public static ShadowServer start(
      Path dir, Map<String, String> vars, List<String> live, List<String> candidates) {
    return start(dir, vars, live, candidates, ShadowSettings.DEFAULTS);
  }

  public static ShadowServer start(
      Path dir,
      Map<String, String> vars,
      List<String> live,
      List<String> candidates,
      ShadowSettings settings) {
    return start(dir, vars, Map.of(), live, candidates, settings);
  }

  /** With {@code env} as the environment secrets and vars read. */
  public static ShadowServer startWithEnv(
      Path dir,
      Map<String, String> vars,
      Map<String, String> env,
      List<String> live,
      List<String> candidates) {
    return start(dir, vars, env, live, candidates, ShadowSettings.DEFAULTS);
  }

  private static ShadowServer start(
      Path dir,
      Map<String, String> vars,
      Map<String, String> env,
      List<String> live,
      List<String> candidates,
      ShadowSettings settings) {
    try {
      Path liveDir = Files.createDirectories(dir.resolve("live"));
      for (int i = 0; i < live.size(); i++) {
        Files.writeString(liveDir.resolve("live-" + i + ".yaml"), live.get(i));
      }
      Path candidateDir = null;
      if (candidates != null) {
        candidateDir = Files.createDirectories(dir.resolve("candidates"));
        for (int i = 0; i < candidates.size(); i++) {
          Files.writeString(candidateDir.resolve("candidate-" + i + ".yaml"), candidates.get(i));
        }
      }
      return new ShadowServer(liveDir, candidateDir, vars, env, settings);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public String url() {
    return "http://127.0.0.1:" + server.port();
  }

  public Shadow shadow() {
    return shadow;
  }

  public String metrics() {
    return send("GET", "/metrics", null, null).body();
  }

  public PluginServer.Answer getparams(String mapping, String body) {
    return send(
        "POST", "/mappings/" + mapping + "/api/v1/getparams.execute", body, PluginServer.TOKEN);
  }

  public PluginServer.Answer send(String method, String path, String body, String token) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
            .timeout(Duration.ofSeconds(60));
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    if (body != null) {
      request.header("Content-Type", "application/json");
    }
    request.method(
        method,
        body == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
    try {
      HttpResponse<String> response =
          client.send(request.build(), HttpResponse.BodyHandlers.ofString());
      return new PluginServer.Answer(
          response.statusCode(), response.body(), response.headers().map());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Waits until {@code condition} holds (at most a generous minute, for a busy machine). */
  public static void until(String what, BooleanSupplier condition) {
    long end = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > end) {
        throw new AssertionError("timed out waiting until " + what);
      }
      try {
        Thread.sleep(10);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
  }

  @Override
  public void close() {
    server.close();
    if (shadow != null) {
      shadow.close();
    }
    runtime.close();
  }
}
