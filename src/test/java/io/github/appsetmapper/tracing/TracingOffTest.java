package io.github.appsetmapper.tracing;

import static org.assertj.core.api.Assertions.assertThat;

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
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tracing off costs start-up nothing: a JVM of its own serves and answers a getparams (with an
 * incoming traceparent) with no {@code OTEL_*} variable, and loads no OpenTelemetry class.
 */
class TracingOffTest {
  @TempDir Path dir;

  @Test
  void withoutOtelVariablesNoOpenTelemetryClassIsLoaded() throws Exception {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-verbose:class");
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(Serve.class.getName());
    command.add(dir.toString());
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().keySet().removeIf(name -> name.startsWith("OTEL_"));
    Path out = dir.resolve("out.txt");
    Process process = builder.redirectOutput(out.toFile()).start();
    assertThat(process.waitFor(300, TimeUnit.SECONDS)).as("the JVM ended").isTrue();
    List<String> lines = Files.readAllLines(out);
    assertThat(lines).as("its output").contains("answered 200");
    assertThat(lines.stream().filter(l -> l.contains("io.opentelemetry")))
        .as("OpenTelemetry classes loaded")
        .isEmpty();
    // The seam itself was exercised: the tracing package's own classes were not needed either.
    assertThat(lines.stream().filter(l -> l.contains("io.github.appsetmapper.tracing.Otel")))
        .isEmpty();
  }

  /** Serves one mapping as serve does (its environment given to tracing) and calls it once. */
  public static final class Serve {
    public static void main(String[] args) throws Exception {
      Path dir = Path.of(args[0]);
      Path file = dir.resolve("hello.yaml");
      Files.writeString(file, "name: hello\nparameters:\n  greeting: \"'hi'\"\n");
      try (AppRuntime runtime =
          AppRuntime.builder()
              .environment(n -> null)
              .transport(new HttpUpstream(2, 1 << 20))
              .tracing(System.getenv())
              .build()) {
        MappingLoader.Result loaded = runtime.load(List.of(file));
        AppServer server =
            runtime
                .server(
                    new ServerOptions("127.0.0.1", 0, Tokens.fixed("t0ken-off"), 1 << 20, 1, 2),
                    MappingRegistry.of(loaded.mappings(), null))
                .start();
        try {
          HttpResponse<String> answer =
              HttpClient.newHttpClient()
                  .send(
                      HttpRequest.newBuilder(
                              URI.create(
                                  "http://127.0.0.1:"
                                      + server.port()
                                      + "/mappings/hello/api/v1/getparams.execute"))
                          .header("Authorization", "Bearer t0ken-off")
                          .header(
                              "traceparent",
                              "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
                          .POST(HttpRequest.BodyPublishers.ofString("{}"))
                          .build(),
                      HttpResponse.BodyHandlers.ofString());
          System.out.println("answered " + answer.statusCode());
          System.out.println(
              "trace header " + answer.headers().firstValue("X-Trace-Id").orElse("none"));
        } finally {
          server.close();
        }
      } catch (IOException e) {
        throw e;
      }
      System.exit(0);
    }
  }
}
