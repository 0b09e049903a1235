package io.github.appsetmapper.logging;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.CoreConstants;
import ch.qos.logback.core.encoder.EncoderBase;
import java.nio.charset.Charset;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.Map;

/**
 * The text format's lines, byte for byte what {@link TextLayout} in Logback's layout encoder writes
 * ({@code TextEncoderTest} holds them equal), for the writer thread alone: the time is formatted
 * once a second and the logger's short name once a logger, where the pattern's converters formatted
 * a date and abbreviated a name for every line (a third of the writer's CPU per getparams,
 * bench/profile). Not thread-safe: {@link BackgroundWriter} calls it from its one thread.
 */
final class TextEncoder extends EncoderBase<ILoggingEvent> {
  // The zone at start, as the layout's date converter takes it.
  private final DateTimeFormatter time =
      DateTimeFormatter.ofPattern(TextLayout.TIME_PATTERN).withZone(ZoneId.systemDefault());
  private final EscapedThrowableConverter thrown = new EscapedThrowableConverter();
  private final Map<String, String> shortNames = new HashMap<>();
  private StringBuilder line = new StringBuilder(256);
  private long second = Long.MIN_VALUE;
  private String beforeMillis = "";
  private String afterMillis = "";

  @Override
  public void start() {
    thrown.setContext(getContext());
    thrown.start();
    super.start();
  }

  @Override
  public byte[] headerBytes() {
    return null;
  }

  @Override
  public byte[] footerBytes() {
    return null;
  }

  @Override
  public byte[] encode(ILoggingEvent event) {
    line.setLength(0);
    time(event.getTimeStamp());
    String level = event.getLevel().toString();
    line.append(level);
    for (int pad = level.length(); pad < 5; pad++) {
      line.append(' ');
    }
    line.append(' ').append(shortName(event.getLoggerName())).append(' ');
    line.append(LogText.escape(event.getFormattedMessage())).append(CoreConstants.LINE_SEPARATOR);
    if (event.getThrowableProxy() != null) {
      line.append(thrown.convert(event));
    }
    // The layout encoder's charset: the platform's (UTF-8 from Java 18).
    byte[] bytes = line.toString().getBytes(Charset.defaultCharset());
    if (line.capacity() > 64 * 1024) {
      line = new StringBuilder(256); // one huge line must not keep a huge buffer
    }
    return bytes;
  }

  /** {@code %d{...}} and its blank: the layout's pattern, formatted once a second. */
  private void time(long millis) {
    long at = Math.floorDiv(millis, 1000L);
    if (at != second) {
      String whole = time.format(Instant.ofEpochSecond(at));
      int dot = whole.indexOf('.', 10);
      beforeMillis = whole.substring(0, dot + 1);
      afterMillis = whole.substring(dot + 4);
      second = at;
    }
    int within = (int) Math.floorMod(millis, 1000L);
    line.append(beforeMillis);
    if (within < 100) {
      line.append('0');
    }
    if (within < 10) {
      line.append('0');
    }
    line.append(within).append(afterMillis).append(' ');
  }

  /** {@code %logger{0}}: the name after its last dot (Logback's ClassNameOnlyAbbreviator). */
  private String shortName(String logger) {
    String known = shortNames.get(logger);
    if (known == null) {
      known = logger.substring(logger.lastIndexOf('.') + 1);
      if (shortNames.size() < 1024) { // logger names are code's, but bound the map anyway
        shortNames.put(logger, known);
      }
    }
    return known;
  }
}
