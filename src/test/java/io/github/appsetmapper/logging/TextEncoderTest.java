package io.github.appsetmapper.logging;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.core.encoder.LayoutWrappingEncoder;
import java.nio.charset.Charset;
import java.util.ArrayList;
import java.util.List;
import java.util.TimeZone;
import org.junit.jupiter.api.Test;

/** The writer's encoder writes the bytes the text layout writes, line for line. */
class TextEncoderTest {
  private static final long[] TIMES = {
    0L,
    1L,
    9L,
    10L,
    99L,
    100L,
    999L,
    1_000L,
    1_764_684_000_005L,
    1_764_684_000_050L,
    1_764_684_000_500L,
    1_764_684_000_999L,
    1_764_684_001_000L,
    1_764_684_001_001L,
    1_761_440_399_999L, // 2025-10-26 00:59:59.999Z: a summer-time change in Europe
    1_761_440_400_000L,
    4_102_444_800_123L // 2100-01-01
  };

  private static final String[] MESSAGES = {
    "mapping=fast appset=bench status=200 rows=1 upstream_calls=0 ms=0",
    "",
    "forged\nline\r\tand \u0000 \u001b[31m red \u2028 \u0085 end",
    "unicode é ü 漢字 \uD83D\uDE00 half \uD800 x",
    "error=\"quoted \\\" and \\\\\""
  };

  @Test
  void everyLineIsTheLayoutsBytes() {
    for (String zone : new String[] {"UTC", "Asia/Kolkata", "Europe/Berlin", "America/St_Johns"}) {
      TimeZone before = TimeZone.getDefault();
      try {
        TimeZone.setDefault(TimeZone.getTimeZone(zone));
        LoggerContext context = new LoggerContext();
        TextEncoder fast = new TextEncoder();
        fast.setContext(context);
        fast.start();
        LayoutWrappingEncoder<ILoggingEvent> layout = layoutEncoder(context);
        for (ILoggingEvent event : events(context)) {
          String expected = new String(layout.encode(event), Charset.defaultCharset());
          assertThat(new String(fast.encode(event), Charset.defaultCharset()))
              .as("%s at %d", zone, event.getTimeStamp())
              .isEqualTo(expected);
        }
      } finally {
        TimeZone.setDefault(before);
      }
    }
  }

  @Test
  void aLineCarriesItsTimeEvenWhenSecondsRepeatOutOfOrder() {
    LoggerContext context = new LoggerContext();
    TextEncoder fast = new TextEncoder();
    fast.setContext(context);
    fast.start();
    LayoutWrappingEncoder<ILoggingEvent> layout = layoutEncoder(context);
    Logger logger = context.getLogger("appset_mapper.getparams");
    // Back and forth across a second: the cached second must follow each line's own time.
    for (long at : new long[] {5_000L, 4_999L, 5_001L, 4_000L, 6_000L, 5_999L}) {
      LoggingEvent event = new LoggingEvent("x", logger, Level.INFO, "m", null, null);
      event.setTimeStamp(at);
      assertThat(fast.encode(event)).isEqualTo(layout.encode(event));
    }
  }

  private static LayoutWrappingEncoder<ILoggingEvent> layoutEncoder(LoggerContext context) {
    TextLayout pattern = new TextLayout();
    pattern.setContext(context);
    pattern.start();
    LayoutWrappingEncoder<ILoggingEvent> encoder = new LayoutWrappingEncoder<>();
    encoder.setContext(context);
    encoder.setLayout(pattern);
    encoder.start();
    return encoder;
  }

  private static List<ILoggingEvent> events(LoggerContext context) {
    List<ILoggingEvent> events = new ArrayList<>();
    String[] loggers = {
      "appset_mapper.getparams", "io.undertow.request", "nodots", "a.b.c.D$Inner"
    };
    Level[] levels = {Level.TRACE, Level.DEBUG, Level.INFO, Level.WARN, Level.ERROR};
    Exception nested = new IllegalStateException("outer\nforged", new RuntimeException("cause\r"));
    nested.addSuppressed(new IllegalArgumentException("suppressed \u001b"));
    int i = 0;
    for (long at : TIMES) {
      for (String message : MESSAGES) {
        Logger logger = context.getLogger(loggers[i % loggers.length]);
        Throwable thrown = i % 7 == 0 ? nested : null;
        LoggingEvent event =
            new LoggingEvent(
                "x", logger, levels[i % levels.length], message + " {}", thrown, new Object[] {i});
        event.setTimeStamp(at);
        events.add(event);
        i++;
      }
    }
    return events;
  }
}
