package io.github.appsetmapper.cli;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.JsonEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
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
    JsonEncoder encoder = new JsonEncoder();
    encoder.setContext(context);
    encoder.setWithArguments(false);
    encoder.setWithSequenceNumber(false);
    encoder.setWithContext(false);
    encoder.setWithNanoseconds(false);
    encoder.setWithMessage(false);
    encoder.setWithFormattedMessage(true);
    encoder.start();
    ConsoleAppender<ILoggingEvent> appender = new ConsoleAppender<>();
    appender.setContext(context);
    appender.setName("JSON");
    appender.setEncoder(encoder);
    appender.start();
    root.detachAndStopAllAppenders();
    root.addAppender(appender);
  }

  @Override
  public String toString() {
    return name().toLowerCase();
  }
}
