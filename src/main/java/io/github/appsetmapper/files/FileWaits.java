package io.github.appsetmapper.files;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Where file system calls that may block run: opening a FIFO nobody writes, or anything on a hung
 * network mount, blocks in the kernel, and no interrupt ends it. Each runs on a thread of its own
 * while the caller waits at most its time bound, and at most {@link #AT_ONCE} run at once, so files
 * that hang hold a few threads of this pool, never a request worker or the reloader, and never more
 * than these few.
 */
final class FileWaits {
  /** File operations running at once; past them a read waits for a slot within its bound. */
  static final int AT_ONCE = 4;

  private static final Semaphore SLOTS = new Semaphore(AT_ONCE);
  private static final AtomicInteger THREADS = new AtomicInteger();
  private static final ExecutorService POOL =
      Executors.newCachedThreadPool(
          r -> {
            Thread thread = new Thread(r, "file-read-" + THREADS.incrementAndGet());
            thread.setDaemon(true);
            return thread;
          });

  /** What a bounded file operation does. */
  interface Operation<T> {
    T run() throws IOException;
  }

  private FileWaits() {}

  /** The operation's result; a refusal when it, or its wait for a slot, outlasts {@code limit}. */
  static <T> T within(Duration limit, Operation<T> operation) throws IOException {
    long nanos = Math.max(1, limit.toNanos());
    long start = System.nanoTime();
    try {
      if (!SLOTS.tryAcquire(nanos, TimeUnit.NANOSECONDS)) {
        throw new BoundedFiles.Refused(
            "not read: "
                + AT_ONCE
                + " file reads are hung already (a FIFO nobody writes, or a hung mount?)");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted waiting to read a file");
    }
    Future<T> result;
    try {
      result =
          POOL.submit(
              () -> {
                try {
                  return operation.run();
                } finally {
                  // Released when the operation ends, not when the caller gives up: a hung open
                  // keeps its slot, which is what bounds the threads hung at once.
                  SLOTS.release();
                }
              });
    } catch (RuntimeException e) {
      SLOTS.release();
      throw e;
    }
    try {
      long left = Math.max(1, nanos - (System.nanoTime() - start));
      return result.get(left, TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      result.cancel(true);
      throw new BoundedFiles.Refused(
          "not read within "
              + seconds(limit)
              + " (a FIFO nobody writes, or a hung network mount?)");
    } catch (InterruptedException e) {
      result.cancel(true);
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted reading a file");
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof IOException io) {
        throw io;
      }
      if (cause instanceof RuntimeException runtime) {
        throw runtime;
      }
      if (cause instanceof Error error) {
        throw error;
      }
      throw new IOException(cause);
    }
  }

  private static String seconds(Duration limit) {
    long millis = limit.toMillis();
    return millis % 1000 == 0 ? millis / 1000 + "s" : millis + "ms";
  }
}
