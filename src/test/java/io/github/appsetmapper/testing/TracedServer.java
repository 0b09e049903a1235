package io.github.appsetmapper.testing;

import io.github.appsetmapper.compile.MappingLoader;
import io.github.appsetmapper.runtime.AppRuntime;
import io.github.appsetmapper.server.AppServer;
import io.github.appsetmapper.server.MappingRegistry;
import io.github.appsetmapper.server.ServerOptions;
import io.github.appsetmapper.server.Tokens;
import io.github.appsetmapper.upstream.HttpUpstream;
import java.io.IOException;
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

/** A real server on port 0 whose runtime is given the {@code OTEL_*} variables, as serve does. */
public final class TracedServer implements AutoCloseable {
  private final AppRuntime runtime;
  private final AppServer server;
  private final HttpClient client = HttpClient.newHttpClient();

  public TracedServer(
      Path dir,
      Map<String, String> vars,
      Map<String, String> env,
      Map<String, String> otel,
      String yaml)
      throws IOException {
    Path file = dir.resolve("mapping.yaml");
    Files.writeString(file, yaml);
    runtime =
        AppRuntime.builder()
            .vars(vars)
            .environment(env::get)
            .transport(new HttpUpstream(8, HttpUpstream.DEFAULT_MAX_BODY_BYTES))
            .tracing(otel)
            .build();
    MappingLoader.Result loaded = runtime.load(List.of(file));
    if (!loaded.ok()) {
      runtime.close();
      throw new IllegalStateException("mapping did not load: " + loaded.problems());
    }
    server =
        runtime
            .server(
                new ServerOptions(
                    "127.0.0.1",
                    0,
                    Tokens.fixed(PluginServer.TOKEN),
                    ServerOptions.DEFAULT_MAX_BODY_BYTES,
                    2,
                    8,
                    null),
                MappingRegistry.of(loaded.mappings(), null))
            .start();
  }

  /** getparams of {@code mapping} with {@code headers} beside the token. */
  public HttpResponse<String> getparams(String mapping, String body, Map<String, String> headers)
      throws IOException, InterruptedException {
    return post("/mappings/" + mapping + "/api/v1/getparams.execute", body, headers);
  }

  /** POST {@code path} with the token and {@code headers}. */
  public HttpResponse<String> post(String path, String body, Map<String, String> headers)
      throws IOException, InterruptedException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
            .timeout(Duration.ofSeconds(60))
            .header("Authorization", "Bearer " + PluginServer.TOKEN)
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
    headers.forEach(request::header);
    return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** GET {@code /metrics}: what a Prometheus scrape sees. */
  public String metrics() throws IOException, InterruptedException {
    return client
        .send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/metrics"))
                .build(),
            HttpResponse.BodyHandlers.ofString())
        .body();
  }

  @Override
  public void close() {
    server.close();
    runtime.close();
  }
}
