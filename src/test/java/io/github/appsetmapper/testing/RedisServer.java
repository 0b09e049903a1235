package io.github.appsetmapper.testing;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * Debian's real {@code redis-server} on a loopback port for tests: started, killed and started
 * again on the same port (a Redis restart as pods see it), with {@code redis-cli} for what an
 * operator or an attacker would type. Without the programs the calling test is skipped, saying why,
 * except with {@code CI=true} ({@code .ci/run} installs them), where it fails.
 */
public final class RedisServer implements AutoCloseable {
  private final Path dir;
  private final int port;
  private final String password;
  private Process process;

  private RedisServer(Path dir, int port, String password) {
    this.dir = dir;
    this.port = port;
    this.password = password;
  }

  /** Skips (or, in CI, fails) the test when redis-server or redis-cli is missing. */
  public static void assumeInstalled() {
    if (which("redis-server") != null && which("redis-cli") != null) {
      return;
    }
    String why = "redis-server and redis-cli are needed (apt-get install redis-server)";
    if ("true".equals(System.getenv("CI"))) {
      fail(why + "; .ci/run installs it, so CI must have it");
    }
    Assumptions.assumeTrue(false, why + ". Skipped.");
  }

  /** A Redis with {@code password} (null: none) on a free loopback port, answering. */
  public static RedisServer start(Path dir, String password) throws IOException {
    assumeInstalled();
    IOException last = null;
    for (int attempt = 0; attempt < 5; attempt++) {
      int port;
      try (ServerSocket free = new ServerSocket(0)) {
        port = free.getLocalPort();
      }
      RedisServer server = new RedisServer(dir, port, password);
      try {
        server.startAgain();
        return server;
      } catch (IOException e) {
        // The port was taken between the probe and the start: another one.
        last = e;
        server.kill();
      }
    }
    throw last;
  }

  public int port() {
    return port;
  }

  public String url() {
    return "redis://127.0.0.1:" + port;
  }

  /** Starts (again) on the same port, empty (nothing saved), and waits until it answers. */
  public synchronized void startAgain() throws IOException {
    List<String> command =
        new ArrayList<>(
            List.of(
                "redis-server",
                "--port",
                Integer.toString(port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                dir.toString(),
                "--maxmemory-policy",
                "volatile-lru"));
    if (password != null) {
      command.add("--requirepass");
      command.add(password);
    }
    Path log = dir.resolve("redis-" + port + ".log");
    process =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
            .start();
    long end = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (System.nanoTime() < end) {
      if (!process.isAlive()) {
        throw new IOException("redis-server exited: " + Files.readString(log));
      }
      if (pings()) {
        return;
      }
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException(e);
      }
    }
    throw new IOException("redis-server did not answer within 30 s");
  }

  private boolean pings() {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", port), 1000);
      socket.setSoTimeout(2000);
      OutputStream out = socket.getOutputStream();
      String auth = password == null ? "" : "AUTH " + password + "\r\n";
      out.write((auth + "PING\r\n").getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = socket.getInputStream();
      byte[] buffer = new byte[64];
      StringBuilder seen = new StringBuilder();
      while (!seen.toString().contains("PONG")) {
        int n = in.read(buffer);
        if (n < 0) {
          return false;
        }
        seen.append(new String(buffer, 0, n, StandardCharsets.US_ASCII));
      }
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /** Kills the server (SIGKILL): a crash, everything in it lost. */
  public synchronized void kill() {
    if (process != null) {
      process.destroyForcibly();
      try {
        process.waitFor(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Stops the server (SIGSTOP): it holds its data and its port, and answers nothing. */
  public synchronized void pause() throws IOException, InterruptedException {
    signal("-STOP");
  }

  /** Lets a paused server go on (SIGCONT). */
  public synchronized void resume() throws IOException, InterruptedException {
    signal("-CONT");
  }

  private void signal(String which) throws IOException, InterruptedException {
    Process kill =
        new ProcessBuilder("kill", which, Long.toString(process.pid()))
            .redirectErrorStream(true)
            .start();
    if (!kill.waitFor(30, TimeUnit.SECONDS) || kill.exitValue() != 0) {
      throw new IOException("kill " + which + " failed");
    }
  }

  /** Runs {@code redis-cli} with {@code args}; its output, trimmed. */
  public String cli(String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of("redis-cli", "-p", Integer.toString(port)));
    if (password != null) {
      command.add("--no-auth-warning");
      command.add("-a");
      command.add(password);
    }
    command.addAll(List.of(args));
    Process cli = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(cli.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!cli.waitFor(30, TimeUnit.SECONDS)) {
      cli.destroyForcibly();
      throw new IOException("redis-cli did not end");
    }
    return out.strip();
  }

  private static Path which(String program) {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
      Path candidate = Path.of(dir, program);
      if (Files.isExecutable(candidate)) {
        return candidate;
      }
    }
    return null;
  }

  @Override
  public void close() {
    kill();
  }
}
