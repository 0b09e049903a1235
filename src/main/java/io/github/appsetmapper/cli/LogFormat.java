package io.github.appsetmapper.cli;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.JsonEncoder;
import io.github.appsetmapper.logging.BackgroundWriter;
import io.github.appsetmapper.logging.JsonLines;
import io.github.appsetmapper.logging.LogSetup;
import org.slf4j.LoggerFactory;

/** {@code --log-format}: one line per event as text, or as JSON for log pipelines. */
enum LogFormat {
  TEXT,
  JSON;

  void apply() {
    if (this == TEXT) {
      return;
    }
    LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
    Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    JsonEncoder encoder = JsonLines.started(context);
    // Written by a background thread, as the text format is (LogSetup).
    BackgroundWriter async = LogSetup.inBackground(context, "ASYNC_JSON", encoder);
    root.detachAndStopAllAppenders();
    root.addAppender(async);
  }

  /** Writes out the lines still queued; the last thing the process does. */
  static void flush() {
    if (LoggerFactory.getILoggerFactory() instanceof LoggerContext context) {
      context.stop();
    }
  }

  @Override
  public String toString() {
    return name().toLowerCase();
  }
}
