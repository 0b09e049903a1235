package io.github.appsetmapper.testing;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;
import org.slf4j.LoggerFactory;

/** Captures every log line (formatted, with throwables) while it is open. */
public final class LogCapture implements AutoCloseable {
  private final ListAppender<ILoggingEvent> appender = new ListAppender<>();
  private final Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);

  public LogCapture() {
    appender.start();
    root.addAppender(appender);
  }

  /** Each event's formatted message plus its throwable's messages. */
  public List<String> lines() {
    synchronized (appender) { // what ListAppender.doAppend holds while it adds
      return appender.list.stream()
          .map(
              e -> {
                StringBuilder line = new StringBuilder(e.getFormattedMessage());
                for (var t = e.getThrowableProxy(); t != null; t = t.getCause()) {
                  line.append(" | ").append(t.getClassName()).append(": ").append(t.getMessage());
                }
                return line.toString();
              })
          .toList();
    }
  }

  /** Each event as the text log format prints it (one line, or a stack trace's lines). */
  public List<String> rendered() {
    io.github.appsetmapper.logging.TextLayout layout =
        new io.github.appsetmapper.logging.TextLayout();
    layout.setContext(root.getLoggerContext());
    layout.start();
    synchronized (appender) { // what ListAppender.doAppend holds while it adds
      return appender.list.stream().map(layout::doLayout).toList();
    }
  }

  @Override
  public void close() {
    root.detachAppender(appender);
  }
}
