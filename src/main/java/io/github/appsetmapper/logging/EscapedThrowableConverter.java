package io.github.appsetmapper.logging;

import ch.qos.logback.classic.pattern.ThrowableProxyConverter;
import ch.qos.logback.classic.spi.IThrowableProxy;

/**
 * {@code %ex}: the stack trace as usual, one frame per line, but each exception's message escaped
 * (see {@link LogText}): a message may quote a request or an upstream answer.
 */
public final class EscapedThrowableConverter extends ThrowableProxyConverter {
  @Override
  protected String throwableProxyToString(IThrowableProxy proxy) {
    return super.throwableProxyToString(new ThrowableTexts(proxy, LogText::escape));
  }
}
