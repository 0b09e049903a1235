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
import java.util.concurrent.locks.LockSupport;

/**
 * The log's writer thread: a thread that logs hands its event over (its message formatted first, as
 * Logback's AsyncAppender does), and one background thread encodes what it finds waiting and writes
 * that batch to stdout in one write. Logback's AsyncAppender with a ConsoleAppender made one write
 * per line, most of the writer's 4.7 to 6.8 µs per getparams under load (bench/); a line leaves
 * within {@link #LINGER_NANOS} of being logged, in a batch while lines keep coming. Lines wait,
 * never drop: a full queue makes the logging thread wait, full by count or by the characters its
 * lines hold (8,192 refusals of a 60,000-character path filled a 256 MiB heap while stdout was not
 * read); {@link #stop()} writes what is queued, however long stdout takes. stdout is {@code
 * System.out} at each write, so a test that replaces it sees the lines.
 */
public final class BackgroundWriter extends UnsynchronizedAppenderBase<ILoggingEvent> {
  /** Lines queued for the writer thread before a logging thread waits (never dropped). */
  static final int QUEUE_SIZE = 8192;

  /** A batch is written once it holds this much, so a long backlog is never one huge buffer. */
  static final int BATCH_BYTES = 64 * 1024;

  /**
   * The characters the queued lines may hold before a logging thread waits (a line longer than this
   * alone waits for an empty queue).
   */
  static final long QUEUE_CHARS = 4L << 20;

  /**
   * How long the writer waits for more lines after a write before it sleeps until woken: at most
   * this much later a line reaches stdout, and under load the writer wakes at most this often.
   */
  static final long LINGER_NANOS = 1_000_000;

  /** What a thrown exception's line is counted as: its stack's lines are not in the message. */
  private static final int THROWN_CHARS = 8192;

  private final Encoder<ILoggingEvent> encoder;
  private final BlockingQueue<ILoggingEvent> queue = new ArrayBlockingQueue<>(QUEUE_SIZE);
  private Batch batch = new Batch();
  private final Object room = new Object();
  private long queuedChars;
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
    long chars = chars(event);
    boolean interrupted = false;
    synchronized (room) {
      while (queuedChars > 0 && queuedChars + chars > QUEUE_CHARS) {
        try {
          room.wait();
        } catch (InterruptedException e) {
          // A logging thread's interrupt is its own business: the line is kept, the flag restored.
          interrupted = true;
        }
      }
      queuedChars += chars;
    }
    while (true) {
      try {
        queue.put(event);
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  private static long chars(ILoggingEvent event) {
    String message = event.getFormattedMessage();
    return 64L
        + (message == null ? 0 : message.length())
        + (event.getThrowableProxy() == null ? 0 : THROWN_CHARS);
  }

  /** The writer wrote {@code events}: their room is free again. */
  private void written(List<ILoggingEvent> events) {
    long chars = 0;
    for (ILoggingEvent event : events) {
      chars += chars(event);
    }
    synchronized (room) {
      queuedChars -= chars;
      room.notifyAll();
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
    // Every line queued is written, however long a stdout read slowly takes: the process's end
    // (a shutdown hook) waits for it, as a pod's grace period bounds it.
    boolean interrupted = false;
    while (writer.isAlive()) {
      try {
        writer.join();
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
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
      // While lines keep coming, the writer looks again after LINGER_NANOS rather than waiting on
      // the queue: a logging thread then hands a line over without waking it (one futex wake and
      // one context switch per getparams were a quarter of a static answer's CPU, bench/).
      while (!stopping) {
        LockSupport.parkNanos(this, LINGER_NANOS);
        if (queue.drainTo(taken) == 0) {
          break; // quiet again: the next line wakes the writer
        }
        writeAll(taken);
      }
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
    flush();
    written(events);
    events.clear();
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
