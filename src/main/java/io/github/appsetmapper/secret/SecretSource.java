package io.github.appsetmapper.secret;

/** Where one secret value comes from; read when a request needs it, never logged. */
public interface SecretSource {
  /** The current value, surrounding whitespace trimmed. */
  String value() throws SecretUnavailableException;

  /** A description that names no value, such as {@code file /var/run/secrets/x}. */
  String describe();
}
