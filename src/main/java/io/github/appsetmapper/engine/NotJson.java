package io.github.appsetmapper.engine;

import io.github.appsetmapper.text.NotJsonText;
import io.github.appsetmapper.upstream.call.UpstreamResponse;
import java.util.function.UnaryOperator;

/**
 * {@link NotJsonText}'s line for an upstream answer that is not JSON where JSON was read; the token
 * readers of {@code upstream.auth} say the same line.
 */
final class NotJson {
  static final int REDACTED_BYTES = NotJsonText.REDACTED_BYTES;

  private NotJson() {}

  /** "answered STATUS with TYPE (not JSON): 'FIRST CHARACTERS'". */
  static String line(UpstreamResponse response, UnaryOperator<String> excerpt) {
    return NotJsonText.line(
        response.status(), response.headers().first("Content-Type"), response.body(), excerpt);
  }

  /** "answered STATUS with TYPE (not JSON)", quoting nothing of the body. */
  static String unquoted(UpstreamResponse response) {
    return NotJsonText.unquoted(response.status(), response.headers().first("Content-Type"));
  }

  /** The first 16 KiB as text ({@link NotJsonText#firstChars}). */
  static String firstChars(byte[] body) {
    return NotJsonText.firstChars(body);
  }
}
