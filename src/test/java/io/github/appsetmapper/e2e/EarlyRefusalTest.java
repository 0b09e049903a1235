package io.github.appsetmapper.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.appsetmapper.testing.PluginServer;
import java.io.ByteArrayInputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * A refusal answered before the request body is read (token, path, method, size) must reach a
 * caller that is still sending the body: the server reads and discards it first, so the connection
 * is not reset under the caller. Many 4 MB bodies (the limit is 1 MiB) with the JDK client, every
 * answer required: a count, not a timing.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EarlyRefusalTest {
  private static final int TIMES = 30;
  private static final byte[] BODY = new byte[4 * 1024 * 1024];
  private static final String TOKEN = "Bearer " + PluginServer.TOKEN;

  private PluginServer plugin;
  private final HttpClient client = HttpClient.newHttpClient();

  @BeforeAll
  void start(@TempDir Path dir) {
    java.util.Arrays.fill(BODY, (byte) 'a');
    plugin =
        PluginServer.withYaml(dir, Map.of(), Map.of(), "name: simple\nparameters: {a: \"'b'\"}\n");
  }

  @AfterAll
  void stop() {
    plugin.close();
  }

  /** The statuses of {@code TIMES} requests; a lost answer is -1. */
  private List<Integer> statuses(String method, String path, String authorization, boolean sized) {
    List<Integer> statuses = new ArrayList<>();
    for (int i = 0; i < TIMES; i++) {
      HttpRequest.Builder request =
          HttpRequest.newBuilder(URI.create(plugin.url() + path)).timeout(Duration.ofSeconds(60));
      if (authorization != null) {
        request.header("Authorization", authorization);
      }
      request.method(
          method,
          sized
              ? HttpRequest.BodyPublishers.ofByteArray(BODY)
              // Of unknown length: sent chunked.
              : HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(BODY)));
      try {
        statuses.add(
            client.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode());
      } catch (java.io.IOException | UncheckedIOException e) {
        System.err.println("LOST " + e);
        statuses.add(-1);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
    return statuses;
  }

  private static List<Integer> all(int status) {
    return java.util.Collections.nCopies(TIMES, status);
  }

  @Test
  void aBodyOverTheLimitGetsIts413() {
    assertThat(statuses("POST", "/mappings/simple/api/v1/getparams.execute", TOKEN, true))
        .isEqualTo(all(413));
  }

  @Test
  void aChunkedBodyOverTheLimitGetsIts413() {
    assertThat(statuses("POST", "/mappings/simple/api/v1/getparams.execute", TOKEN, false))
        .isEqualTo(all(413));
  }

  @Test
  void noTokenGetsIts403() {
    assertThat(statuses("POST", "/mappings/simple/api/v1/getparams.execute", null, true))
        .isEqualTo(all(403));
  }

  @Test
  void noWebhookCredentialsGetIts403() {
    assertThat(statuses("POST", "/mappings/simple/cache/invalidate", null, true))
        .isEqualTo(all(403));
  }

  @Test
  void anUnknownPathGetsIts404() {
    assertThat(statuses("POST", "/nowhere", TOKEN, true)).isEqualTo(all(404));
  }

  @Test
  void aWrongMethodGetsIts405() {
    assertThat(statuses("POST", "/mappings", TOKEN, true)).isEqualTo(all(405));
  }
}
