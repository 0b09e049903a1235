package io.github.appsetmapper.engine;

/** The request's input is wrong (undeclared, missing, invalid): a 400 naming the parameter. */
public final class InputException extends Exception {
  public InputException(String message) {
    super(message);
  }
}
