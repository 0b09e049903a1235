package io.github.appsetmapper.engine;

/**
 * The answer looks wrong and is refused so that Argo CD keeps its Applications ({@code minItems}):
 * a 502.
 */
public final class GuardException extends Exception {
  public GuardException(String message) {
    super(message);
  }
}
