package io.github.appsetmapper.tracing;

import io.github.appsetmapper.secret.Redactor;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.LogManager;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.slf4j.bridge.SLF4JBridgeHandler;

/**
 * The OpenTelemetry SDK logs through {@code java.util.logging}, which printed its own two-line
 * format on stderr, unredacted (a collector's 401 quoting the credential it was sent). Its records
 * go through our logging instead: one line in our format (text or JSON, escaped), the message and
 * any exception's messages redacted, the stack trace left out (the SDK's failures are about the
 * collector, not our code).
 */
final class SdkLogging {
  private SdkLogging() {}

  /** Replaces the root handlers of {@code java.util.logging} with one that redacts. */
  static synchronized void route(Redactor redactor) {
    Logger root = LogManager.getLogManager().getLogger("");
    for (Handler handler : root.getHandlers()) {
      root.removeHandler(handler);
    }
    root.addHandler(new Redacting(redactor));
  }

  private static final class Redacting extends SLF4JBridgeHandler {
    private static final Formatter MESSAGE =
        new Formatter() {
          @Override
          public String format(LogRecord record) {
            return formatMessage(record);
          }
        };

    private final Redactor redactor;

    Redacting(Redactor redactor) {
      this.redactor = redactor;
    }

    @Override
    public void publish(LogRecord record) {
      if (record == null) {
        return;
      }
      StringBuilder text = new StringBuilder(String.valueOf(MESSAGE.formatMessage(record)));
      for (Throwable t = record.getThrown(); t != null; t = t.getCause()) {
        text.append(": ").append(t.getClass().getName());
        if (t.getMessage() != null) {
          text.append(": ").append(t.getMessage());
        }
        if (t.getCause() == t) {
          break;
        }
      }
      LogRecord redacted = new LogRecord(record.getLevel(), redactor.redact(text.toString()));
      redacted.setLoggerName(record.getLoggerName());
      redacted.setInstant(record.getInstant());
      redacted.setSourceClassName(record.getSourceClassName());
      redacted.setSourceMethodName(record.getSourceMethodName());
      super.publish(redacted);
    }
  }
}
