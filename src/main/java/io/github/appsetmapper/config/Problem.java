package io.github.appsetmapper.config;

/** One load error, printed as {@code file:line:column path: message}. */
public record Problem(Pos pos, String message) {

  @Override
  public String toString() {
    return pos + ": " + message;
  }
}
