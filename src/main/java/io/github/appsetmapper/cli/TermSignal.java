package io.github.appsetmapper.cli;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs {@code serve}'s stop sequence on SIGTERM and then exits with status 0.
 *
 * <p>Left to itself the JVM answers SIGTERM by running the shutdown hooks and exiting with 143 (128
 * + 15) whatever they did, so every rolling update leaves pods that "failed" with exit code 143.
 * Here TERM gets its own handler instead: it runs the stop sequence (readiness off, drain, requests
 * in flight finish, logs flushed) on its own thread and exits 0 once it is done, or 1 when the stop
 * sequence itself failed. The same sequence stays a shutdown hook for every other way out (Ctrl-C,
 * SIGHUP), which keep the JVM's status; it runs once whoever asks first, and a second asker waits
 * for it to finish rather than cut the drain short.
 *
 * <p>The handler is {@code sun.misc.Signal} of the {@code jdk.unsupported} module (the supported
 * way to handle a signal in Java 17; a jlink-trimmed runtime must keep that module), called
 * reflectively because javac's warning about it cannot be suppressed. Where TERM cannot be handled
 * ({@code -Xrs}, another owner of the signal, no such module) the JVM's own handling stays: the
 * same stop sequence, exit status 143.
 */
final class TermSignal {
  private static final Logger LOG = LoggerFactory.getLogger("appset_mapper.shutdown");

  private TermSignal() {}

  /** Runs {@code stop} once on SIGTERM (then exit 0) or at JVM shutdown, whichever comes first. */
  static void stopOn(Runnable stop) {
    Once once = new Once(stop);
    Runtime.getRuntime().addShutdownHook(new Thread(once::run, "shutdown"));
    handleTerm(
        () -> {
          Thread thread = new Thread(() -> System.exit(once.run() ? 0 : 1), "sigterm");
          thread.start();
        });
  }

  /** True when TERM now runs {@code onTerm} (on the JVM's signal thread: return quickly). */
  static boolean handleTerm(Runnable onTerm) {
    try {
      Class<?> signal = Class.forName("sun.misc.Signal");
      Class<?> handler = Class.forName("sun.misc.SignalHandler");
      InvocationHandler calls = (proxy, method, args) -> handlerMethod(proxy, method, args, onTerm);
      Object proxy =
          Proxy.newProxyInstance(
              TermSignal.class.getClassLoader(), new Class<?>[] {handler}, calls);
      signal
          .getMethod("handle", signal, handler)
          .invoke(null, signal.getConstructor(String.class).newInstance("TERM"), proxy);
      return true;
    } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
      return false;
    }
  }

  private static Object handlerMethod(Object proxy, Method method, Object[] args, Runnable onTerm) {
    return switch (method.getName()) {
      case "handle" -> {
        onTerm.run();
        yield null;
      }
      case "hashCode" -> System.identityHashCode(proxy);
      case "equals" -> proxy == args[0];
      default -> "TermSignal handler";
    };
  }

  /** Runs an action at most once; later callers wait for it and learn whether it completed. */
  private static final class Once {
    private final Runnable action;
    private final AtomicBoolean started = new AtomicBoolean();
    private final CountDownLatch done = new CountDownLatch(1);
    private volatile boolean completed;

    Once(Runnable action) {
      this.action = action;
    }

    boolean run() {
      if (started.compareAndSet(false, true)) {
        try {
          action.run();
          completed = true;
        } catch (RuntimeException | Error e) {
          // Through the log, so that the line is formatted (and escaped) like every other one.
          LOG.error("the stop sequence failed: {}", e.toString(), e);
        } finally {
          done.countDown();
        }
      } else {
        try {
          done.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      return completed;
    }
  }
}
