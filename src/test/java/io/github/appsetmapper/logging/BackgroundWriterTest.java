package io.github.appsetmapper.logging;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The writer thread writes what it finds waiting in one write (a write per line was most of its
 * CPU), loses nothing, keeps the order, and writes what is queued when it stops.
 */
class BackgroundWriterTest {
  /** stdout that counts its writes and holds the first one until told to go on. */
  private static final class CountingOut extends OutputStream {
    final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    final AtomicInteger writes = new AtomicInteger();
    final CountDownLatch firstWriteStarted = new CountDownLatch(1);
    final CountDownLatch goOn = new CountDownLatch(1);

    @Override
    public void write(int b) {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) {
      writes.incrementAndGet();
      firstWriteStarted.countDown();
      // As a pipe's write, deaf to interrupts (the stop interrupts the writer).
      boolean interrupted = false;
      while (true) {
        try {
          goOn.await(2, TimeUnit.MINUTES);
          break;
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
      synchronized (this) {
        bytes.write(b, off, len);
      }
    }

    synchronized String text() {
      return bytes.toString(StandardCharsets.UTF_8);
    }
  }

  private static Logger logger(LoggerContext context, BackgroundWriter writer) {
    Logger logger = context.getLogger("t");
    logger.setAdditive(false);
    logger.addAppender(writer);
    return logger;
  }

  private static BackgroundWriter writer(LoggerContext context) {
    PatternLayoutEncoder encoder = new PatternLayoutEncoder();
    encoder.setContext(context);
    encoder.setPattern("%msg%n");
    encoder.start();
    return LogSetup.inBackground(context, "T", encoder);
  }

  @Test
  void linesWaitingAreWrittenTogetherInOrder() throws Exception {
    PrintStream stdout = System.out;
    CountingOut out = new CountingOut();
    LoggerContext context = new LoggerContext();
    context.setMDCAdapter(new LogbackMDCAdapter());
    try {
      // Unbuffered, so that each write the writer makes reaches the counter as one write.
      System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
      Logger logger = logger(context, writer(context));
      logger.info("first");
      // The writer is inside its first write; the next 3,000 lines queue up meanwhile.
      assertThat(out.firstWriteStarted.await(2, TimeUnit.MINUTES)).isTrue();
      for (int i = 0; i < 3000; i++) {
        logger.info("line {}", i);
      }
      out.goOn.countDown();
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
      while (out.text().lines().count() < 3001 && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
    } finally {
      out.goOn.countDown();
      context.stop();
      System.setOut(stdout);
    }
    List<String> lines = out.text().lines().toList();
    assertThat(lines).hasSize(3001);
    assertThat(lines.get(0)).isEqualTo("first");
    for (int i = 0; i < 3000; i++) {
      assertThat(lines.get(i + 1)).isEqualTo("line " + i);
    }
    // 3,000 lines of about 10 bytes waited: one write per 64 KiB batch, not one per line.
    assertThat(out.writes.get()).isLessThanOrEqualTo(3);
  }

  @Test
  void stoppingWritesEveryLineStillQueued() {
    PrintStream stdout = System.out;
    CountingOut out = new CountingOut();
    out.goOn.countDown();
    LoggerContext context = new LoggerContext();
    context.setMDCAdapter(new LogbackMDCAdapter());
    try {
      System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
      Logger logger = logger(context, writer(context));
      for (int i = 0; i < 5000; i++) {
        logger.info("n={}", i);
      }
      context.stop(); // no waiting before it: stop itself writes what is queued
    } finally {
      System.setOut(stdout);
    }
    List<String> lines = out.text().lines().toList();
    assertThat(lines).hasSize(5000);
    assertThat(lines.get(4999)).isEqualTo("n=4999");
  }

  /** A stdout not read for a while: stopping waits until every queued line is written. */
  @Test
  void stoppingWaitsForAStdoutReadLate() throws Exception {
    PrintStream stdout = System.out;
    CountingOut out = new CountingOut();
    LoggerContext context = new LoggerContext();
    context.setMDCAdapter(new LogbackMDCAdapter());
    Thread reader = new Thread(() -> {});
    String written;
    try {
      System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
      Logger logger = logger(context, writer(context));
      logger.info("first");
      assertThat(out.firstWriteStarted.await(2, TimeUnit.MINUTES)).isTrue();
      for (int i = 0; i < 500; i++) {
        logger.info("n={}", i);
      }
      // The reader comes back after longer than the 10 s the stop used to wait.
      reader =
          new Thread(
              () -> {
                try {
                  Thread.sleep(12_000);
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
                out.goOn.countDown();
              });
      reader.start();
      context.stop();
      // What stdout holds when the stop returns (it returned after 10 s with the lines unwritten).
      written = out.text();
    } finally {
      out.goOn.countDown();
      reader.join();
      System.setOut(stdout);
    }
    List<String> lines = written.lines().toList();
    assertThat(lines).hasSize(501);
    assertThat(lines.get(500)).isEqualTo("n=499");
  }

  /**
   * The queue is bounded by the characters its lines hold, not only by their count: long lines
   * while stdout is not read make the logging thread wait instead of filling the heap.
   */
  @Test
  void longLinesWaitForRoomWhileStdoutIsNotRead() throws Exception {
    PrintStream stdout = System.out;
    CountingOut out = new CountingOut();
    LoggerContext context = new LoggerContext();
    context.setMDCAdapter(new LogbackMDCAdapter());
    String longLine = "x".repeat((int) (BackgroundWriter.QUEUE_CHARS * 3 / 4));
    Thread logging = new Thread(() -> {});
    try {
      System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
      Logger logger = logger(context, writer(context));
      logger.info("first");
      assertThat(out.firstWriteStarted.await(2, TimeUnit.MINUTES)).isTrue();
      logging =
          new Thread(
              () -> {
                for (int i = 0; i < 3; i++) {
                  logger.info(longLine);
                }
              });
      logging.start();
      // The second long line has no room while the first waits: the thread waits (it used to
      // queue all three and end).
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
      while (logging.getState() != Thread.State.WAITING
          && logging.isAlive()
          && System.nanoTime() < deadline) {
        Thread.sleep(5);
      }
      assertThat(logging.getState()).isEqualTo(Thread.State.WAITING);
      out.goOn.countDown();
      logging.join(TimeUnit.MINUTES.toMillis(2));
      assertThat(logging.isAlive()).isFalse();
    } finally {
      out.goOn.countDown();
      context.stop();
      System.setOut(stdout);
    }
    List<String> lines = out.text().lines().toList();
    assertThat(lines).hasSize(4);
    assertThat(lines.get(3)).hasSize(longLine.length());
  }
}
