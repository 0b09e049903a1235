package io.github.appsetmapper.testing;

import io.github.appsetmapper.cli.Main;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The CLI in a process of its own (for what only a process shows: running out of heap, signals, the
 * exit), its stdout and stderr captured together line by line. {@link #start} waits, on a condition
 * and never on time, for the "listening on" line and reads the port from it.
 */
public final class ServerProcess implements AutoCloseable {
  /** Generous: the machine running the tests may be busy. */
  public static final Duration BOUND = Duration.ofSeconds(120);

  private static final Pattern LISTENING = Pattern.compile("listening on [^:\\s]+:(\\d+) ");

  private final Process process;
  private final Thread reader;
  private final List<String> output = Collections.synchronizedList(new ArrayList<>());
  private int port = -1;

  private ServerProcess(Process process) {
    this.process = process;
    reader =
        new Thread(
            () -> {
              try (BufferedReader lines =
                  new BufferedReader(
                      new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                lines.lines().forEach(output::add);
              } catch (IOException | java.io.UncheckedIOException e) {
                // The process is gone: what it wrote is kept.
              }
            });
    reader.setDaemon(true);
    reader.start();
  }

  /**
   * Starts {@code java <jvmOptions> Main <arguments>} on this test's class path, without waiting.
   */
  public static ServerProcess launch(List<String> jvmOptions, List<String> arguments)
      throws IOException {
    return launch(jvmOptions, arguments, java.util.Map.of());
  }

  /** As {@link #launch(List, List)}, with {@code environment} added to this process's. */
  public static ServerProcess launch(
      List<String> jvmOptions, List<String> arguments, java.util.Map<String, String> environment)
      throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmOptions);
    command.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName()));
    command.addAll(arguments);
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().putAll(environment);
    return new ServerProcess(builder.start());
  }

  /** Starts the command (usually {@code serve ... --port 0}) and waits until it listens. */
  public static ServerProcess start(List<String> jvmOptions, List<String> arguments)
      throws IOException, InterruptedException {
    return start(jvmOptions, arguments, java.util.Map.of());
  }

  /** As {@link #start(List, List)}, with {@code environment} added to this process's. */
  public static ServerProcess start(
      List<String> jvmOptions, List<String> arguments, java.util.Map<String, String> environment)
      throws IOException, InterruptedException {
    ServerProcess server = launch(jvmOptions, arguments, environment);
    try {
      server.awaitListening();
    } catch (RuntimeException | Error | InterruptedException e) {
      server.close();
      throw e;
    }
    return server;
  }

  /** Waits for the "listening on" line; the port it names. */
  public int awaitListening() throws InterruptedException {
    String line = awaitLine(l -> LISTENING.matcher(l).find());
    Matcher m = LISTENING.matcher(line);
    m.find();
    port = Integer.parseInt(m.group(1));
    return port;
  }

  /** The first line of output that matches, waiting up to {@link #BOUND} while the process runs. */
  public String awaitLine(Predicate<String> wanted) throws InterruptedException {
    long deadline = System.nanoTime() + BOUND.toNanos();
    int seen = 0;
    while (System.nanoTime() < deadline) {
      List<String> now = lines();
      for (; seen < now.size(); seen++) {
        if (wanted.test(now.get(seen))) {
          return now.get(seen);
        }
      }
      if (!process.isAlive() && seen == lines().size()) {
        break;
      }
      Thread.sleep(20); // polling a condition, not a synchronisation by time
    }
    throw new AssertionError("no such line in the server's output:\n" + text());
  }

  public int port() {
    if (port < 0) {
      throw new IllegalStateException("not listening yet");
    }
    return port;
  }

  public String url() {
    return "http://127.0.0.1:" + port();
  }

  public Process process() {
    return process;
  }

  /** Every line written so far (stdout and stderr). */
  public List<String> lines() {
    synchronized (output) {
      return List.copyOf(output);
    }
  }

  public String text() {
    return String.join("\n", lines());
  }

  /** Waits until the process's output is read to its end (after it exited). */
  public void awaitOutputEnd() throws InterruptedException {
    reader.join(BOUND.toMillis());
  }

  /** Sends a signal as Kubernetes does ({@code TERM}); Process.destroy() would close the pipe. */
  public void signal(String name) throws IOException, InterruptedException {
    new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).start().waitFor();
  }

  /** Stops the process (forcibly, if still running) and waits for it. */
  @Override
  public void close() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor();
  }
}
