package io.github.appsetmapper.secret;

import java.time.Duration;

/** Where one secret value comes from; read when a request needs it, never logged. */
public interface SecretSource {
  /** The current value, surrounding whitespace trimmed. */
  String value() throws SecretUnavailableException;

  /**
   * As {@link #value()}, given up after {@code within} (what is left of the request's deadline): a
   * source that reads a file must not hold the request past it.
   */
  default String value(Duration within) throws SecretUnavailableException {
    return value();
  }

  /** A description that names no value, such as {@code file /var/run/secrets/x}. */
  String describe();
}
