package io.github.appsetmapper.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.LoggerContextVO;
import io.github.appsetmapper.text.Printable;
import java.util.List;
import java.util.Map;
import org.slf4j.Marker;
import org.slf4j.event.KeyValuePair;

/**
 * An event whose message and exception messages show half of a surrogate pair as its escape text
 * ({@code \\ud83d}), as the text log does: Logback's JSON encoder wrote it as '?' (it has no UTF-8
 * form), and a JSON escape of half a pair is refused by strict readers, which would lose the line.
 */
record HalfPairsShown(ILoggingEvent event) implements ILoggingEvent {
  /** {@code event} itself when none of its texts holds half a pair (nearly always). */
  static ILoggingEvent of(ILoggingEvent event) {
    return Printable.halvesShown(event.getFormattedMessage()) == event.getFormattedMessage()
            && !halvesIn(event.getThrowableProxy())
        ? event
        : new HalfPairsShown(event);
  }

  private static boolean halvesIn(IThrowableProxy proxy) {
    if (proxy == null) {
      return false;
    }
    if (Printable.halvesShown(proxy.getMessage()) != proxy.getMessage()
        || halvesIn(proxy.getCause())) {
      return true;
    }
    IThrowableProxy[] suppressed = proxy.getSuppressed();
    if (suppressed != null) {
      for (IThrowableProxy each : suppressed) {
        if (halvesIn(each)) {
          return true;
        }
      }
    }
    return false;
  }

  @Override
  public String getFormattedMessage() {
    return Printable.halvesShown(event.getFormattedMessage());
  }

  @Override
  public String getMessage() {
    return Printable.halvesShown(event.getMessage());
  }

  @Override
  public IThrowableProxy getThrowableProxy() {
    IThrowableProxy proxy = event.getThrowableProxy();
    return proxy == null ? null : new ThrowableTexts(proxy, Printable::halvesShown);
  }

  @Override
  public String getThreadName() {
    return event.getThreadName();
  }

  @Override
  public Level getLevel() {
    return event.getLevel();
  }

  @Override
  public Object[] getArgumentArray() {
    return event.getArgumentArray();
  }

  @Override
  public String getLoggerName() {
    return event.getLoggerName();
  }

  @Override
  public LoggerContextVO getLoggerContextVO() {
    return event.getLoggerContextVO();
  }

  @Override
  public StackTraceElement[] getCallerData() {
    return event.getCallerData();
  }

  @Override
  public boolean hasCallerData() {
    return event.hasCallerData();
  }

  @Override
  public List<Marker> getMarkerList() {
    return event.getMarkerList();
  }

  @Override
  public Map<String, String> getMDCPropertyMap() {
    return event.getMDCPropertyMap();
  }

  @Override
  @SuppressWarnings("deprecation")
  public Map<String, String> getMdc() {
    return event.getMdc();
  }

  @Override
  public long getTimeStamp() {
    return event.getTimeStamp();
  }

  @Override
  public int getNanoseconds() {
    return event.getNanoseconds();
  }

  @Override
  public long getSequenceNumber() {
    return event.getSequenceNumber();
  }

  @Override
  public List<KeyValuePair> getKeyValuePairs() {
    return event.getKeyValuePairs();
  }

  @Override
  public void prepareForDeferredProcessing() {
    event.prepareForDeferredProcessing();
  }
}
