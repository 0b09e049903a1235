package io.github.appsetmapper.logging;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.UnsynchronizedAppenderBase;
import ch.qos.logback.core.encoder.Encoder;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The log's writer thread: a thread that logs hands its event over (its message formatted first, as
 * Logback's AsyncAppender does), and one background thread encodes what it finds waiting and writes
 * that batch to stdout in one write. Logback's AsyncAppender with a ConsoleAppender made one write
 * per line, most of the writer's 4.7 to 6.8 µs per getparams under load (bench/); a line still
 * leaves as soon as the writer reaches it, alone when it came alone. Lines wait, never drop (a full
 * queue makes the logging thread wait); {@link #stop()} writes what is queued. stdout is {@code
 * System.out} at each write, so a test that replaces it sees the lines.
 */
public final class BackgroundWriter extends UnsynchronizedAppenderBase<ILoggingEvent> {
  /** Lines queued for the writer thread before a logging thread waits (never dropped). */
  static final int QUEUE_SIZE = 8192;

  /** A batch is written once it holds this much, so a long backlog is never one huge buffer. */
  static final int BATCH_BYTES = 64 * 1024;

  /** How long stopping waits for the queued lines to be written (a stdout nobody reads). */
  private static final long STOP_WAIT_MILLIS = TimeUnit.SECONDS.toMillis(10);

  private final Encoder<ILoggingEvent> encoder;
  private final BlockingQueue<ILoggingEvent> queue = new ArrayBlockingQueue<>(QUEUE_SIZE);
  private Batch batch = new Batch();
  private volatile boolean stopping;
  private Thread writer;

  public BackgroundWriter(Encoder<ILoggingEvent> encoder) {
    this.encoder = encoder;
  }

  @Override
  public void start() {
    if (isStarted()) {
      return;
    }
    writer = new Thread(this::writeUntilStopped, "log-writer-" + getName());
    writer.setDaemon(true);
    super.start();
    writer.start();
  }

  @Override
  protected void append(ILoggingEvent event) {
    if (stopping) {
      return;
    }
    event.prepareForDeferredProcessing();
    boolean interrupted = false;
    while (true) {
      try {
        queue.put(event);
        break;
      } catch (InterruptedException e) {
        // A logging thread's interrupt is its own business: the line is kept, the flag restored.
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void stop() {
    if (!isStarted()) {
      return;
    }
    stopping = true;
    super.stop();
    writer.interrupt();
    try {
      writer.join(STOP_WAIT_MILLIS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (writer.isAlive()) {
      addWarn(queue.size() + " log lines were not written within " + STOP_WAIT_MILLIS + " ms");
    }
  }

  private void writeUntilStopped() {
    write(encoder.headerBytes());
    flush();
    List<ILoggingEvent> taken = new ArrayList<>();
    while (!stopping) {
      try {
        taken.add(queue.take());
      } catch (InterruptedException e) {
        break; // stop(): what is queued is written below
      }
      queue.drainTo(taken);
      writeAll(taken);
    }
    queue.drainTo(taken);
    writeAll(taken);
    write(encoder.footerBytes());
    flush();
  }

  private void writeAll(List<ILoggingEvent> events) {
    for (ILoggingEvent event : events) {
      try {
        write(encoder.encode(event));
      } catch (RuntimeException e) {
        addError("a log line could not be encoded", e);
      }
      if (batch.size() >= BATCH_BYTES) {
        flush();
      }
    }
    events.clear();
    flush();
  }

  private void write(byte[] bytes) {
    if (bytes != null) {
      batch.write(bytes, 0, bytes.length);
    }
  }

  private void flush() {
    if (batch.size() == 0) {
      return;
    }
    PrintStream out = System.out;
    batch.writeTo(out);
    out.flush();
    // One huge line must not keep a huge buffer for the rest of the process.
    batch = batch.size() > 4 * BATCH_BYTES ? new Batch() : batch;
    batch.reset();
  }

  /** The lines of one write, handed to stdout without a copy. */
  private static final class Batch extends ByteArrayOutputStream {
    Batch() {
      super(8192);
    }

    void writeTo(PrintStream out) {
      out.write(buf, 0, count);
    }
  }
}
