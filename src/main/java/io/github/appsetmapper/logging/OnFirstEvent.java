package io.github.appsetmapper.logging;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.Context;
import ch.qos.logback.core.UnsynchronizedAppenderBase;
import java.util.function.Supplier;

/**
 * An appender made on the first event it is given. The text layout parses its pattern through
 * Logback's converters (about 150 classes, most of them lambdas spun at run time) and the writer
 * thread starts; {@code validate} and {@code test} log nothing, yet a library's static logger sets
 * Logback up in every run (issue 25). Stopping it stops what it made, so the lines queued are
 * written.
 */
final class OnFirstEvent extends UnsynchronizedAppenderBase<ILoggingEvent> {
  private final Supplier<Appender<ILoggingEvent>> make;
  private volatile Appender<ILoggingEvent> made;

  OnFirstEvent(Context context, String name, Supplier<Appender<ILoggingEvent>> make) {
    this.make = make;
    setContext(context);
    setName(name);
  }

  @Override
  protected void append(ILoggingEvent event) {
    made().doAppend(event);
  }

  /** Made once; after that a read, not a lock every thread that logs takes for every line. */
  private Appender<ILoggingEvent> made() {
    Appender<ILoggingEvent> ready = made;
    if (ready != null) {
      return ready;
    }
    synchronized (this) {
      if (made == null) {
        made = make.get();
      }
      return made;
    }
  }

  @Override
  public synchronized void stop() {
    super.stop();
    if (made != null) {
      made.stop();
    }
  }
}
