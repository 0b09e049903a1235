package io.github.appsetmapper.secret;

/** A secret could not be read; the message names where it was looked for, never a value. */
public final class SecretUnavailableException extends Exception {
  public SecretUnavailableException(String message) {
    super(message);
  }
}
