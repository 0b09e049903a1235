package io.github.appsetmapper.logging;

import ch.qos.logback.classic.pattern.ThrowableProxyConverter;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.StackTraceElementProxy;

/**
 * {@code %ex}: the stack trace as usual, one frame per line, but each exception's message escaped
 * (see {@link LogText}): a message may quote a request or an upstream answer.
 */
public final class EscapedThrowableConverter extends ThrowableProxyConverter {
  @Override
  protected String throwableProxyToString(IThrowableProxy proxy) {
    return super.throwableProxyToString(new Escaped(proxy));
  }

  /** The same throwable, its message (and its causes' and suppressed ones') escaped. */
  private record Escaped(IThrowableProxy proxy) implements IThrowableProxy {
    @Override
    public String getMessage() {
      return LogText.escape(proxy.getMessage());
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
      return proxy.getCause() == null ? null : new Escaped(proxy.getCause());
    }

    @Override
    public IThrowableProxy[] getSuppressed() {
      IThrowableProxy[] suppressed = proxy.getSuppressed();
      if (suppressed == null) {
        return null;
      }
      IThrowableProxy[] out = new IThrowableProxy[suppressed.length];
      for (int i = 0; i < suppressed.length; i++) {
        out[i] = new Escaped(suppressed[i]);
      }
      return out;
    }

    @Override
    public boolean isCyclic() {
      return proxy.isCyclic();
    }
  }
}
