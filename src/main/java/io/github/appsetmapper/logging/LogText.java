package io.github.appsetmapper.logging;

import io.github.appsetmapper.text.Printable;

/**
 * Makes text safe to print on one log line, by the one escape every text output uses ({@link
 * Printable}): a value from a request or an upstream (a path, a name, a message) can never end a
 * log line early and start a forged one.
 */
public final class LogText {
  private LogText() {}

  public static String escape(String text) {
    return Printable.escape(text);
  }
}
