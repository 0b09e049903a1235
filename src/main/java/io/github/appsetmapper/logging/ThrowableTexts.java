package io.github.appsetmapper.logging;

import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.StackTraceElementProxy;
import java.util.function.UnaryOperator;

/**
 * A throwable as Logback sees it, each message (its causes' and suppressed ones' too) passed
 * through {@code text}: the one way a log format changes what an exception's message shows.
 */
record ThrowableTexts(IThrowableProxy proxy, UnaryOperator<String> text)
    implements IThrowableProxy {
  @Override
  public String getMessage() {
    return text.apply(proxy.getMessage());
  }

  @Override
  public String getClassName() {
    return proxy.getClassName();
  }

  @Override
  public StackTraceElementProxy[] getStackTraceElementProxyArray() {
    return proxy.getStackTraceElementProxyArray();
  }

  @Override
  public int getCommonFrames() {
    return proxy.getCommonFrames();
  }

  @Override
  public IThrowableProxy getCause() {
    return proxy.getCause() == null ? null : new ThrowableTexts(proxy.getCause(), text);
  }

  @Override
  public IThrowableProxy[] getSuppressed() {
    IThrowableProxy[] suppressed = proxy.getSuppressed();
    if (suppressed == null) {
      return null;
    }
    IThrowableProxy[] out = new IThrowableProxy[suppressed.length];
    for (int i = 0; i < suppressed.length; i++) {
      out[i] = new ThrowableTexts(suppressed[i], text);
    }
    return out;
  }

  @Override
  public boolean isCyclic() {
    return proxy.isCyclic();
  }
}
