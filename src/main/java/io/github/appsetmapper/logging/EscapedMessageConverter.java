package io.github.appsetmapper.logging;

import ch.qos.logback.classic.pattern.ClassicConverter;
import ch.qos.logback.classic.spi.ILoggingEvent;

/** {@code %msg} with every control character escaped (see {@link LogText}). */
public final class EscapedMessageConverter extends ClassicConverter {
  @Override
  public String convert(ILoggingEvent event) {
    return LogText.escape(event.getFormattedMessage());
  }
}
