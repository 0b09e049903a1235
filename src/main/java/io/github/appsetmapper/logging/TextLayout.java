package io.github.appsetmapper.logging;

import ch.qos.logback.classic.PatternLayout;

/**
 * The text log format: one line per event ({@code time level logger message}), the message and
 * exception messages escaped by {@link LogText} whatever the pattern says, so that no logged value
 * can forge a line. Tests render captured events with it; {@link LogSetup}'s writer writes the same
 * bytes through {@link TextEncoder}, which is cheaper per line.
 */
public final class TextLayout extends PatternLayout {
  /** The time of a line; {@link TextEncoder} formats it the same way. */
  static final String TIME_PATTERN = "yyyy-MM-dd'T'HH:mm:ss.SSSXXX";

  public static final String PATTERN = "%d{" + TIME_PATTERN + "} %-5level %logger{0} %msg%n%ex";

  public TextLayout() {
    setPattern(PATTERN);
    for (String word : new String[] {"m", "msg", "message"}) {
      getInstanceConverterMap().put(word, EscapedMessageConverter::new);
    }
    for (String word : new String[] {"ex", "exception", "throwable"}) {
      getInstanceConverterMap().put(word, EscapedThrowableConverter::new);
    }
  }
}
