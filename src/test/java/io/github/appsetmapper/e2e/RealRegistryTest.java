package io.github.appsetmapper.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.github.appsetmapper.testing.PluginServer;
import io.github.appsetmapper.testing.PluginServer.Answer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pr-digests sample against a real OCI registry: Debian's {@code docker-registry} (CNCF
 * distribution) started on loopback, images pushed to it with {@code skopeo} from OCI layouts made
 * here, the digests the sample answers compared with what the registry reports. Without the two
 * programs the test is skipped, saying so, except in CI ({@code CI=true}), where .ci/run installs
 * them and their absence is a failure.
 */
class RealRegistryTest {
  private static final String ACCEPT =
      "application/vnd.oci.image.index.v1+json, application/vnd.oci.image.manifest.v1+json";
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @TempDir static Path work;
  private static Process registry;
  private static String url;
  private static String skipped;

  @BeforeAll
  static void start() throws Exception {
    Path registryBinary = which("docker-registry");
    Path skopeo = which("skopeo");
    if (registryBinary == null || skopeo == null) {
      String why =
          "docker-registry and skopeo are needed for the real-registry test"
              + " (apt-get install docker-registry skopeo); missing: "
              + (registryBinary == null ? "docker-registry " : "")
              + (skopeo == null ? "skopeo" : "");
      if ("true".equals(System.getenv("CI"))) {
        fail(why + "; .ci/run installs them, so CI must have them");
      }
      skipped = why.strip() + ". Skipped.";
      return;
    }
    int port;
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort();
    }
    url = "http://127.0.0.1:" + port;
    Path config = work.resolve("config.yml");
    Files.writeString(
        config,
        """
        version: 0.1
        log: {level: warn}
        storage: {filesystem: {rootdirectory: %s}}
        http: {addr: 127.0.0.1:%d}
        """
            .formatted(work.resolve("storage"), port));
    registry =
        new ProcessBuilder(registryBinary.toString(), "serve", config.toString())
            .redirectErrorStream(true)
            .redirectOutput(work.resolve("registry.log").toFile())
            .start();
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
    while (true) {
      try {
        if (HTTP.send(
                    HttpRequest.newBuilder(URI.create(url + "/v2/")).build(),
                    HttpResponse.BodyHandlers.discarding())
                .statusCode()
            == 200) {
          break;
        }
      } catch (IOException e) {
        // not listening yet
      }
      if (System.nanoTime() > until || !registry.isAlive()) {
        fail("the registry did not start: " + Files.readString(work.resolve("registry.log")));
      }
      Thread.sleep(50);
    }
    push(skopeo, image("front"), "myorg/front:feature-branch-1");
    push(skopeo, image("back"), "myorg/back:feature-branch-1");
    push(skopeo, image("front-2"), "myorg/front:feature-branch-2");
  }

  @AfterAll
  static void stop() throws InterruptedException {
    if (registry != null) {
      registry.destroy();
      if (!registry.waitFor(5, TimeUnit.SECONDS)) {
        registry.destroyForcibly();
      }
    }
  }

  @Test
  void theSampleAnswersTheDigestsTheRegistryReports() throws Exception {
    Assumptions.assumeTrue(skipped == null, skipped);
    String front = reported("myorg/front", "feature-branch-1");
    String back = reported("myorg/back", "feature-branch-1");
    assertThat(front).isEqualTo(manifestDigests.get("front"));
    assertThat(back).isEqualTo(manifestDigests.get("back"));
    try (PluginServer plugin =
        PluginServer.start(
            List.of(Path.of("samples/pr-digests/pr-digests.yaml")),
            Map.of("registry", url, "repository", "myorg"),
            Map.of())) {
      Answer built = plugin.getparams("pr-digests", branch("feature-branch-1"));
      assertThat(built.body())
          .isEqualTo(
              "{\"output\":{\"parameters\":[{\"digestFront\":\""
                  + front
                  + "\",\"digestBack\":\""
                  + back
                  + "\"}]}}");
      // The back image of feature-branch-2 was never pushed: no Application for now.
      assertThat(plugin.getparams("pr-digests", branch("feature-branch-2")).body())
          .isEqualTo("{\"output\":{\"parameters\":[]}}");
    }
  }

  private static String branch(String name) {
    return "{\"applicationSetName\":\"previews\",\"input\":{\"parameters\":{\"branch\":\""
        + name
        + "\"}}}";
  }

  private static String reported(String repository, String tag) throws Exception {
    HttpResponse<Void> head =
        HTTP.send(
            HttpRequest.newBuilder(URI.create(url + "/v2/" + repository + "/manifests/" + tag))
                .method("HEAD", HttpRequest.BodyPublishers.noBody())
                .header("Accept", ACCEPT)
                .build(),
            HttpResponse.BodyHandlers.discarding());
    assertThat(head.statusCode()).isEqualTo(200);
    return head.headers().firstValue("Docker-Content-Digest").orElseThrow();
  }

  private static final Map<String, String> manifestDigests = new java.util.HashMap<>();

  /** A one-layer OCI image layout whose file content is {@code name}; returns its directory. */
  private static Path image(String name) throws Exception {
    Path layout = work.resolve("layout-" + name);
    Files.createDirectories(layout.resolve("blobs/sha256"));
    Files.writeString(layout.resolve("oci-layout"), "{\"imageLayoutVersion\":\"1.0.0\"}");
    byte[] tar = tar("hello.txt", (name + "\n").getBytes(StandardCharsets.UTF_8));
    byte[] layer = gzip(tar);
    String layerDigest = blob(layout, layer);
    String config =
        "{\"architecture\":\"amd64\",\"os\":\"linux\",\"rootfs\":{\"type\":\"layers\",\"diff_ids\":[\""
            + "sha256:"
            + sha256(tar)
            + "\"]},\"config\":{}}";
    byte[] configBytes = config.getBytes(StandardCharsets.UTF_8);
    String configDigest = blob(layout, configBytes);
    String manifest =
        "{\"schemaVersion\":2,\"mediaType\":\"application/vnd.oci.image.manifest.v1+json\","
            + "\"config\":{\"mediaType\":\"application/vnd.oci.image.config.v1+json\",\"digest\":\""
            + configDigest
            + "\",\"size\":"
            + configBytes.length
            + "},\"layers\":[{\"mediaType\":\"application/vnd.oci.image.layer.v1.tar+gzip\",\"digest\":\""
            + layerDigest
            + "\",\"size\":"
            + layer.length
            + "}]}";
    byte[] manifestBytes = manifest.getBytes(StandardCharsets.UTF_8);
    String manifestDigest = blob(layout, manifestBytes);
    manifestDigests.put(name, manifestDigest);
    Files.writeString(
        layout.resolve("index.json"),
        "{\"schemaVersion\":2,\"manifests\":[{\"mediaType\":\"application/vnd.oci.image.manifest.v1+json\","
            + "\"digest\":\""
            + manifestDigest
            + "\",\"size\":"
            + manifestBytes.length
            + ",\"annotations\":{\"org.opencontainers.image.ref.name\":\"v1\"}}]}");
    return layout;
  }

  private static void push(Path skopeo, Path layout, String reference) throws Exception {
    Process copy =
        new ProcessBuilder(
                skopeo.toString(),
                "--insecure-policy",
                "copy",
                "--quiet",
                "--dest-tls-verify=false",
                "oci:" + layout + ":v1",
                "docker://" + url.substring("http://".length()) + "/" + reference)
            .redirectErrorStream(true)
            .start();
    String output = new String(copy.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!copy.waitFor(60, TimeUnit.SECONDS) || copy.exitValue() != 0) {
      fail("skopeo copy to " + reference + " failed: " + output);
    }
  }

  private static String blob(Path layout, byte[] content) throws Exception {
    String hex = sha256(content);
    Files.write(layout.resolve("blobs/sha256/" + hex), content);
    return "sha256:" + hex;
  }

  private static String sha256(byte[] content) throws Exception {
    return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(content));
  }

  private static byte[] gzip(byte[] content) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream gzip = new GZIPOutputStream(out)) {
      gzip.write(content);
    }
    return out.toByteArray();
  }

  /** A ustar archive holding one regular file. */
  private static byte[] tar(String name, byte[] content) {
    byte[] header = new byte[512];
    put(header, 0, name);
    put(header, 100, "0000644");
    put(header, 108, "0000000");
    put(header, 116, "0000000");
    put(header, 124, String.format("%011o", content.length));
    put(header, 136, String.format("%011o", 1_700_000_000L));
    for (int i = 148; i < 156; i++) {
      header[i] = ' ';
    }
    header[156] = '0';
    put(header, 257, "ustar");
    put(header, 263, "00");
    long sum = 0;
    for (byte b : header) {
      sum += b & 0xff;
    }
    put(header, 148, String.format("%06o", sum));
    header[154] = 0;
    header[155] = ' ';
    int padded = (content.length + 511) / 512 * 512;
    byte[] out = new byte[512 + padded + 1024];
    System.arraycopy(header, 0, out, 0, 512);
    System.arraycopy(content, 0, out, 512, content.length);
    return out;
  }

  private static void put(byte[] into, int at, String text) {
    byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
    System.arraycopy(bytes, 0, into, at, bytes.length);
  }

  private static Path which(String program) {
    for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(":")) {
      Path candidate = Path.of(dir, program);
      if (Files.isExecutable(candidate)) {
        return candidate;
      }
    }
    return null;
  }
}
